package stdlib

import (
	"io"
	"math"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// Regular expressions (spec/stdlib.md "Regular expressions").
//
// Patterns have RE2 syntax and semantics (Go's regexp): matching takes
// time linear in the input, whatever the pattern. A lone surrogate in the
// input or the pattern reads as U+FFFD while matching (both take three
// bytes, so the byte offsets of a match are those of the original text,
// and the text a call returns is cut from the original).

func init() {
	for name, impl := range reImpls {
		impl := impl
		register(name, func(l Limits, args *value.Record) (value.Value, error) { return impl(l, args, nil) })
	}
}

// reImpl is a regex function; pre, when not nil, is the pattern compiled
// in advance from a string literal of the call (see [Prepare]).
type reImpl func(l Limits, args *value.Record, pre *Pattern) (value.Value, error)

var reImpls = map[string]reImpl{
	"re.test":    reTest,
	"re.find":    reFind,
	"re.findAll": reFindAll,
	"re.replace": reReplace,
	"re.split":   reSplit,
}

// MaxPatternSize bounds the size of a compiled pattern (Go regexp
// instructions, repetitions expanded). Matching costs time in proportion to
// the pattern's size times the input's, so a bound on both bounds a call.
const MaxPatternSize = 10000

// directCost is the largest pattern size × input length matched in one
// uninterrupted call of the regexp package; above it, matching reads the
// input through a reader that polls Limits.Stopped. (A variable for tests.)
var directCost int64 = 1 << 22

// Pattern is a compiled regular expression.
type Pattern struct {
	src    string
	re     *regexp.Regexp
	size   int64
	before bool // has an assertion that looks at the text before a position
	names  []string
	tree   *syntax.Regexp

	afterOnce sync.Once
	after     *regexp.Regexp // (?s:.)(?:pattern), see find
}

// afterRe is the pattern preceded by any one character: searched from the
// character before a position, it finds the matches at or after that
// position with the assertions that look back (^, \b …) seeing the real
// text before them. Its groups are the pattern's. It is nil if it does
// not compile (it always should); find then matches in one pass.
func (p *Pattern) afterRe() *regexp.Regexp {
	p.afterOnce.Do(func() {
		dot := &syntax.Regexp{Op: syntax.OpAnyChar}
		cat := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{dot, p.tree}}
		if re, err := regexp.Compile(cat.String()); err == nil && re.NumSubexp() == p.re.NumSubexp() {
			p.after = re
		}
	})
	return p.after
}

// PatternError is an invalid pattern: what is wrong and where.
type PatternError struct {
	Pattern string // the pattern as written
	Problem string // e.g. "missing closing )"
	Pos     int    // position of the problem in the pattern, in UTF-16 units
}

func (e *PatternError) Error() string {
	return "invalid pattern " + quotePattern(e.Pattern) + ": " + e.Problem + " at position " + strconv.Itoa(e.Pos)
}

// quotePattern quotes a pattern for a message, shortened past 60 bytes.
func quotePattern(p string) string {
	if len(p) > 60 {
		cut := 57
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
		return diag.QuoteJSON(p[:cut]) + "…"
	}
	return diag.QuoteJSON(p)
}

// CompilePattern compiles p (RE2 syntax). An invalid or too large pattern
// gives a *PatternError.
func CompilePattern(p string) (*Pattern, error) {
	src := p
	if hasLoneSurrogate(p) {
		p = surrogatesToFFFD(p)
	}
	tree, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, patternError(src, p, err)
	}
	size := treeSize(tree)
	if size > MaxPatternSize {
		return nil, &PatternError{Pattern: src, Problem: "pattern too large (about " + strconv.FormatInt(min(size, 1<<40), 10) +
			" instructions once repetitions are expanded, limit " + strconv.Itoa(MaxPatternSize) + ")", Pos: 0}
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, patternError(src, p, err)
	}
	return &Pattern{src: src, re: re, size: max(size, 1), before: looksBack(tree), names: re.SubexpNames(), tree: tree}, nil
}

// fnPatternError is a function's failure on a pattern that does not
// compile: "fn: <the PatternError>", which it unwraps to.
type fnPatternError struct {
	fn  string
	err error
}

