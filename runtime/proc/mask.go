package proc

import (
	"bytes"
	"sort"
)

// Masker replaces secret values with "[masked:NAME]" in a byte stream. It
// keeps a carry of (longest value − 1) bytes between writes so a value
// split across two reads is still found. At each position the longest
// value that matches is replaced and the scan resumes after it. A nil
// Masker passes bytes through.
type Masker struct {
	vals  [][]byte
	repls [][]byte
	max   int
	first [256]bool // bytes that start some value
	carry []byte
}

// Secret is one masked value with the env name it came from.
type Secret struct {
	Name, Value string
}

// MinSecretLen: values shorter than this are not masked (too many false
// hits).
const MinSecretLen = 6

// NewMasker returns a masker for the given secrets, or nil when there are
// none. When several names share a value, the first name in sorted order
// is used.
func NewMasker(secrets []Secret) *Masker {
	byVal := map[string]string{}
	for _, s := range secrets {
		if len(s.Value) < MinSecretLen {
			continue
		}
		if old, ok := byVal[s.Value]; !ok || s.Name < old {
			byVal[s.Value] = s.Name
		}
	}
	if len(byVal) == 0 {
		return nil
	}
	for v, name := range byVal {
		byVal[v] = "[masked:" + name + "]"
	}
	return maskerOf(byVal)
}

// maskerOf returns a masker replacing each key of repl by its value,
// longest first (ties in byte order), so that a value inside another is
// never matched first.
func maskerOf(repl map[string]string) *Masker {
	vals := make([]string, 0, len(repl))
	for v := range repl {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(i, j int) bool {
		if len(vals[i]) != len(vals[j]) {
			return len(vals[i]) > len(vals[j])
		}
		return vals[i] < vals[j]
	})
	m := &Masker{}
	for _, v := range vals {
		m.vals = append(m.vals, []byte(v))
		m.repls = append(m.repls, []byte(repl[v]))
		if len(v) > m.max {
			m.max = len(v)
		}
		m.first[v[0]] = true
	}
	return m
}

// stream returns a masker with its own carry for one stream.
func (m *Masker) stream() *Masker {
	if m == nil {
		return nil
	}
	c := *m
	c.carry = nil
	return &c
}

// String masks a complete text.
func (m *Masker) String(s string) string {
	if m == nil {
		return s
	}
	out, _ := m.scan([]byte(s), true)
	return string(out)
}

// Write masks the next chunk of a stream and returns the bytes that are
// final; up to (longest value − 1) bytes are held back as carry.
func (m *Masker) Write(p []byte) []byte {
	if m == nil {
		return p
	}
	buf := append(m.carry, p...)
	out, rest := m.scan(buf, false)
	m.carry = append([]byte(nil), rest...)
	return out
}

// Flush returns the carry (masked) at end of stream.
func (m *Masker) Flush() []byte {
	if m == nil || len(m.carry) == 0 {
		return nil
	}
	out, _ := m.scan(m.carry, true)
	m.carry = nil
	return out
}

// scan replaces values in buf. Unless final, a tail that could be the
// start of a value is returned as rest instead of being emitted.
func (m *Masker) scan(buf []byte, final bool) (out, rest []byte) {
	out = make([]byte, 0, len(buf))
	i := 0
	for i < len(buf) {
		if !m.first[buf[i]] {
			j := i + 1
			for j < len(buf) && !m.first[buf[j]] {
				j++
			}
			out = append(out, buf[i:j]...)
			i = j
			continue
		}
		matched := false
		partial := false
		for k, v := range m.vals {
			if bytes.HasPrefix(buf[i:], v) {
				out = append(out, m.repls[k]...)
				i += len(v)
				matched = true
				break
			}
			if !final && len(buf)-i < len(v) && bytes.HasPrefix(v, buf[i:]) {
				partial = true
			}
		}
		if matched {
			continue
		}
		if partial {
			return out, buf[i:]
		}
		out = append(out, buf[i])
		i++
	}
	return out, nil
}
