package parser

import (
	"regexp"
	"strings"
	"sync"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/lexer"
)

// Hints for regex literals of other languages (`/ab+/i.test(s)`,
// `s.match(/\d+/g)`, `s.replace(/x/g, "y")`): A0 writes a pattern as a
// string argument of the re.* functions. A regex literal fails either in
// the lexer (on `\`, `^`, `$`, `|`, `?` …) or in the parser (on its first
// `/`); both look at the text of the line around the error.

var (
	regexAfterCall  = lazyRegexp(`^\s*\.\s*([A-Za-z_]\w*)\s*\(`)
	regexBeforeCall = lazyRegexp(`([A-Za-z_][\w.]*)\.([A-Za-z_]\w*)\s*\(\s*$`)
)

// regexLiteralAt finds a regex literal on line that contains byte col:
// a `/` where an expression starts (after an operator, an opening bracket,
// a separator, `return` or at the start of the line) up to the next `/`
// that is not escaped or in a character class. Strings are skipped.
func regexLiteralAt(line string, col int) (start, end int, ok bool) {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
			continue
		case '/':
		default:
			continue
		}
		before := strings.TrimRight(line[:i], " \t")
		if before != "" && !strings.ContainsRune("=(,:[!&|?{};", rune(before[len(before)-1])) && !strings.HasSuffix(before, "return") {
			continue
		}
		j, class := i+1, false
		for ; j < len(line); j++ {
			c := line[j]
			if c == '\\' {
				j++
			} else if c == '[' {
				class = true
			} else if c == ']' {
				class = false
			} else if c == '/' && !class {
				break
			}
		}
		if j >= len(line) || j == i+1 {
			return 0, 0, false
		}
		if col >= i && col <= j {
			return i, j, true
		}
		i = j
	}
	return 0, 0, false
}

// callArgs splits the arguments of a call whose text starts just after its
// '(' at top-level commas, up to the matching ')'.
func callArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if a := strings.TrimSpace(s[start:i]); a != "" || len(out) > 0 {
					out = append(out, a)
				}
				return out
			}
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return out
}

// regexHintAt is the hint for an error at byte col of line when col is
// inside a regex literal, else "".
func regexHintAt(line string, col int) string {
	start, end, ok := regexLiteralAt(line, col)
	if !ok {
		return ""
	}
	source := line[start+1 : end]
	if source == "" || source[0] == '*' {
		// `/* … */` is a comment of another language (commentHint), and no
		// pattern starts with a quantifier.
		return ""
	}
	after := line[end+1:]
	flags := ""
	for flags != after && strings.ContainsRune("gimsuyd", rune(after[len(flags)])) {
		flags = after[:len(flags)+1]
	}
	after = after[len(flags):]
	prefix := ""
	for _, f := range "ims" {
		if strings.ContainsRune(flags, f) {
			prefix += string(f)
		}
	}
	if prefix != "" {
		source = "(?" + prefix + ")" + source
	}
	pattern := diag.QuoteJSON(source)
	global := strings.ContainsRune(flags, 'g')
	arg := func(args []string, i int) string {
		if i < len(args) && args[i] != "" {
			return args[i]
		}
		return "…"
	}
	const pre = "A0 has no regex literals: pass the pattern as a string (RE2 syntax), "
	if m := regexAfterCall().FindStringSubmatchIndex(after); m != nil {
		args := callArgs(after[m[1]:])
		switch after[m[2]:m[3]] {
		case "test":
			return pre + "`re.test { in: " + arg(args, 0) + ", pattern: " + pattern + " }`."
		case "exec":
			return pre + "`re.find { in: " + arg(args, 0) + ", pattern: " + pattern + " }`."
		}
	}
	if m := regexBeforeCall().FindStringSubmatch(line[:start]); m != nil {
		recv, method := m[1], m[2]
		var rest []string
		if r := strings.TrimLeft(after, " \t"); strings.HasPrefix(r, ",") {
			rest = callArgs(r[1:])
		}
		form := ""
		switch method {
		case "match":
			if global {
				form = "re.findAll { in: " + recv + ", pattern: " + pattern + " }"
			} else {
				form = "re.find { in: " + recv + ", pattern: " + pattern + " }"
			}
		case "matchAll":
			form = "re.findAll { in: " + recv + ", pattern: " + pattern + " }"
		case "search":
			form = "re.find { in: " + recv + ", pattern: " + pattern + " }"
		case "split":
			form = "re.split { in: " + recv + ", pattern: " + pattern + " }"
		case "replace", "replaceAll":
			form = "re.replace { in: " + recv + ", pattern: " + pattern + ", to: " + arg(rest, 0)
			if method == "replace" && !global {
				form += ", limit: 1"
			}
			form += " }"
		case "test":
			form = "re.test { in: " + arg(rest, 0) + ", pattern: " + pattern + " }"
		}
		if form != "" {
			return pre + "`" + form + "`."
		}
	}
	return pre + "`re.test { in: …, pattern: " + pattern + " }` (also re.find, re.findAll, re.replace and re.split)."
}

// regexLiteralHint: the failing token is the `/` that opens a regex
// literal (the parser path: the literal lexed as operators).
func regexLiteralHint(s hintSite) (string, bool) {
	if s.t.Text != "/" || s.idx > 0 && endsExpr(s.toks, s.idx-1) {
		return "", false
	}
	line, col := lineText(s.toks, s.idx)
	if h := regexHintAt(line, col); h != "" {
		return h, true
	}
	return "", false
}

// lineText rebuilds the text of toks[idx]'s line from its tokens (one
// space where the source had any) and returns it with the offset of
// toks[idx] in it.
func lineText(toks []lexer.Token, idx int) (string, int) {
	from := lineStart(toks, idx)
	to := idx
	for to+1 < len(toks) && toks[to+1].Type != lexer.EOF && toks[to+1].Start.Line == toks[idx].Start.Line {
		to++
	}
	var b strings.Builder
	col := 0
	for i := from; i <= to; i++ {
		if i > from && !adjacent(toks[i-1], toks[i]) {
			b.WriteByte(' ')
		}
		if i == idx {
			col = b.Len()
		}
		b.WriteString(toks[i].Text)
	}
	return b.String(), col
}

// lazyRegexp compiles expr on first use rather than at start-up, which
// every command of the binary would pay for.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