func (e *fnPatternError) Error() string { return e.fn + ": " + e.err.Error() }
func (e *fnPatternError) Unwrap() error { return e.err }

// patternError turns a regexp/syntax error into a PatternError.
func patternError(src, p string, err error) error {
	se, ok := err.(*syntax.Error)
	if !ok {
		return &PatternError{Pattern: src, Problem: err.Error()}
	}
	pos := 0
	switch se.Code {
	case syntax.ErrMissingParen:
		pos = unmatchedParen(p, true)
	case syntax.ErrUnexpectedParen:
		pos = unmatchedParen(p, false)
	case syntax.ErrTrailingBackslash:
		pos = len(p) - 1
	case syntax.ErrMissingBracket:
		if strings.HasSuffix(p, se.Expr) {
			pos = len(p) - len(se.Expr)
		}
	default:
		if i := strings.Index(p, se.Expr); i >= 0 && se.Expr != "" {
			pos = i
		}
	}
	pos = max(0, min(pos, len(p)))
	problem := string(se.Code)
	if se.Expr != "" && se.Expr != p && len(se.Expr) <= 40 {
		problem += " " + diag.QuoteJSON(se.Expr)
	}
	rest := p[pos:]
	switch {
	case strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!") || strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!"):
		problem = "lookahead and lookbehind are not supported (RE2)"
	case se.Code == syntax.ErrInvalidEscape && len(rest) > 1 && rest[1] >= '1' && rest[1] <= '9':
		problem = "backreferences such as " + diag.QuoteJSON(rest[:2]) + " are not supported (RE2)"
	}
	return &PatternError{Pattern: src, Problem: problem, Pos: value.Len16(p[:pos])}
}

// unmatchedParen returns the byte offset of the last '(' never closed
// (open) or of the first ')' that closes nothing, skipping escapes, \Q…\E
// and character classes.
func unmatchedParen(p string, open bool) int {
	var stack []int
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 < len(p) && p[i+1] == 'Q' {
				if j := strings.Index(p[i+2:], `\E`); j >= 0 {
					i += j + 3
				} else {
					i = len(p)
				}
				continue
			}
			i++
		case '[':
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '(':
			stack = append(stack, i)
		case ')':
			if len(stack) == 0 {
				if !open {
					return i
				}
				continue
			}
			stack = stack[:len(stack)-1]
		}
	}
	if open && len(stack) > 0 {
		return stack[len(stack)-1]
	}
	return 0
}

// treeSize estimates the number of instructions of the compiled program,
// with repetitions expanded (saturating well above MaxPatternSize).
func treeSize(re *syntax.Regexp) int64 {
	const big = 1 << 40
	var n int64 = 1
	switch re.Op {
	case syntax.OpRepeat:
		m := int64(re.Max)
		if m < 0 {
			m = int64(re.Min) + 1
		}
		m = max(m, 1)
		n += m * treeSize(re.Sub[0])
	case syntax.OpLiteral:
		n += int64(len(re.Rune))
	default:
		for _, s := range re.Sub {
			n += treeSize(s)
		}
	}
	return min(n, big)
}

// looksBack reports whether the pattern has an assertion whose truth at a
// position depends on the text before it (^, \A, \b, \B).
func looksBack(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, s := range re.Sub {
		if looksBack(s) {
			return true
		}
	}
	return false
}

// surrogatesToFFFD replaces each WTF-8 lone surrogate (ED A0..BF xx) by
// U+FFFD (EF BF BD): the same length, so byte offsets are kept.
func surrogatesToFFFD(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == 0xED && b[i+1] >= 0xA0 {
			b[i], b[i+1], b[i+2] = 0xEF, 0xBF, 0xBD
			i += 2
		}
	}
	return string(b)
}

// CheckLiteral reports a string literal written as argument arg of the
// library function fn that the call would refuse whatever the other
// arguments: a regex pattern that does not compile. It returns the message
// and hint of the static diagnostic, or "" when the literal is fine.
func CheckLiteral(fn, arg, s string) (msg, hint string) {
	if reImpls[fn] == nil || arg != "pattern" {
		return "", ""
	}
	_, err := CompilePattern(s)
	pe, ok := err.(*PatternError)
	if !ok {
		return "", ""
	}
	return fn + ": " + pe.Error() + ".", PatternHint
}

