package jscompat

import (
	"math"
	"time"

	"github.com/a0lang/a0/lang/value"
)

// ParseDate implements JavaScript's Date.parse as V8 (Node 20) does it and
// returns milliseconds since the epoch, or NaN.
//
// Two grammars are tried, as in V8:
//
//   - the ES date-time string format `[+-YY]YYYY[-MM[-DD]][THH:mm[:ss[.s+]][Z|±HH:mm|±HHmm]]`
//     (date-only forms are UTC, date-time forms without an offset are local
//     time; any number of fraction digits, 24:00 allowed);
//   - when that does not match to the end, V8's legacy grammar, which
//     continues from where the ES parse stopped: numbers followed by ':' or
//     '.' are time fields, other numbers date fields (month/day/year or
//     year/month/day, two-digit years 00–49 → 20xx and 50–99 → 19xx), words
//     sharing their first three letters with a month name are months, `am`
//     / `pm`, `UT` / `UTC` / `GMT` / `Z` and the US zone abbreviations,
//     `±hh[:mm]` / `±hhmm` offsets after a time or UTC, parenthesised text
//     ignored, and unknown words allowed only before the first number.
//
// Local time is time.Local (the TZ variable, as for Node).
func ParseDate(s string) float64 {
	f, ok := parseDateFields(value.Units(s))
	if !ok {
		return math.NaN()
	}
	days := makeDay(f.year, f.month, f.day)
	ms := days*msPerDay + float64(f.hour)*3_600_000 + float64(f.minute)*60_000 + float64(f.second)*1000 + float64(f.ms)
	if !f.hasOffset {
		if math.Abs(ms) > maxTime+10*msPerDay {
			return math.NaN()
		}
		ms = localToUTC(ms)
	} else {
		ms -= float64(f.offsetSec) * 1000
	}
	if math.IsNaN(ms) || math.Abs(ms) > maxTime {
		return math.NaN()
	}
	return math.Trunc(ms) + 0 // +0: never -0
}

const (
	msPerDay = 86_400_000
	maxTime  = 8.64e15
	none     = math.MaxInt32
)

