package tools

import (
	"os"
	"os/exec"
	"testing"
)

// Under A0_TEST_NO_OPENAT2 the test binary behaves as on a kernel without
// openat2(2): every path takes the component walk.
func init() {
	if os.Getenv("A0_TEST_NO_OPENAT2") != "" {
		haveOpenat2 = func() bool { return false }
	}
}

// The file-scope tests pass without openat2 too: the walk alone keeps
// paths beneath the roots (magic links, links out, the swap race) and
// follows the links that stay inside.
func TestFSWithoutOpenat2(t *testing.T) {
	if os.Getenv("A0_TEST_NO_OPENAT2") != "" {
		t.Skip("already without openat2")
	}
	if !haveOpenat2() {
		t.Skip("this kernel has no openat2: every test already walks")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^(TestFS|TestZeroConfigIsSafe|TestStaleTempRemoved)", "-test.count=1")
	cmd.Env = append(os.Environ(), "A0_TEST_NO_OPENAT2=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("without openat2: %v\n%s", err, out)
	}
}
