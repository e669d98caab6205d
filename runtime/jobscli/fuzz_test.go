package jobscli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzJobsArgsAndEnvFile: `a0 jobs` reads its command line and the
// --env-file a job starts with (a file another program may have
// written). For any arguments parseJobsArgs never panics and a refusal
// says what is wrong; for any file content readEnvFile never panics and
// every pair it returns has a name (trimmed, without '='). Seeds are
// command lines and env files as a user writes them.
func FuzzJobsArgsAndEnvFile(f *testing.F) {
	f.Add("run\x00--tag\x00build\x00--timeout-ms=5000\x00--\x00make\x00-j4", "# build\nexport GOFLAGS=-mod=mod\nTOKEN=\"abc def\"\nEMPTY=\n")
	f.Add("--root\x00/tmp/s\x00kill\x00j_0123456789abcdef\x00--signal\x00KILL\x00--grace\x00100", "A='x'\n  B = y  \n")
	f.Add("tail\x00j_0123456789abcdef\x00--tail-lines\x0010\x00--max-bytes=99", "not a pair\n")
	f.Add("notify\x00set\x00j_0123456789abcdef\x00--on-output\x00ready", "=x\n\"\n'\n")
	f.Add("lst\x00--bogus", "export \nX=\"\n")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, argLine, envFile string) {
		var args []string
		if argLine != "" {
			args = strings.Split(argLine, "\x00")
		}
		a, e := parseJobsArgs(args)
		if a == nil {
			t.Fatal("parseJobsArgs returned nothing")
		}
		if e != nil && (e.msg == "" || e.code == "") {
			t.Fatalf("usage error without a message: %+v", e)
		}
		if e == nil {
			for name := range a.vals {
				_, _ = a.intFlag(name, 0, 0, 1000)
			}
		}
		p := filepath.Join(dir, "env")
		if err := os.WriteFile(p, []byte(envFile), 0o600); err != nil {
			t.Fatal(err)
		}
		pairs, err := readEnvFile(p)
		if err != nil {
			return
		}
		for _, kv := range pairs {
			if kv[0] == "" || kv[0] != strings.TrimSpace(kv[0]) || strings.Contains(kv[0], "=") {
				t.Fatalf("env file %q gave the name %q", envFile, kv[0])
			}
		}
	})
}