// PatternHint is the hint of a regex pattern that does not compile, at
// check time and at run time.
const PatternHint = "Patterns use RE2 syntax (Go regexp): no lookaround or backreferences; escape a special character with a backslash, written \\\\ inside an A0 string (\"\\\\(\" matches a parenthesis)."

// Prepare returns the library function name specialised for calls whose
// argument arg is the string literal lit: a regex function compiles such a
// pattern once, here, instead of at every call, and get splits such a
// path once. ok is false when there is
// nothing to prepare (or lit does not compile: the call then fails as
// usual).
func Prepare(name, arg, lit string) (f Func, ok bool) {
	if name == "get" && arg == "path" {
		return prepareGet(lit), true
	}
	impl := reImpls[name]
	if impl == nil || arg != "pattern" {
		return nil, false
	}
	p, err := CompilePattern(lit)
	if err != nil {
		return nil, false
	}
	return func(l Limits, args *value.Record) (value.Value, error) { return impl(l, args, p) }, true
}

// reArgs checks in and pattern, in this order, and returns the text, the
// text to match (lone surrogates read as U+FFFD) and the pattern.
func reArgs(fn string, args *value.Record, pre *Pattern) (orig, text string, p *Pattern, err error) {
	in := Arg(args, "in")
	if in.Kind() != value.String {
		return "", "", nil, fail(fn + ": 'in' must be a string")
	}
	pv := Arg(args, "pattern")
	if pv.Kind() != value.String {
		return "", "", nil, fail(fn + ": 'pattern' must be a string")
	}
	if pre != nil && pv.AsString() == pre.src {
		p = pre
	} else if p, err = CompilePattern(pv.AsString()); err != nil {
		return "", "", nil, &fnPatternError{fn, err}
	}
	orig = in.AsString()
	text = orig
	if hasLoneSurrogate(orig) {
		text = surrogatesToFFFD(orig)
	}
	return orig, text, p, nil
}

// limitArg reads the optional limit: -1 when absent or null, else a
// non-negative integer.
func limitArg(fn string, args *value.Record) (int, error) {
	v := Arg(args, "limit")
	if v.IsNull() {
		return -1, nil
	}
	if v.Kind() != value.Number {
		return 0, fail(fn + ": 'limit' must be a non-negative integer")
	}
	f := v.AsNumber()
	if f < 0 || f != math.Trunc(f) || math.IsInf(f, 0) {
		return 0, fail(fn + ": 'limit' must be a non-negative integer")
	}
	if f > math.MaxInt32 {
		return math.MaxInt32, nil
	}
	return int(f), nil
}

// pollReader reads text rune by rune for the regexp package and stops
// (as at the end of the text) once the run must stop.
type pollReader struct {
	s       string
	i       int
	l       Limits
	n       uint32
	stopped bool
}

func (r *pollReader) ReadRune() (rune, int, error) {
	if r.i >= len(r.s) || r.stopped {
		return 0, 0, io.EOF
	}
	r.n++
	if r.n%pollEvery == 0 && r.l.Stopped() {
		r.stopped = true
		return 0, 0, io.EOF
	}
	c, size := utf8.DecodeRuneInString(r.s[r.i:])
	r.i += size
	return c, size, nil
}

// matches returns the index pairs (with the groups' when subs) of the
// first n matches of p in s (n < 0: all), left to right and not
// overlapping, with Go's regexp rules for empty matches. per is what one
// match adds to the caller's result at least: when the matches, at per
// bytes or at what their index pairs take, would pass the memory
// ceiling, the search stops there with a *value.SizeError.
func (p *Pattern) matches(l Limits, s string, n int, subs bool, per int64) ([][]int, error) {
	if n == 0 {
		return nil, nil
	}
	pairs := int64(1)
	if subs {
		pairs = int64(len(p.names))
	}
	cost := max(per, 24+16*pairs)
	if m := l.MaxBytes(); m > 0 {
		most := int(min(m/cost+1, math.MaxInt32))
		if n < 0 || n > most {
			ms, err := p.find(l, s, most, subs)
			if err == nil && len(ms) == most {
				return nil, &value.SizeError{Bytes: int64(most) * cost}
			}
			return ms, err
		}
	}
	return p.find(l, s, n, subs)
}

