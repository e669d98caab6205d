package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// outputFailureCase is one run whose trace or evidence file cannot be
// written.
type outputFailureCase struct {
	name           string
	src            string
	trace, evid    string // "" for none; "FULL" for the full device
	code           int
	first, message string   // the reported failure's code and message start
	also           []string // the later failures' messages, in order
}

// checkOutputFailure runs c with full standing for a path on a full file
// system and checks what is reported.
func checkOutputFailure(t *testing.T, c outputFailureCase, full string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	if err := os.WriteFile("p.a0", []byte(c.src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "p.a0"}
	sub := func(p string) string { return strings.ReplaceAll(p, "FULL", full) }
	if c.trace != "" {
		args = append(args, "--trace", sub(c.trace))
	}
	if c.evid != "" {
		args = append(args, "--evidence", sub(c.evid))
	}
	var out, errb strings.Builder
	code := realMain(args, strings.NewReader(""), &out, &errb)
	var d struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details struct {
			Also []struct{ Code, Message string } `json:"also"`
		} `json:"details"`
	}
	if err := json.Unmarshal([]byte(errb.String()), &d); err != nil {
		t.Fatalf("stderr %q: %v", errb.String(), err)
	}
	if code != c.code || d.Code != c.first || !strings.HasPrefix(d.Message, c.message) || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %s", code, out.String(), errb.String())
	}
	var also []string
	for _, a := range d.Details.Also {
		also = append(also, a.Code+" "+a.Message)
	}
	if strings.Join(also, "|") != strings.Join(c.also, "|") {
		t.Errorf("also %q, want %q", also, c.also)
	}
}

var outputFailureCases = []outputFailureCase{
	{
		name: "trace and evidence", src: "return 1", trace: "FULL", evid: "FULL",
		code: 4, first: "E_IO", message: "Error writing trace file: ENOSPC: no space left on device, write",
		also: []string{"E_IO Error writing evidence file: ENOSPC: no space left on device, write"},
	},
	{
		name: "failed assert, then evidence", src: "assert { that: false, msg: \"boom\" }\nreturn 1", evid: "FULL",
		code: 5, first: "E_ASSERT", message: "Assertion failed: boom",
		also: []string{"E_IO Error writing evidence file: ENOSPC: no space left on device, write"},
	},
	{
		name: "evidence only", src: "check { that: true, msg: \"c\" }\nreturn 1", evid: "FULL",
		code: 4, first: "E_IO", message: "Error writing evidence file: ENOSPC: no space left on device, write",
	},
	{
		name: "evidence cannot be opened", src: "return 1", evid: "no/such/dir/e.json",
		code: 4, first: "E_IO", message: "Error writing evidence file: ENOENT: no such file or directory, open 'no/such/dir/e.json'",
	},
}

// TestOutputFileFailures: on a full disk the first failure is reported
// (the trace's, or the program's own error) and the later ones are kept in
// its details; a failed write is named "write", not "open". Before, only
// the evidence error was printed, as a failure to open.
func TestOutputFileFailures(t *testing.T) {
	if f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err != nil {
		t.Skipf("no writable /dev/full: %v", err)
	} else {
		f.Close()
	}
	for _, c := range outputFailureCases {
		t.Run(c.name, func(t *testing.T) { checkOutputFailure(t, c, "/dev/full") })
	}
}
