package main

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// The commands of mcp_check.txtar (the MCP schema cache).
func init() {
	// perm700 DIR: DIR's permissions are exactly 0700.
	scriptCmds["perm700"] = func(ts *testscript.TestScript, neg bool, args []string) {
		fi, err := os.Stat(ts.MkAbs(args[0]))
		ts.Check(err)
		if fi.Mode().Perm() != 0o700 {
			ts.Fatalf("%s has mode %o, want 700", args[0], fi.Mode().Perm())
		}
	}
	// mkfifo PATH: a named pipe no one writes.
	scriptCmds["mkfifo"] = func(ts *testscript.TestScript, neg bool, args []string) {
		ts.Check(mkfifoForScript(ts.MkAbs(args[0])))
	}
	// bigfile PATH N: a file of N bytes.
	scriptCmds["bigfile"] = func(ts *testscript.TestScript, neg bool, args []string) {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte("{"+strings.Repeat(" ", n-2)+"}"), 0o600))
	}
	// stale CACHE TOOL PROP: the cached input schema of the server tool
	// TOOL loses its property PROP, as if the server had changed.
	scriptCmds["stale"] = func(ts *testscript.TestScript, neg bool, args []string) {
		path := ts.MkAbs(args[0])
		b, err := os.ReadFile(path)
		ts.Check(err)
		var f map[string]any
		ts.Check(json.Unmarshal(b, &f))
		for _, s := range f["servers"].([]any) {
			for _, t := range s.(map[string]any)["tools"].([]any) {
				t := t.(map[string]any)
				if t["name"] == args[1] {
					delete(t["inputSchema"].(map[string]any)["properties"].(map[string]any), args[2])
				}
			}
		}
		b, err = json.Marshal(f)
		ts.Check(err)
		ts.Check(os.WriteFile(path, b, 0o600))
	}
}
