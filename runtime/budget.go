package runtime

import (
	"fmt"
	"github.com/a0lang/a0/lang/value"
)

// Budget limits a run. A nil field is "no limit"; 0 is a valid limit.
type Budget struct {
	TimeMs          *int64 `json:"timeMs,omitempty"`
	MaxToolCalls    *int64 `json:"maxToolCalls,omitempty"`
	MaxBytesWritten *int64 `json:"maxBytesWritten,omitempty"`
	MaxIterations   *int64 `json:"maxIterations,omitempty"`
}

// Limit returns a pointer to n, for building a Budget.
func Limit(n int64) *int64 { return &n }

// WithBudgetCeiling caps every run's budget: a program may declare less in
// its budget header, never more; a field the program leaves out gets the
// ceiling. The effective budget is what the trace's run_start shows.
func WithBudgetCeiling(b Budget) Option {
	return func(e *Env) error {
		if f := b.negative(); f != "" {
			return fmt.Errorf("a0: WithBudgetCeiling: %s cannot be negative", f)
		}
		e.ceiling = b
		return nil
	}
}

// BudgetFromRecord reads the known numeric fields of a record (a policy
// file's limits) into a Budget; other keys are ignored.
func BudgetFromRecord(r *value.Record) Budget {
	var b Budget
	get := func(k string) *int64 {
		v, ok := r.Get(k)
		if !ok || v.Kind() != value.Number || v.AsNumber() < 0 {
			return nil
		}
		return Limit(clampBudget(v.AsNumber()))
	}
	if r == nil {
		return b
	}
	b.TimeMs = get("timeMs")
	b.MaxToolCalls = get("maxToolCalls")
	b.MaxBytesWritten = get("maxBytesWritten")
	b.MaxIterations = get("maxIterations")
	return b
}

// applyCeiling caps the program's limits with the ceiling and returns the
// effective budget record (declared fields in source order, then fields
// only the ceiling sets).
func applyCeiling(l budgetLimits, declared value.Value, c Budget) (budgetLimits, value.Value) {
	if c.TimeMs == nil && c.MaxToolCalls == nil && c.MaxBytesWritten == nil && c.MaxIterations == nil {
		return l, declared // no ceiling: nothing to lower (and nothing allocated)
	}
	return lowerToCeiling(l, declared, c)
}

// lowerToCeiling is applyCeiling with a ceiling.
func lowerToCeiling(l budgetLimits, declared value.Value, c Budget) (budgetLimits, value.Value) {
	type field struct {
		name string
		has  *bool
		val  *int64
		ceil *int64
	}
	fields := []field{
		{"timeMs", &l.hasTime, &l.timeMs, c.TimeMs},
		{"maxToolCalls", &l.hasToolCalls, &l.maxToolCalls, c.MaxToolCalls},
		{"maxBytesWritten", &l.hasBytes, &l.maxBytes, c.MaxBytesWritten},
		{"maxIterations", &l.hasIterations, &l.maxIterations, c.MaxIterations},
	}
	changed := false
	for _, f := range fields {
		if f.ceil == nil {
			continue
		}
		ceil := max(*f.ceil, 0) // a negative RunOptions.Ceiling allows nothing, as 0
		if !*f.has || *f.val > ceil {
			*f.has, *f.val = true, ceil
			changed = true
		}
	}
	if !changed {
		return l, declared
	}
	rec := value.NewRecord(4)
	if d := declared.AsRecord(); d != nil {
		for _, k := range d.Keys() {
			for _, f := range fields {
				if f.name == k {
					rec.Set(k, value.Num(float64(*f.val)))
				}
			}
		}
	}
	for _, f := range fields {
		if *f.has && !rec.Has(f.name) {
			rec.Set(f.name, value.Num(float64(*f.val)))
		}
	}
	return l, value.RecordOf(rec)
}

// WithValue attaches a host value to every run (tools read it with
// Call.Value); RunOptions.Values override it per run.
func WithValue(key string, v any) Option {
	return func(e *Env) error {
		if e.values == nil {
			e.values = map[string]any{}
		}
		e.values[key] = v
		return nil
	}
}

// negative names the first field of b set below 0, or "".
func (b Budget) negative() string {
	for _, f := range []struct {
		name string
		v    *int64
	}{{"timeMs", b.TimeMs}, {"maxToolCalls", b.MaxToolCalls}, {"maxBytesWritten", b.MaxBytesWritten}, {"maxIterations", b.MaxIterations}} {
		if f.v != nil && *f.v < 0 {
			return f.name
		}
	}
	return ""
}