// makeDay is ECMAScript MakeDay: days since the epoch of year/month
// (0-based, may overflow into the year)/day (1-based, may overflow).
func makeDay(year, month0, day int) float64 {
	y := int64(year) + floorDiv(int64(month0), 12)
	m := floorMod(int64(month0), 12) + 1
	return float64(daysFromCivil(y, m, 1)) + float64(day) - 1
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// daysFromCivil returns the days since 1970-01-01 of a proleptic Gregorian
// date (month 1–12).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// localToUTC converts a local wall-clock time in ms to UTC ms. As in V8
// (ICU's "former" rule), a wall time skipped by a forward transition and one
// repeated by a backward transition both use the offset in force before the
// transition.
func localToUTC(wall float64) float64 {
	w := int64(wall)
	before := offsetAt(w - msPerDay)
	after := offsetAt(w + msPerDay)
	switch {
	case offsetAt(w-before) == before:
		return float64(w - before)
	case offsetAt(w-after) == after:
		return float64(w - after)
	}
	return float64(w - before)
}

// offsetAt returns the local UTC offset in ms at the instant ms.
func offsetAt(ms int64) int64 {
	_, off := time.UnixMilli(ms).In(time.Local).Zone()
	return int64(off) * 1000
}

// dateFields is the parser's output.
type dateFields struct {
	year, month, day         int // month 0-based
	hour, minute, second, ms int
	offsetSec                int
	hasOffset                bool
}

// ---- tokenizer ----

type tokKind int8

const (
	tInvalid tokKind = iota
	tUnknown
	tSpace
	tNumber
	tSymbol
	tEnd
	tKeyword
)

type kwType int8

const (
	kwInvalid kwType = iota
	kwMonth
	kwZone
	kwTimeSep
	kwAmPm
)

type dtoken struct {
	kind   tokKind
	length int
	val    int // number value, symbol character or keyword value
	kw     kwType
}

func (t dtoken) isNumber(length int) bool { return t.kind == tNumber && t.length == length }
func (t dtoken) isSymbol(c int) bool      { return t.kind == tSymbol && t.val == c }
func (t dtoken) isSign() bool             { return t.kind == tSymbol && (t.val == '+' || t.val == '-') }
func (t dtoken) sign() int {
	if t.val == '-' {
		return -1
	}
	return 1
}
func (t dtoken) isKeyword(k kwType) bool { return t.kind == tKeyword && t.kw == k }
func (t dtoken) isZ() bool               { return t.isKeyword(kwZone) && t.length == 1 && t.val == 0 }

var keywords = []struct {
	prefix [3]uint16
	typ    kwType
	val    int
}{
	{[3]uint16{'j', 'a', 'n'}, kwMonth, 1}, {[3]uint16{'f', 'e', 'b'}, kwMonth, 2},
	{[3]uint16{'m', 'a', 'r'}, kwMonth, 3}, {[3]uint16{'a', 'p', 'r'}, kwMonth, 4},
	{[3]uint16{'m', 'a', 'y'}, kwMonth, 5}, {[3]uint16{'j', 'u', 'n'}, kwMonth, 6},
	{[3]uint16{'j', 'u', 'l'}, kwMonth, 7}, {[3]uint16{'a', 'u', 'g'}, kwMonth, 8},
	{[3]uint16{'s', 'e', 'p'}, kwMonth, 9}, {[3]uint16{'o', 'c', 't'}, kwMonth, 10},
	{[3]uint16{'n', 'o', 'v'}, kwMonth, 11}, {[3]uint16{'d', 'e', 'c'}, kwMonth, 12},
	{[3]uint16{'a', 'm', 0}, kwAmPm, 0}, {[3]uint16{'p', 'm', 0}, kwAmPm, 12},
	{[3]uint16{'u', 't', 0}, kwZone, 0}, {[3]uint16{'u', 't', 'c'}, kwZone, 0},
	{[3]uint16{'z', 0, 0}, kwZone, 0}, {[3]uint16{'g', 'm', 't'}, kwZone, 0},
	{[3]uint16{'c', 'd', 't'}, kwZone, -5}, {[3]uint16{'c', 's', 't'}, kwZone, -6},
	{[3]uint16{'e', 'd', 't'}, kwZone, -4}, {[3]uint16{'e', 's', 't'}, kwZone, -5},
	{[3]uint16{'m', 'd', 't'}, kwZone, -6}, {[3]uint16{'m', 's', 't'}, kwZone, -7},
	{[3]uint16{'p', 'd', 't'}, kwZone, -7}, {[3]uint16{'p', 's', 't'}, kwZone, -8},
	{[3]uint16{'t', 0, 0}, kwTimeSep, 0},
}

const maxSignificantDigits = 9

type dscanner struct {
	in   []uint16
	pos  int // index of the next unit to read
	ch   uint16
	next dtoken
}

func newScanner(in []uint16) *dscanner {
	s := &dscanner{in: in}
	s.advance()
	s.next = s.scan()
	return s
}

// advance loads the next character; 0 marks the end (a NUL ends the input,
// as in V8).
func (s *dscanner) advance() {
	if s.pos < len(s.in) {
		s.ch = s.in[s.pos]
	} else {
		s.ch = 0
	}
	s.pos++
}

func (s *dscanner) isDigit() bool { return s.ch >= '0' && s.ch <= '9' }

func (s *dscanner) scan() dtoken {
	start := s.pos
	switch {
	case s.ch == 0:
		return dtoken{kind: tEnd}
	case s.isDigit():
		n, i := 0, 0
		for s.ch == '0' { // leading zeros are not significant digits
			s.advance()
		}
		for s.isDigit() {
			if i < maxSignificantDigits {
				n = n*10 + int(s.ch-'0')
			}
			i++
			s.advance()
		}
		return dtoken{kind: tNumber, val: n, length: s.pos - start}
	case s.ch == ':' || s.ch == '-' || s.ch == '+' || s.ch == '.' || s.ch == ')':
		c := int(s.ch)
		s.advance()
		return dtoken{kind: tSymbol, val: c, length: 1}
	case s.ch >= 'A' && !isJSSpace(s.ch):
		var pre [3]uint16
		n := 0
		for ; s.ch >= 'A' && !isJSSpace(s.ch); s.advance() {
			if n < 3 {
				pre[n] = s.ch | 0x20
			}
			n++
		}
		for _, k := range keywords {
			if k.prefix == pre && (n <= 3 || k.typ == kwMonth) {
				return dtoken{kind: tKeyword, kw: k.typ, val: k.val, length: n}
			}
		}
		return dtoken{kind: tKeyword, kw: kwInvalid, length: n}
	case isJSSpace(s.ch) || s.ch == '\n' || s.ch == '\r' || s.ch == 0x2028 || s.ch == 0x2029:
		s.advance()
		return dtoken{kind: tSpace, length: s.pos - start}
	case s.ch == '(':
		balance := 0
		for {
			if s.ch == ')' {
				balance--
			} else if s.ch == '(' {
				balance++
			}
			s.advance()
			if balance <= 0 || s.ch == 0 {
				break
			}
		}
		return dtoken{kind: tUnknown, length: 1}
	}
	s.advance()
	return dtoken{kind: tUnknown, length: 1}
}

// isJSSpace reports JavaScript WhiteSpace (line terminators excluded).
func isJSSpace(c uint16) bool {
	switch c {
	case '\t', '\v', '\f', ' ', 0xA0, 0xFEFF, 0x1680, 0x202F, 0x205F, 0x3000:
		return true
	}
	return c >= 0x2000 && c <= 0x200A
}

func (s *dscanner) Next() dtoken {
	t := s.next
	s.next = s.scan()
	return t
}

func (s *dscanner) Peek() dtoken { return s.next }

func (s *dscanner) skipSymbol(c int) bool {
	if s.next.isSymbol(c) {
		s.next = s.scan()
		return true
	}
	return false
}

func between(x, lo, hi int) bool { return x >= lo && x <= hi }

func readMilliseconds(t dtoken) int {
	n, length := t.val, t.length
	switch {
	case length == 1:
		n *= 100
	case length == 2:
		n *= 10
	case length > 3:
		if length > maxSignificantDigits {
			length = maxSignificantDigits
		}
		for ; length > 3; length-- {
			n /= 10
		}
	}
	return n
}

// ---- composers ----

type dayComposer struct {
	comp       [3]int
	n          int
	namedMonth int
	iso        bool
}

func (d *dayComposer) add(v int) bool {
	if d.n >= 3 {
		return false
	}
	d.comp[d.n] = v
	d.n++
	return true
}

func (d *dayComposer) write(f *dateFields) bool {
	if d.n < 1 {
		return false
	}
	for d.n < 3 {
		d.comp[d.n] = 1
		d.n++
	}
	year, month, day := 0, none, none
	if d.namedMonth == none {
		// After the fill above all three components are present.
		if d.iso || !between(d.comp[0], 1, 31) {
			year, month, day = d.comp[0], d.comp[1], d.comp[2]
		} else {
			month, day, year = d.comp[0], d.comp[1], d.comp[2]
		}
	} else {
		month = d.namedMonth
		if !between(d.comp[0], 1, 31) {
			year, day = d.comp[0], d.comp[1]
		} else {
			day, year = d.comp[0], d.comp[1]
		}
	}
	if !d.iso {
		if between(year, 0, 49) {
			year += 2000
		} else if between(year, 50, 99) {
			year += 1900
		}
	}
	if !between(month, 1, 12) || !between(day, 1, 31) {
		return false
	}
	f.year, f.month, f.day = year, month-1, day
	return true
}

type timeComposer struct {
	comp       [4]int
	n          int
	hourOffset int
}

func (t *timeComposer) empty() bool { return t.n == 0 }

func (t *timeComposer) expecting(v int) bool {
	return t.n == 1 && between(v, 0, 59) || t.n == 2 && between(v, 0, 59) || t.n == 3 && between(v, 0, 999)
}

func (t *timeComposer) add(v int) bool {
	if t.n >= 4 {
		return false
	}
	t.comp[t.n] = v
	t.n++
	return true
}

func (t *timeComposer) addFinal(v int) bool {
	if !t.add(v) {
		return false
	}
	for t.n < 4 {
		t.comp[t.n] = 0
		t.n++
	}
	return true
}

func (t *timeComposer) write(f *dateFields) bool {
	for t.n < 4 {
		t.comp[t.n] = 0
		t.n++
	}
	h, m, s, ms := t.comp[0], t.comp[1], t.comp[2], t.comp[3]
	if t.hourOffset != none {
		if !between(h, 0, 12) {
			return false
		}
		h = h%12 + t.hourOffset
	}
	if !between(h, 0, 23) || !between(m, 0, 59) || !between(s, 0, 59) || !between(ms, 0, 999) {
		if h != 24 || m != 0 || s != 0 || ms != 0 {
			return false
		}
	}
	f.hour, f.minute, f.second, f.ms = h, m, s, ms
	return true
}

type zoneComposer struct {
	sign, hour, minute int
}

func (z *zoneComposer) set(offsetHours int) {
	z.sign = 1
	if offsetHours < 0 {
		z.sign = -1
	}
	z.hour = offsetHours * z.sign
	z.minute = 0
}

func (z *zoneComposer) expecting(v int) bool {
	return z.hour != none && z.minute == none && between(v, 0, 59)
}

func (z *zoneComposer) isUTC() bool { return z.hour == 0 && z.minute == 0 }
func (z *zoneComposer) empty() bool { return z.hour == none }

func (z *zoneComposer) write(f *dateFields) bool {
	if z.sign == none {
		return true
	}
	h, m := z.hour, z.minute
	if h == none {
		h = 0
	}
	if m == none {
		m = 0
	}
	total := int64(h)*3600 + int64(m)*60
	if total > 1<<30-1 {
		return false
	}
	f.offsetSec = int(total) * z.sign
	f.hasOffset = true
	return true
}

// ---- parser ----

// legacyDate is the state of V8's legacy date grammar: the three
// composers and whether a number has been seen yet.
type legacyDate struct {
	s         *dscanner
	day       *dayComposer
	tm        *timeComposer
	tz        *zoneComposer
	hasNumber bool
}

func parseDateFields(in []uint16) (dateFields, bool) {
	var f dateFields
	p := &legacyDate{
		s:   newScanner(in),
		day: &dayComposer{namedMonth: none},
		tm:  &timeComposer{hourOffset: none},
		tz:  &zoneComposer{sign: none, hour: none, minute: none},
	}
	tok := parseES(p.s, p.day, p.tm, p.tz)
	if tok.kind == tInvalid {
		return f, false
	}
	p.hasNumber = p.day.n > 0
	for ; tok.kind != tEnd; tok = p.s.Next() {
		if !p.token(tok) {
			return f, false
		}
	}
	if !p.day.write(&f) || !p.tm.write(&f) || !p.tz.write(&f) {
		return f, false
	}
	return f, true
}

// token consumes one token of the legacy grammar (and what it takes after
// it); false means the input is not a date.
func (p *legacyDate) token(tok dtoken) bool {
	switch {
	case tok.kind == tNumber:
		p.hasNumber = true
		return p.number(tok.val)
	case tok.kind == tKeyword:
		return p.keyword(tok)
	case tok.isSign() && (p.tz.isUTC() || !p.tm.empty()):
		return p.offset(tok)
	case (tok.isSign() || tok.isSymbol(')')) && p.hasNumber:
		return false
	}
	return true
}

// number places a number: a time field when ':' or '.' follows, the
// minutes of a pending offset, the last time field, or a date field.
func (p *legacyDate) number(n int) bool {
	s, tm := p.s, p.tm
	switch {
	case s.skipSymbol(':'):
		if s.skipSymbol(':') {
			if !tm.empty() {
				return false
			}
			tm.add(n)
			tm.add(0)
			return true
		}
		if !tm.add(n) {
			return false
		}
		if s.Peek().isSymbol('.') {
			s.Next()
		}
		return true
	case s.skipSymbol('.') && tm.expecting(n):
		tm.add(n)
		if s.Peek().kind != tNumber {
			return false
		}
		tm.addFinal(readMilliseconds(s.Next()))
		return true
	case p.tz.expecting(n):
		p.tz.minute = n
		return true
	case tm.expecting(n):
		tm.addFinal(n)
		next := s.Peek()
		return next.kind == tEnd || next.kind == tSpace || next.isZ() || next.isSign()
	}
	if !p.day.add(n) {
		return false
	}
	s.skipSymbol('-')
	return true
}

// keyword applies a word: am/pm, a month name, a zone name; any other
// word is allowed only before the first number.
func (p *legacyDate) keyword(tok dtoken) bool {
	switch {
	case tok.kw == kwAmPm && !p.tm.empty():
		p.tm.hourOffset = tok.val
	case tok.kw == kwMonth:
		p.day.namedMonth = tok.val
		p.s.skipSymbol('-')
	case tok.kw == kwZone && p.hasNumber:
		p.tz.set(tok.val)
	default:
		return !p.hasNumber && p.s.Peek().kind != tNumber
	}
	return true
}

// offset reads a ±hh[:mm] / ±hhmm offset after a time or UTC.
func (p *legacyDate) offset(sign dtoken) bool {
	s, tz := p.s, p.tz
	tz.sign = sign.sign()
	n, length := 0, 0
	if s.Peek().kind == tNumber {
		t := s.Next()
		n, length = t.val, t.length
	}
	p.hasNumber = true
	switch {
	case s.Peek().isSymbol(':'):
		tz.hour, tz.minute = n, none
	case length == 1 || length == 2:
		tz.hour, tz.minute = n, 0
	case length == 3 || length == 4:
		tz.hour, tz.minute = n/100, n%100
	default:
		return false
	}
	return true
}

// invalid is the token parseES returns when the input can no longer be a
// date.
var invalid = dtoken{kind: tInvalid}

// parseES parses as much as possible of the ES date-time string format. It
// returns tEnd when the whole input matched, tInvalid when the input can no
// longer be a date, or the first token the legacy grammar must handle.
func parseES(s *dscanner, day *dayComposer, tm *timeComposer, tz *zoneComposer) dtoken {
	if tok, ok := parseESDate(s, day); !ok {
		return tok
	}
	if !s.Peek().isKeyword(kwTimeSep) {
		if s.Peek().kind != tEnd {
			return s.Next()
		}
	} else {
		s.Next()
		if !parseESTime(s, tm) || !parseESZone(s, tz) || s.Peek().kind != tEnd {
			return invalid
		}
	}
	if tz.empty() && tm.empty() {
		tz.set(0)
	}
	day.iso = true
	return dtoken{kind: tEnd}
}

// parseESDate reads `[+-YY]YYYY[-MM[-DD]]`; when it does not match, ok is
// false and tok is the token the legacy grammar continues with.
func parseESDate(s *dscanner, day *dayComposer) (tok dtoken, ok bool) {
	if s.Peek().isSign() {
		signTok := s.Next()
		if !s.Peek().isNumber(6) {
			return signTok, false
		}
		year := s.Next().val
		if signTok.sign() < 0 && year == 0 {
			return signTok, false
		}
		day.add(signTok.sign() * year)
	} else if s.Peek().isNumber(4) {
		day.add(s.Next().val)
	} else {
		return s.Next(), false
	}
	if s.skipSymbol('-') {
		if p := s.Peek(); !p.isNumber(2) || !between(p.val, 1, 12) {
			return s.Next(), false
		}
		day.add(s.Next().val)
		if s.skipSymbol('-') {
			if p := s.Peek(); !p.isNumber(2) || !between(p.val, 1, 31) {
				return s.Next(), false
			}
			day.add(s.Next().val)
		}
	}
	return dtoken{}, true
}

// parseESTime reads `HH:mm[:ss[.s+]]` after the `T` (24:00 allowed, with
// zero minutes, seconds and fraction).
func parseESTime(s *dscanner, tm *timeComposer) bool {
	if p := s.Peek(); !p.isNumber(2) || !between(p.val, 0, 24) {
		return false
	}
	hour24 := s.Peek().val == 24
	field := func() bool { // a two-digit minute or second field
		p := s.Peek()
		if !p.isNumber(2) || !between(p.val, 0, 59) || hour24 && p.val > 0 {
			return false
		}
		tm.add(s.Next().val)
		return true
	}
	tm.add(s.Next().val)
	if !s.skipSymbol(':') || !field() {
		return false
	}
	if !s.skipSymbol(':') {
		return true
	}
	if !field() {
		return false
	}
	if s.skipSymbol('.') {
		if p := s.Peek(); p.kind != tNumber || hour24 && p.val > 0 {
			return false
		}
		tm.add(readMilliseconds(s.Next()))
	}
	return true
}

// parseESZone reads an optional `Z`, `±HHmm` or `±HH:mm` after the time.
func parseESZone(s *dscanner, tz *zoneComposer) bool {
	switch {
	case s.Peek().isZ():
		s.Next()
		tz.set(0)
		return true
	case !s.Peek().isSign():
		return true
	}
	tz.sign = s.Next().sign()
	if s.Peek().isNumber(4) {
		hm := s.Next().val
		h, m := hm/100, hm%100
		if !between(h, 0, 23) || !between(m, 0, 59) {
			return false
		}
		tz.hour, tz.minute = h, m
		return true
	}
	if p := s.Peek(); !p.isNumber(2) || !between(p.val, 0, 23) {
		return false
	}
	tz.hour = s.Next().val
	if !s.skipSymbol(':') {
		return false
	}
	if p := s.Peek(); !p.isNumber(2) || !between(p.val, 0, 59) {
		return false
	}
	tz.minute = s.Next().val
	return true
}
