package runtime

import (
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// FailedChecks returns one diagnostic per failed `check` of a run's
// evidence: what `a0 run` and the REPL print on stderr when a run ends
// with exit 5 without an error, so the reader learns which checks failed
// (spec/cli.md §4.1, step 10).
func FailedChecks(evidence []value.Value) diag.List {
	var out diag.List
	for _, ev := range evidence {
		rec := ev.AsRecord()
		if rec == nil {
			continue
		}
		if ok, _ := rec.Get("ok"); ok.AsBool() {
			continue
		}
		if k, _ := rec.Get("kind"); k.Kind() == value.String && k.AsString() != "check" {
			continue
		}
		d := &diag.Diagnostic{
			Code:    diag.EAssert,
			Message: "Check failed: " + rec.GetOrNull("msg").AsString(),
			Hint:    "The run went on and its value was printed; a failed check makes the exit code 5.",
		}
		if sp := spanOf(rec.GetOrNull("span")); sp != nil {
			d.Span = sp
		}
		out = append(out, d)
	}
	return out
}

// FailedChecks is the package function FailedChecks for the evidence
// of a run of p, with a hint that says so for a check whose record gives
// its condition or message under another key (check { cond: … } is
// always false, check { that: …, message: … } has an empty message).
func (p *Program) FailedChecks(evidence []value.Value) diag.List {
	out := FailedChecks(evidence)
	for _, d := range out {
		if d.Span != nil {
			if note := p.checkNotes[*d.Span]; note != "" {
				d.Hint = note
			}
		}
	}
	return out
}

// spanOf reads a span record ({file, startLine, …}) back.
func spanOf(v value.Value) *diag.Span {
	r := v.AsRecord()
	if r == nil {
		return nil
	}
	num := func(k string) int {
		x := r.GetOrNull(k)
		if x.Kind() != value.Number {
			return 0
		}
		return int(x.AsNumber())
	}
	sp := &diag.Span{File: r.GetOrNull("file").AsString(),
		Start: diag.Pos{Line: num("startLine"), Col: num("startCol")},
		End:   diag.Pos{Line: num("endLine"), Col: num("endCol")}}
	if sp.Start.Line == 0 {
		return nil
	}
	return sp
}