// find is matches without the memory bound.
func (p *Pattern) find(l Limits, s string, n int, subs bool) ([][]int, error) {
	if p.size*int64(len(s)) <= directCost || p.before && n != 1 && p.afterRe() == nil {
		if l.Stopped() {
			return nil, ErrStopped
		}
		if subs {
			return p.re.FindAllStringSubmatchIndex(s, n), nil
		}
		return p.re.FindAllStringIndex(s, n), nil
	}
	// Long text: search from each position through a polling reader.
	// When the pattern looks back, the search from pos > 0 starts one
	// character earlier with afterRe, whose first character is that one.
	if n < 0 {
		n = math.MaxInt
	}
	var out [][]int
	t := ticker{l: l}
	for pos, prevEnd := 0, -1; len(out) < n && pos <= len(s); {
		re, from, w := p.re, pos, 0
		if pos > 0 && p.before {
			_, w = utf8.DecodeLastRuneInString(s[:pos])
			re, from = p.afterRe(), pos-w
		}
		r := &pollReader{s: s[from:], l: l}
		var m []int
		if subs {
			m = re.FindReaderSubmatchIndex(r)
		} else {
			m = re.FindReaderIndex(r)
		}
		if r.stopped {
			return nil, ErrStopped
		}
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += from
			}
		}
		if w > 0 {
			// Drop the character afterRe's match begins with.
			_, cw := utf8.DecodeRuneInString(s[m[0]:])
			m[0] += cw
		}
		accept := true
		if m[1] == pos {
			// An empty match: not right after the previous match; the
			// next search starts one character further.
			if m[0] == prevEnd {
				accept = false
			}
			if pos < len(s) {
				_, w := utf8.DecodeRuneInString(s[pos:])
				pos += w
			} else {
				pos++
			}
		} else {
			pos = m[1]
		}
		prevEnd = m[1]
		if accept {
			out = append(out, m)
		}
		if err := t.tick(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func reTest(l Limits, args *value.Record, pre *Pattern) (value.Value, error) {
	_, s, p, err := reArgs("re.test", args, pre)
	if err != nil {
		return value.Value{}, err
	}
	if p.size*int64(len(s)) <= directCost {
		return value.BoolOf(p.re.MatchString(s)), nil
	}
	r := &pollReader{s: s, l: l}
	ok := p.re.MatchReader(r)
	if r.stopped {
		return value.Value{}, ErrStopped
	}
	return value.BoolOf(ok), nil
}

// matchBytes is an upper bound of the Size of one match record (the
// fixed part; the texts are added by matchSize).
func (p *Pattern) matchBytes() int64 {
	ng := int64(len(p.names) - 1)
	names := int64(0)
	for _, n := range p.names[1:] {
		if n != "" {
			names += int64(len(n)) + value.KeyBytes + value.SlotBytes + 16
		}
	}
	return 4*(value.KeyBytes+value.SlotBytes+24) + 2*value.RecordBytes + value.ListBytes + 4*value.SlotBytes + 64 +
		ng*(value.SlotBytes+16) + names
}

// matchSize bounds the Size of the record of match m.
func (p *Pattern) matchSize(m []int) int64 {
	size := p.matchBytes() + int64(m[1]-m[0])
	for g := 1; 2*g < len(m); g++ {
		if m[2*g] >= 0 {
			k := int64(m[2*g+1] - m[2*g])
			if p.names[g] != "" {
				k *= 2
			}
			size += k
		}
	}
	return size
}

// unitCounter converts increasing byte offsets of a text to UTF-16 offsets.
type unitCounter struct {
	s         string
	byteAt, u int
}

func (c *unitCounter) at(b int) int {
	if b < c.byteAt {
		c.byteAt, c.u = 0, 0
	}
	c.u += value.Len16(c.s[c.byteAt:b])
	c.byteAt = b
	return c.u
}

// matchRecord builds { match, index, groups, named } for match m of orig.
func (p *Pattern) matchRecord(orig string, m []int, units *unitCounter) value.Value {
	ng := len(p.names) - 1
	groups := make([]value.Value, ng)
	named := value.NewRecord(0)
	for g := 1; g <= ng; g++ {
		v := value.NullValue
		if m[2*g] >= 0 {
			v = value.Str(orig[m[2*g]:m[2*g+1]])
		}
		groups[g-1] = v
		if p.names[g] != "" {
			named.Set(p.names[g], v)
		}
	}
	r := value.NewRecord(4)
	r.Set("match", value.Str(orig[m[0]:m[1]]))
	r.Set("index", value.Int(units.at(m[0])))
	r.Set("groups", value.ListOf(groups))
	r.Set("named", value.RecordOf(named))
	return value.RecordOf(r)
}

func reFind(l Limits, args *value.Record, pre *Pattern) (value.Value, error) {
	orig, s, p, err := reArgs("re.find", args, pre)
	if err != nil {
		return value.Value{}, err
	}
	ms, err := p.matches(l, s, 1, true, 0)
	if err != nil || len(ms) == 0 {
		return value.NullValue, err
	}
	if err := need(l, p.matchSize(ms[0])); err != nil {
		return value.Value{}, err
	}
	return p.matchRecord(orig, ms[0], &unitCounter{s: orig}), nil
}

func reFindAll(l Limits, args *value.Record, pre *Pattern) (value.Value, error) {
	orig, s, p, err := reArgs("re.findAll", args, pre)
	if err != nil {
		return value.Value{}, err
	}
	n, err := limitArg("re.findAll", args)
	if err != nil {
		return value.Value{}, err
	}
	ms, err := p.matches(l, s, n, true, p.matchBytes())
	if err != nil {
		return value.Value{}, err
	}
	size := slots(len(ms))
	for _, m := range ms {
		size += p.matchSize(m)
	}
	if err := need(l, size); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, len(ms))
	units := &unitCounter{s: orig}
	t := ticker{l: l}
	for i, m := range ms {
		out[i] = p.matchRecord(orig, m, units)
		if err := t.tick(); err != nil {
			return value.Value{}, err
		}
	}
	return value.ListOf(out), nil
}

