package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Deciding whether an input is finished (issue 18.6): each case is piped
// in-process; the lines of an input are joined only while it is
// incomplete, and an error before the end of the text is reported at once.
func TestREPLInputContinuation(t *testing.T) {
	replDir(t)
	cases := []struct {
		name, in, out string
		codes         []string
		exit          int
	}{
		{name: "open list", in: "[1,\n2,\n\n# c\n3]\n", out: "[1,2,3]\n"},
		{name: "error inside an open bracket is reported at once", in: "[1 2\n3\n", out: "3\n", codes: []string{"E_PARSE"}, exit: 2},
		{name: "unmatched closer", in: "1 }\n2\n", out: "2\n", codes: []string{"E_PARSE"}, exit: 2},
		{name: "trailing operator", in: "let x = 1 +\n# c\n\n2\nx\n", out: "3\n"},
		{name: "trailing =", in: "let x =\n\n\n5\nx\n", out: "5\n"},
		{name: "if waits for else", in: "if (true) { return 1 }\nelse { return 2 }\n", out: "1\n"},
		{name: "if at the end", in: "let v = if\n(false) { return 1 } else { return 2 }\nv\n", out: "2\n"},
		{name: "an unclosed string is reported at once", in: "let s = \"a\n\nb\"\n7\n", out: "7\n", codes: []string{"E_LEX", "E_LEX"}, exit: 2},
		{name: "bad escape is an error at once", in: "\"\\q\"\n1\n", out: "1\n", codes: []string{"E_LEX"}, exit: 2},
		{name: "lexical error at once", in: "[1, @\n2\n", out: "2\n", codes: []string{"E_LEX"}, exit: 2},
		{name: "path ending in a keyword is complete", in: "let r = { do: 4 }\nr.do\n", out: "4\n"},
		{name: "fn header waits for its body", in: "fn f { a }\n{ return a * 2 }\nf { a: 4 }\n", out: "8\n"},
		{name: "comment-only first line", in: "# hello\n1\n", out: "1\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := pipedREPL(t, tc.in)
			if out != tc.out {
				t.Errorf("stdout = %q, want %q", out, tc.out)
			}
			if got := diagCodes(t, errOut); strings.Join(got, ",") != strings.Join(tc.codes, ",") {
				t.Errorf("stderr codes = %q, want %q\nstderr: %s", got, tc.codes, errOut)
			}
			if code != tc.exit {
				t.Errorf("exit = %d, want %d", code, tc.exit)
			}
		})
	}
}

// Feeding n lines costs about n (issue 18.6): long unfinished inputs and
// many small ones, piped into a real `a0 repl` process. The bounds are
// generous (each takes well under a second of CPU time); before, the first
// case took 38 s, the second more than 60 s, the last ones 26 s and 45 s.
func TestREPLLongInputsPiped(t *testing.T) {
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("a0 is not on PATH:", err)
	}
	var lets strings.Builder
	for i := 0; i < 10_000; i++ {
		lets.WriteString("let x" + strconv.Itoa(i) + " = " + strconv.Itoa(i) + "\n")
	}
	cases := []struct {
		name, in, out, stderr string
	}{
		{"open bracket, 3000 lines", "[\n" + strings.Repeat("1,\n", 3000) + "1]\n", "[" + strings.Repeat("1,", 3000) + "1]\n", ""},
		{"open string, 100000 lines", "let s = \"" + strings.Repeat("\n", 100_000) + "\"\n1\n", "1\n", "E_LEX"},
		{"10000 let lines", lets.String() + "x9999\n", "9999\n", ""},
		{"trailing operators, 3000 lines", "let x = 1 +\n" + strings.Repeat("1 +\n", 3000) + "1\nx\n", "3002\n", ""},
		{"blank lines after =, 100000 lines", "let x =\n" + strings.Repeat("\n", 100_000) + "1\nx\n", "1\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, "repl")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+dir)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() {
				io.WriteString(stdin, tc.in)
				stdin.Close()
			}()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("still running after 20 s")
			}
			// CPU time, not wall time: the machine may be busy.
			if cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(); cpu > 3*time.Second {
				t.Errorf("took %v of CPU time (%v in all)", cpu, time.Since(start))
			}
			if out.String() != tc.out {
				t.Errorf("stdout %.200q, want %.200q", out.String(), tc.out)
			}
			if tc.stderr == "" && errOut.Len() > 0 || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stderr %.300q, want %q", errOut.String(), tc.stderr)
			}
		})
	}
}
