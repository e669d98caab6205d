package runtime

import (
	"math"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// ---- statements ----

func (r *run) execBlock(b *blockCode, parent *frame, implicit ...value.Value) (value.Value, error) {
	f := r.acquire(parent, b)
	copy(f.slots, implicit)
	out := value.NullValue
	var err error
	for _, s := range b.stmts {
		var ret bool
		var v value.Value
		v, ret, err = r.execStmt(s, f)
		if err != nil {
			out = value.Value{}
			break
		}
		if ret {
			out = v
			break
		}
	}
	r.release(f, b)
	return out, err
}

// acquire returns a frame for a run of block b. A block that declares no
// function anywhere inside can never be captured by a closure, so its
// frames are recycled through the run's pool instead of allocated.
func (r *run) acquire(parent *frame, b *blockCode) *frame {
	if !b.mayCapture {
		if n := len(r.pool); n > 0 {
			f := r.pool[n-1]
			r.pool = r.pool[:n-1]
			f.parent = parent
			if cap(f.slots) >= b.nslots {
				f.slots = f.slots[:b.nslots]
			} else {
				f.slots = make([]value.Value, b.nslots)
			}
			return f
		}
	}
	return newFrame(parent, b.nslots)
}

// clearSlots empties s. A frame has few slots: storing zero values one
// by one is cheaper than clear's call into the runtime for them.
func clearSlots(s []value.Value) {
	switch len(s) {
	case 0:
	case 1:
		s[0] = value.Value{}
	case 2:
		s[0], s[1] = value.Value{}, value.Value{}
	default:
		clear(s)
	}
}

// release gives a frame of a non-capturable block back to the pool.
func (r *run) release(f *frame, b *blockCode) {
	if b.mayCapture || len(r.pool) >= 256 {
		return
	}
	clearSlots(f.slots)
	f.parent = nil
	r.pool = append(r.pool, f)
}

// execStmt runs one statement. The cancellation/budget flag is read once
// per statement; the span is fetched (through the interface) only when a
// trace is on or the flag is raised, so the common path does no span work.
func (r *run) execStmt(s stmtNode, f *frame) (value.Value, bool, error) {
	if r.flag.Load() != 0 {
		if err := r.interrupted(s.getSpan()); err != nil {
			return value.Value{}, false, err
		}
	}
	if r.tr == nil {
		return s.exec(r, f)
	}
	sp := s.getSpan()
	if err := r.event("stmt_start", sp, value.Value{}); err != nil {
		return value.Value{}, false, err
	}
	v, ret, err := s.exec(r, f)
	if err != nil {
		return v, ret, err
	}
	if err := r.event("stmt_end", sp, value.Value{}); err != nil {
		return value.Value{}, false, err
	}
	return v, ret, nil
}

func (n *letNode) exec(r *run, f *frame) (value.Value, bool, error) {
	v, err := n.x.eval(r, f)
	if err != nil {
		return v, false, err
	}
	f.slots[n.slot] = v
	return value.Value{}, false, nil
}

func (n *returnNode) exec(r *run, f *frame) (value.Value, bool, error) {
	v, err := n.x.eval(r, f)
	return v, err == nil, err
}

func (n *exprStmtNode) exec(r *run, f *frame) (value.Value, bool, error) {
	v, err := n.x.eval(r, f)
	if err != nil {
		return v, false, err
	}
	if n.slot < 0 {
		// The value of a bare expression statement is handed back (not as
		// a return) so a session can show it.
		return v, false, nil
	}
	for i := len(n.path) - 1; i >= 0; i-- {
		rec := value.NewRecord(1)
		rec.Set(n.path[i], v)
		v = value.RecordOf(rec)
	}
	if len(n.path) > 0 && r.tooBig(v) {
		return value.Value{}, false, r.valueError(n.span, v)
	}
	f.slots[n.slot] = v
	return value.Value{}, false, nil
}

func (n *fnDeclNode) exec(r *run, f *frame) (value.Value, bool, error) {
	r.fns[n.id] = closure{fn: n.fn, frame: f}
	return value.Value{}, false, nil
}

// ---- simple expressions ----

// Constants, variables, operators and if-records do a bounded amount of
// work besides their operands, so they do not poll: the statement that
// contains them, and every loop iteration and call, already did.

func (n *constNode) eval(r *run, f *frame) (value.Value, error) {
	return n.v, nil
}

func (n *varNode) eval(r *run, f *frame) (value.Value, error) {
	if n.local >= 0 {
		if v := f.slots[n.local]; !v.IsUndefined() {
			return v, nil
		}
	}
	var v value.Value
	for _, ref := range n.refs {
		fr := f
		for i := 0; i < ref.Hops; i++ {
			fr = fr.parent
		}
		if x := fr.slots[ref.Slot]; !x.IsUndefined() {
			v = x
			break
		}
	}
	if v.IsUndefined() {
		return v, newErrHint(diag.EUnbound, n.span, "Unbound variable '"+n.name+"'.",
			"A function's own name is not a variable; call it as "+n.name+" { ... }.")
	}
	for i, seg := range n.path {
		rec := v.AsRecord()
		if rec == nil {
			return value.Value{}, newErrHint(diag.EPath, n.span, "Cannot access '"+seg+"' on non-record value.", pathHint(n.name, n.path, seg, v))
		}
		h := int(n.hints[i].Load())
		j := rec.Index(seg, h)
		if j < 0 {
			v = value.NullValue
			continue
		}
		if j != h {
			n.hints[i].Store(int32(j))
		}
		v = rec.At(j)
	}
	return v, nil
}

func (n *recordNode) eval(r *run, f *frame) (value.Value, error) {
	rec, err := n.build(r, f)
	if err != nil {
		return value.Value{}, err
	}
	v := value.RecordOf(rec)
	if r.tooBig(v) {
		return value.Value{}, r.valueError(n.span, v)
	}
	return v, nil
}

func (n *recordNode) build(r *run, f *frame) (*value.Record, error) {
	if err := r.poll(n.pollSpan); err != nil {
		return nil, err
	}
	if n.shape != nil {
		// One allocation, the keys shared, no key search.
		rec, vals := value.NewShaped(n.shape)
		for i := range n.entries {
			v, err := n.entries[i].x.eval(r, f)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		rec.Seal()
		return rec, nil
	}
	rec := value.NewRecord(len(n.entries))
	for i := range n.entries {
		e := &n.entries[i]
		v, err := e.x.eval(r, f)
		if err != nil {
			return nil, err
		}
		if e.spread {
			src := v.AsRecord()
			if src == nil {
				return nil, newErrHint(diag.EType, e.span, "Spread requires a record, got "+v.ShapeName()+".",
					"Only records can be spread; lists cannot be spread (use concat { a, b }).")
			}
			for j, k := range src.Keys() {
				rec.Set(k, src.At(j))
			}
			continue
		}
		rec.Set(e.key, v)
	}
	return rec, nil
}

func (n *listNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	// The list and its items in one allocation.
	l := value.NewListN(len(n.elems))
	for i, e := range n.elems {
		v, err := e.eval(r, f)
		if err != nil {
			return value.Value{}, err
		}
		l.Items[i] = v
	}
	v := value.SealList(l)
	if r.tooBig(v) {
		return value.Value{}, r.valueError(n.span, v)
	}
	return v, nil
}

func (n *binNode) eval(r *run, f *frame) (value.Value, error) {
	// A constant operand (n - 1, i % 10, n < 2) is read from the node
	// instead of through another interface call.
	a, b := n.lc, n.rc
	if n.li >= 0 {
		a = f.slots[n.li]
	}
	if n.ri >= 0 {
		b = f.slots[n.ri]
	}
	var err error
	if a.IsUndefined() {
		if a, err = n.l.eval(r, f); err != nil {
			return a, err
		}
	}
	if b.IsUndefined() {
		if b, err = n.r.eval(r, f); err != nil {
			return b, err
		}
	}
	ak, bk := a.Kind(), b.Kind()
	if ak == value.Number && bk == value.Number {
		x, y := a.AsNumber(), b.AsNumber()
		switch n.op {
		case opAdd:
			return value.Num(x + y), nil
		case opSub:
			return value.Num(x - y), nil
		case opMul:
			return value.Num(x * y), nil
		case opDiv:
			if y == 0 {
				return value.Value{}, newErrHint(diag.EType, n.span, "Division by zero.", zeroHint(n, "/"))
			}
			return value.Num(x / y), nil
		case opMod:
			if y == 0 {
				return value.Value{}, newErrHint(diag.EType, n.span, "Modulo by zero.", zeroHint(n, "%"))
			}
			return value.Num(modNum(x, y)), nil
		case opLt:
			return value.BoolOf(x < y), nil
		case opGt:
			return value.BoolOf(x > y), nil
		case opLe:
			return value.BoolOf(x <= y), nil
		case opGe:
			return value.BoolOf(x >= y), nil
		case opEq:
			return value.BoolOf(x == y), nil
		case opNe:
			return value.BoolOf(x != y), nil
		}
	}
	switch n.op {
	case opEq:
		return value.BoolOf(value.Equal(a, b)), nil
	case opNe:
		return value.BoolOf(!value.Equal(a, b)), nil
	case opAdd:
		if ak == value.String && bk == value.String {
			if err := r.checkSize(n.span, int64(len(a.AsString())+len(b.AsString()))); err != nil {
				return value.Value{}, err
			}
			return value.Str(value.Concat16(a.AsString(), b.AsString())), nil
		}
		hint := "Both operands of + must be numbers, or both strings."
		if h := nullOperandHint(n, a, b); h != "" {
			hint = h
		} else if ak == value.String || bk == value.String {
			hint = "Use str.concat { parts: [...] } or str.template to join text and numbers."
		} else if ak == value.ListKind && bk == value.ListKind {
			hint = "+ does not join lists: write concat { a: …, b: … }, or append { in: xs, value: … } for one item."
		} else if ak == value.ListKind || bk == value.ListKind {
			hint = "+ does not add to a list: write append { in: xs, value: … }, or concat { a: …, b: … } for two lists."
		} else if ak == value.RecordKind && bk == value.RecordKind {
			hint = "+ does not merge records: write merge { a: …, b: … } or { ...a, ...b } (later keys win)."
		}
		return value.Value{}, newErrHint(diag.EType, n.span, "Operator '+' requires two numbers or two strings, got "+a.JSType()+" and "+b.JSType()+".", hint)
	case opLt, opGt, opLe, opGe:
		if ak == value.String && bk == value.String {
			c := value.Compare16(a.AsString(), b.AsString())
			switch n.op {
			case opLt:
				return value.BoolOf(c < 0), nil
			case opGt:
				return value.BoolOf(c > 0), nil
			case opLe:
				return value.BoolOf(c <= 0), nil
			}
			return value.BoolOf(c >= 0), nil
		}
		return value.Value{}, newErrHint(diag.EType, n.span, "Operator '"+n.opText+"' requires numbers or strings of the same type, got "+a.JSType()+" and "+b.JSType()+".", operandTypeHint(n, a, b, true))
	}
	return value.Value{}, newErrHint(diag.EType, n.span, "Operator '"+n.opText+"' requires numbers, got "+a.JSType()+" and "+b.JSType()+".", operandTypeHint(n, a, b, false))
}

// operandName is the source name of an operand that is a name or a path
// (`r.count`), else "".
func operandName(e exprNode) string {
	if v, ok := e.(*varNode); ok {
		if len(v.path) > 0 {
			return v.name + "." + strings.Join(v.path, ".")
		}
		return v.name
	}
	return ""
}

// nullOperandHint explains an operand that is null, the value of a
// missing field or argument; "" when neither is null.
func nullOperandHint(n *binNode, a, b value.Value) string {
	side := n.l
	switch {
	case a.Kind() == value.Null:
	case b.Kind() == value.Null:
		side = n.r
	default:
		return ""
	}
	name := operandName(side)
	if name == "" {
		return "An operand is null (a missing field or argument reads as null): check the names, or give a default with coalesce { in: …, default: 0 }."
	}
	return "'" + name + "' is null (a missing field or argument reads as null): check the name, or give a default, coalesce { in: " + name + ", default: 0 }."
}

// operandTypeHint names the fix for an arithmetic or comparison operator
// given operands of the wrong types: a null operand, text that holds a
// number (parse.number), or a value of another type.
func operandTypeHint(n *binNode, a, b value.Value, compare bool) string {
	if h := nullOperandHint(n, a, b); h != "" {
		return h
	}
	if a.Kind() == value.String || b.Kind() == value.String {
		side, other := n.l, b
		if b.Kind() == value.String {
			side, other = n.r, a
		}
		name := operandName(side)
		if name == "" {
			name = "…"
			if v := value.JSON(a); side == n.r {
				name = value.JSON(b)
			} else if len(v) <= 40 {
				name = v
			}
			if len(name) > 40 {
				name = "…"
			}
		}
		if n.op == opMul && other.Kind() == value.Number {
			if _, err := strconv.ParseFloat(strings.TrimSpace(sideValue(n, a, b).AsString()), 64); err != nil {
				return "A0 does not repeat text with *: write str.repeat { in: " + name + ", times: … }."
			}
		}
		if compare && other.Kind() != value.Number {
			return "Compare two numbers or two strings: convert one side first (parse.number { in: … } for text that holds a number, json.stringify { in: … } for text)."
		}
		return "Operator '" + n.opText + "' needs numbers: convert the text first, parse.number { in: " + name + " }."
	}
	if compare {
		return "Compare two numbers or two strings; for other values test equality with == or eq { a, b }."
	}
	return "Operator '" + n.opText + "' works on numbers only: typeof { in: x } shows what a value is."
}

// sideValue is the string operand of a binary operator (the left one
// when both are strings).
func sideValue(n *binNode, a, b value.Value) value.Value {
	if a.Kind() == value.String {
		return a
	}
	return b
}

// zeroHint names the fix for a division or modulo by zero: test the
// divisor first.
func zeroHint(n *binNode, op string) string {
	x, d := operandName(n.l), operandName(n.r)
	if x == "" {
		x = "x"
	}
	if d == "" {
		d = "d"
	}
	return "Test the divisor before dividing: `if { cond: " + d + " != 0, then: " + x + " " + op + " " + d + ", else: 0 }`."
}

// modNum is JavaScript's x % y for y != 0 (math.Mod: the result takes the
// sign of x, -0 included). Integers up to 2^53 in magnitude, the common
// case, take an integer remainder instead of math.Mod's loop; the result
// is bit for bit the same.
func modNum(x, y float64) float64 {
	const lim = 1 << 53
	if x >= -lim && x <= lim && y >= -lim && y <= lim && y != 0 {
		xi, yi := int64(x), int64(y)
		if float64(xi) == x && float64(yi) == y {
			if m := xi % yi; m != 0 {
				return float64(m)
			}
			return math.Copysign(0, x)
		}
	}
	return math.Mod(x, y)
}

func (n *negNode) eval(r *run, f *frame) (value.Value, error) {
	v, err := n.x.eval(r, f)
	if err != nil {
		return v, err
	}
	if v.Kind() != value.Number {
		hint := "Negate only numbers: typeof { in: x } shows what the value is."
		switch {
		case v.Kind() == value.String:
			hint = "Convert the text first: -(parse.number { in: … })."
		case v.Kind() == value.Null:
			hint = "The value is null (a missing field or argument reads as null): check the name, or give a default with coalesce { in: …, default: 0 }."
		}
		return value.Value{}, newErrHint(diag.EType, n.span, "Unary '-' requires a number, got "+v.JSType()+".", hint)
	}
	return value.Num(-v.AsNumber()), nil
}

// ---- control flow ----

func (n *ifRecNode) eval(r *run, f *frame) (value.Value, error) {
	c, err := n.cond.eval(r, f)
	if err != nil {
		return c, err
	}
	if c.Truthy() {
		return n.then.eval(r, f)
	}
	return n.els.eval(r, f)
}

func (n *ifBlockNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	c, err := n.cond.eval(r, f)
	if err != nil {
		return c, err
	}
	if c.Truthy() {
		return r.execBlock(n.then, f)
	}
	return r.execBlock(n.els, f)
}

// countIteration counts one loop iteration against maxIterations.
func (r *run) countIteration(sp diag.Span) error {
	r.iterations++
	if r.limits.hasIterations && r.iterations > r.limits.maxIterations {
		return r.budgetError(sp, "maxIterations", r.limits.maxIterations, r.iterations,
			"Budget exceeded: maxIterations limit of "+strconv.FormatInt(r.limits.maxIterations, 10)+" reached.")
	}
	return nil
}

func (n *forNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	var items seq
	if rn, ok := n.in.(*rangeNode); ok {
		var err error
		if items, err = rn.bounds(r, f); err != nil {
			return value.Value{}, err
		}
	} else {
		in, err := n.in.eval(r, f)
		if err != nil {
			return in, err
		}
		if in.Kind() != value.ListKind {
			return value.Value{}, newErrHint(diag.EForNotList, n.inSpan, "for-in expression must evaluate to a list, got "+in.RawJSType()+".",
				"Iterate a list; for a record use keys, values or entries { in: ... }.")
		}
		items = listSeq(in.AsList())
	}
	if r.tr != nil {
		if err := r.emit("for_start", n.span, details("listLength", items.n, "as", n.as)); err != nil {
			return value.Value{}, err
		}
	}
	out := make([]value.Value, 0, items.n)
	var size int64 // of the results so far: stop as soon as it passes the ceiling
	for i := 0; i < items.n; i++ {
		if err := r.countIteration(n.span); err != nil {
			return value.Value{}, err
		}
		v, err := r.execBlock(n.body, f, items.at(i))
		if err != nil {
			return v, err
		}
		out = append(out, v)
		if size += v.Size(); r.env.memLimit > 0 && size > r.env.memLimit {
			return value.Value{}, r.memoryError(n.span, size)
		}
	}
	res := value.ListOf(out)
	if r.tooBig(res) {
		return value.Value{}, r.valueError(n.span, res)
	}
	if r.tr != nil {
		if err := r.emit("for_end", n.span, details("iterations", items.n)); err != nil {
			return value.Value{}, err
		}
	}
	return res, nil
}

// predicate reduces a filter body/callback value to its truth: a record
// stands for its first value (null when empty).
func predicate(v value.Value) bool {
	if rec := v.AsRecord(); rec != nil {
		if rec.Len() == 0 {
			return false
		}
		return rec.At(0).Truthy()
	}
	return v.Truthy()
}

func (n *filterBlockNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	var items seq
	if rn, ok := n.in.(*rangeNode); ok {
		var err error
		if items, err = rn.bounds(r, f); err != nil {
			return value.Value{}, err
		}
	} else {
		in, err := n.in.eval(r, f)
		if err != nil {
			return in, err
		}
		if in.Kind() != value.ListKind {
			t := in.RawJSType()
			if in.Kind() == value.Null {
				t = "null"
			}
			return value.Value{}, newErrHint(diag.EType, n.inSpan, "filter 'in' must be a list, got "+t+".", hofInHint("filter", in, true))
		}
		items = listSeq(in.AsList())
	}
	if r.tr != nil {
		if err := r.emit("filter_start", n.span, details("listLength", items.n, "as", n.as)); err != nil {
			return value.Value{}, err
		}
	}
	out := make([]value.Value, 0, items.n)
	for i := 0; i < items.n; i++ {
		if err := r.countIteration(n.span); err != nil {
			return value.Value{}, err
		}
		it := items.at(i)
		v, err := r.execBlock(n.body, f, it)
		if err != nil {
			return v, err
		}
		if predicate(v) {
			out = append(out, it)
		}
	}
	if r.tr != nil {
		if err := r.emit("filter_end", n.span, details("iterations", items.n)); err != nil {
			return value.Value{}, err
		}
	}
	return value.ListOf(out), nil
}

func (n *loopNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	cur, err := n.in.eval(r, f)
	if err != nil {
		return cur, err
	}
	tv, err := n.times.eval(r, f)
	if err != nil {
		return tv, err
	}
	t := tv.AsNumber()
	if tv.Kind() != value.Number || t < 0 || t != math.Trunc(t) || math.IsInf(t, 0) {
		hint := "Give times a whole number of passes, 0 or more."
		if tv.Kind() == value.String {
			hint = "times takes a number: convert text with parse.number { in: … }."
		}
		return value.Value{}, newErrHint(diag.EType, n.span, "loop 'times' must be a non-negative integer, got "+value.JSON(tv)+".", hint)
	}
	if r.tr != nil {
		if err := r.emit("loop_start", n.span, details("times", t, "as", n.as)); err != nil {
			return value.Value{}, err
		}
	}
	var i float64
	for ; i < t; i++ {
		if err := r.countIteration(n.span); err != nil {
			return value.Value{}, err
		}
		cur, err = r.execBlock(n.body, f, cur)
		if err != nil {
			return cur, err
		}
	}
	if r.tr != nil {
		if err := r.emit("loop_end", n.span, details("iterations", i)); err != nil {
			return value.Value{}, err
		}
	}
	return cur, nil
}

func (n *matchNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	s, err := n.subject.eval(r, f)
	if err != nil {
		return s, err
	}
	rec := s.AsRecord()
	if rec == nil {
		return value.Value{}, newErrHint(diag.EMatchNotRec, n.subjSpan, "match subject must be a record, got "+s.ShapeName()+".",
			"match takes a result record, { ok: value } or { err: error }; to branch on a plain value use if (cond) { … } else { … }.")
	}
	arm, body := "ok", n.ok
	v, has := rec.Get("ok")
	if !has {
		arm, body = "err", n.err
		v, has = rec.Get("err")
		if !has {
			return value.Value{}, newErrHint(diag.EMatchNoArm, n.subjSpan, "match subject record has neither 'ok' nor 'err' key.",
				"Match on a record shaped { ok: value } or { err: value }.")
		}
	}
	if r.tr != nil {
		if err := r.emit("match_start", n.span, details("arm", arm)); err != nil {
			return value.Value{}, err
		}
	}
	out, err := r.execBlock(body, f, v)
	if err != nil {
		return out, err
	}
	if r.tr != nil {
		if err := r.emit("match_end", n.span, details("arm", arm)); err != nil {
			return value.Value{}, err
		}
	}
	return out, nil
}

func (n *tryNode) eval(r *run, f *frame) (value.Value, error) {
	if err := r.poll(n.span); err != nil {
		return value.Value{}, err
	}
	v, err := r.execBlock(n.body, f)
	if err == nil {
		return v, nil
	}
	caught, ok := r.catchable(err)
	if !ok {
		return v, err
	}
	return r.execBlock(n.catch, f, caught)
}

// catchable converts an error escaping a try body into the record bound by
// catch. Cancellation and host-level failures (trace I/O, memory ceiling)
// are not catchable: the host must keep control.
func (r *run) catchable(err error) (value.Value, bool) {
	if e, ok := err.(*Error); ok {
		if e.Code == diag.ECancelled || e.Code == diag.EIO || e.uncatchable {
			return value.Value{}, false
		}
		return e.catchRecord(), true
	}
	rec := value.NewRecord(2)
	rec.Set("code", value.Str(string(diag.ERuntime)))
	rec.Set("message", value.Str(err.Error()))
	return value.RecordOf(rec), true
}

// ---- evidence ----

func spanValue(sp diag.Span) value.Value {
	r := value.NewRecord(5)
	r.Set("file", value.Str(sp.File))
	r.Set("startLine", value.Int(sp.Start.Line))
	r.Set("startCol", value.Int(sp.Start.Col))
	r.Set("endLine", value.Int(sp.End.Line))
	r.Set("endCol", value.Int(sp.End.Col))
	return value.RecordOf(r)
}

func (n *assertNode) eval(r *run, f *frame) (value.Value, error) {
	args, err := n.args.build(r, f)
	if err != nil {
		return value.Value{}, err
	}
	ok := args.GetOrNull("that").Truthy()
	msg := ""
	if m := args.GetOrNull("msg"); m.Kind() == value.String {
		msg = m.AsString()
	}
	kind := "assert"
	if n.check {
		kind = "check"
	}
	ev := value.NewRecord(5)
	ev.Set("kind", value.Str(kind))
	ev.Set("ok", value.BoolOf(ok))
	ev.Set("msg", value.Str(msg))
	ev.Set("span", spanValue(n.span))
	if d := args.GetOrNull("details"); d.Kind() == value.RecordKind {
		ev.Set("details", d)
	}
	evv := value.RecordOf(ev)
	if r.tooBig(evv) {
		return value.Value{}, r.valueError(n.span, evv)
	}
	r.evidence = append(r.evidence, evv)
	if err := r.emit("evidence", n.span, evv); err != nil {
		return value.Value{}, err
	}
	if !ok && !n.check {
		hint := assertHint(args)
		if n.note != "" && args.Has("that") {
			hint = n.note
		}
		e := newErrHint(diag.EAssert, n.span, "Assertion failed: "+msg, hint)
		e.Details = details("evidence", evv)
		return value.Value{}, e
	}
	return evv, nil
}