// A piece of a replacement: literal text, or group g (g >= 0).
type rePiece struct {
	lit string
	g   int
}

// parseTo splits a replacement into pieces: $$ is a dollar, $n and ${n}
// group n, ${name} a named group; any other $ is literal. A reference to a
// group the pattern does not have is an error.
func (p *Pattern) parseTo(fn, to string) ([]rePiece, error) {
	var out []rePiece
	var lit strings.Builder
	ng := len(p.names) - 1
	bad := func(ref string) error {
		return fail(fn + ": 'to' refers to " + ref + ", but the pattern has " + plural(ng, "group") + " (write $$ for a literal $)")
	}
	for i := 0; i < len(to); i++ {
		c := to[i]
		if c != '$' || i+1 == len(to) {
			lit.WriteByte(c)
			continue
		}
		next := to[i+1]
		g := -1
		switch {
		case next == '$':
			lit.WriteByte('$')
			i++
			continue
		case next >= '0' && next <= '9':
			j := i + 1
			for j < len(to) && to[j] >= '0' && to[j] <= '9' && j-i <= 9 {
				j++
			}
			n, _ := strconv.Atoi(to[i+1 : j])
			if n > ng {
				if d := int(to[i+1] - '0'); j-i > 2 && d <= ng {
					return nil, fail(fn + ": 'to' refers to group $" + to[i+1:j] + ", but the pattern has " + plural(ng, "group") +
						" (write ${" + to[i+1:i+2] + "}" + to[i+2:j] + " for group " + to[i+1:i+2] + " followed by " + diag.QuoteJSON(to[i+2:j]) + ", $$ for a literal $)")
				}
				return nil, bad("group $" + to[i+1:j])
			}
			g, i = n, j-1
		case next == '{':
			end := strings.IndexByte(to[i+2:], '}')
			if end < 0 {
				lit.WriteByte(c)
				continue
			}
			name := to[i+2 : i+2+end]
			if n, err := strconv.Atoi(name); err == nil && n >= 0 && name != "" && name[0] != '+' && name[0] != '-' {
				if n > ng {
					return nil, bad("group ${" + name + "}")
				}
				g = n
			} else {
				g = p.re.SubexpIndex(name)
				if g < 0 {
					return nil, bad("group ${" + name + "}, which it does not name")
				}
			}
			i += 2 + end
		default:
			lit.WriteByte(c)
			continue
		}
		if lit.Len() > 0 {
			out = append(out, rePiece{lit: lit.String(), g: -1})
			lit.Reset()
		}
		out = append(out, rePiece{g: g})
	}
	if lit.Len() > 0 {
		out = append(out, rePiece{lit: lit.String(), g: -1})
	}
	return out, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func reReplace(l Limits, args *value.Record, pre *Pattern) (value.Value, error) {
	orig, s, p, err := reArgs("re.replace", args, pre)
	if err != nil {
		return value.Value{}, err
	}
	to := Arg(args, "to")
	if to.Kind() != value.String {
		return value.Value{}, fail("re.replace: 'to' must be a string")
	}
	n, err := limitArg("re.replace", args)
	if err != nil {
		return value.Value{}, err
	}
	pieces, err := p.parseTo("re.replace", to.AsString())
	if err != nil {
		return value.Value{}, err
	}
	ms, err := p.matches(l, s, n, true, 0)
	if err != nil {
		return value.Value{}, err
	}
	if len(ms) == 0 {
		return value.Str(orig), nil
	}
	group := func(m []int, g int) string {
		if m[2*g] < 0 {
			return ""
		}
		return orig[m[2*g]:m[2*g+1]]
	}
	size, last := int64(0), 0
	t := ticker{l: l}
	for _, m := range ms {
		size += int64(m[0] - last)
		for _, pc := range pieces {
			if pc.g < 0 {
				size += int64(len(pc.lit))
			} else {
				size += int64(len(group(m, pc.g)))
			}
		}
		last = m[1]
		if size > 1<<50 {
			break
		}
		if err := t.tick(); err != nil {
			return value.Value{}, err
		}
	}
	size += int64(len(s) - last)
	if err := need(l, size); err != nil {
		return value.Value{}, err
	}
	var b strings.Builder
	b.Grow(int(size))
	last = 0
	for _, m := range ms {
		b.WriteString(orig[last:m[0]])
		for _, pc := range pieces {
			if pc.g < 0 {
				b.WriteString(pc.lit)
			} else {
				b.WriteString(group(m, pc.g))
			}
		}
		last = m[1]
	}
	b.WriteString(orig[last:])
	return value.Str(value.PairSurrogates(b.String())), nil
}

func reSplit(l Limits, args *value.Record, pre *Pattern) (value.Value, error) {
	orig, s, p, err := reArgs("re.split", args, pre)
	if err != nil {
		return value.Value{}, err
	}
	n, err := limitArg("re.split", args)
	if err != nil {
		return value.Value{}, err
	}
	if n == 0 {
		return value.ListOf(nil), nil
	}
	if len(s) == 0 {
		if p.src == "" {
			return value.ListOf(nil), nil
		}
		return value.ListOf([]value.Value{value.EmptyStr}), nil
	}
	// Go's Regexp.Split: at most n pieces, the last one the rest of the
	// text; an empty match at the start gives no empty first piece.
	ms, err := p.matches(l, s, n, false, value.SlotBytes+2)
	if err != nil {
		return value.Value{}, err
	}
	if err := need(l, slots(len(ms)+1)+int64(len(s))); err != nil {
		return value.Value{}, err
	}
	out := make([]value.Value, 0, len(ms)+1)
	beg, end := 0, 0
	for _, m := range ms {
		if n > 0 && len(out) == n-1 {
			break
		}
		end = m[0]
		if m[1] != 0 {
			out = append(out, value.Str(orig[beg:end]))
		}
		beg = m[1]
	}
	if end != len(s) {
		out = append(out, value.Str(orig[beg:]))
	}
	return value.ListOf(out), nil
}
