package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the extra commands of the CLI scripts.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// exitcode N cmd args...: run cmd and require exit code N.
	"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) < 2 {
			ts.Fatalf("usage: exitcode N command [args...]")
		}
		err := ts.Exec(args[1], args[2:]...)
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			ts.Fatalf("%v", err)
		}
		if strconv.Itoa(code) != args[0] {
			ts.Fatalf("exit code %d, want %s", code, args[0])
		}
	},
	// noservers: no mcptestserver process runs in the script's directory
	// (Linux; elsewhere it checks nothing).
	"noservers": func(ts *testscript.TestScript, neg bool, args []string) {
		ents, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		work := ts.Getenv("WORK")
		for _, e := range ents {
			if _, err := strconv.Atoi(e.Name()); err != nil {
				continue
			}
			dir := filepath.Join("/proc", e.Name())
			cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
			argv0, _, _ := strings.Cut(string(cmdline), "\x00")
			if filepath.Base(argv0) != "mcptestserver" {
				continue
			}
			stat, _ := os.ReadFile(filepath.Join(dir, "stat"))
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
				continue
			}
			if cwd, _ := os.Readlink(filepath.Join(dir, "cwd")); strings.HasPrefix(cwd, work) {
				ts.Fatalf("an MCP server outlived its run: pid %s", e.Name())
			}
		}
	},
}
