package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// result: {
	//   "greeting": "hello",
	//   "doubled": 42
	// }
	// evidence: [{"kind":"check","ok":true,"msg":"count was stored","span":{"file":"task.a0","startLine":8,"startCol":1,"endLine":8,"endCol":49}}]
	// exit code: 0
	// greedy program: E_CAP_DENIED: Capability 'sh.exec' is not allowed by policy.
	// read notes.txt: "from the host"
	// read /etc/passwd: E_CAP_DENIED outside_root
}

// TestGoRun checks that `go run ./examples/embed` works as the README says.
func TestGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	out, err := exec.Command("go", "run", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"doubled": 42`) {
		t.Errorf("output:\n%s", out)
	}
}
