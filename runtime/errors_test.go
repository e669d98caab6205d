package runtime

import (
	"errors"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
)

// TestErrorReport: a runtime error is its embedded diagnostic plus the A0
// record of its details, which Report, JSON and AppendJSON render; the
// error text has no span, and the cause unwraps.
func TestErrorReport(t *testing.T) {
	cause := errors.New("disk")
	sp := diag.Span{File: "f.a0", Start: diag.Pos{Line: 2, Col: 3}, End: diag.Pos{Line: 2, Col: 9}}
	e := newErrHint(diag.ECapDenied, sp, "Capability 'fs.read' is not allowed by policy.", "Add it.")
	e.Cause = cause
	e.Details = details("capability", "fs.read", "n", 2)
	want := `{"code":"E_CAP_DENIED","message":"Capability 'fs.read' is not allowed by policy.",` +
		`"span":{"file":"f.a0","startLine":2,"startCol":3,"endLine":2,"endCol":9},` +
		`"details":{"capability":"fs.read","n":2},"hint":"Add it."}`
	if got := e.Report().JSON(diag.FormRuntime); got != want {
		t.Errorf("Report:\n got %s\nwant %s", got, want)
	}
	if got := e.JSON(diag.FormRuntime); got != want {
		t.Errorf("JSON:\n got %s\nwant %s", got, want)
	}
	if e.DetailsJSON != "" {
		t.Errorf("Report changed the error: DetailsJSON %q", e.DetailsJSON)
	}
	if got := e.Error(); got != "E_CAP_DENIED: Capability 'fs.read' is not allowed by policy." {
		t.Errorf("Error() = %q", got)
	}
	if !errors.Is(e, cause) {
		t.Error("the cause does not unwrap")
	}
	if got := e.ExitCode(); got != diag.ExitCap {
		t.Errorf("ExitCode = %d", got)
	}
	// Later details (a tool adding a reason) show in the next report.
	e.Details.AsRecord().Set("reason", value.Str("x"))
	if got := e.JSON(diag.FormRuntime); !strings.Contains(got, `"details":{"capability":"fs.read","n":2,"reason":"x"}`) {
		t.Errorf("details set later: %s", got)
	}
	if got := e.JSON(diag.FormCLI); got != `{"code":"E_CAP_DENIED","message":"Capability 'fs.read' is not allowed by policy."}` {
		t.Errorf("CLI form: %s", got)
	}
	bare := &Error{Diagnostic: diag.Diagnostic{Code: diag.ERuntime, Message: "boom"}}
	if got := bare.JSON(diag.FormRuntime); got != `{"code":"E_RUNTIME","message":"boom"}` {
		t.Errorf("no span, no details: %s", got)
	}
	if r := bare.catchRecord(); value.JSON(r) != `{"code":"E_RUNTIME","message":"boom"}` {
		t.Errorf("catch record: %s", value.JSON(r))
	}
}
