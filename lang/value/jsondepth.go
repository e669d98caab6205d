package value

// JSONTextDepth returns the deepest nesting of objects and arrays in the
// JSON text b, without decoding it (brackets inside strings do not count;
// a text that breaks off counts what it holds). It bounds work on a text
// before anything is built from it.
func JSONTextDepth[T string | []byte](b T) int {
	depth, most, inStr := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
			most = max(most, depth)
		case '}', ']':
			depth--
		}
	}
	return most
}
