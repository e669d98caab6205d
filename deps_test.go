// Package a0 holds no code: this file is the module's own test of how its
// packages may import each other.
package a0

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestImportDirections enforces the package layering: cmd → runtime/* →
// stdlib → lang/*; lang never imports runtime or stdlib; lang/diag imports
// nothing of the project; runtime does not import runtime/tools (hosts opt
// in); runtime/proc imports nothing of the project but its own internal
// packages; nothing imports cmd;
// participle stays in lang/lexer and lang/parser; terminal libraries stay
// in cmd.
func TestImportDirections(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "github.com/a0lang/a0/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/a0lang/a0/"
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		from := strings.TrimPrefix(p.ImportPath, mod)
		for _, imp := range p.Imports {
			to := strings.TrimPrefix(imp, mod)
			internal := imp != to
			bad := ""
			switch {
			case internal && strings.HasPrefix(to, "cmd/"):
				bad = "nothing may import cmd"
			case strings.HasPrefix(from, "lang/") && internal && !strings.HasPrefix(to, "lang/"):
				bad = "lang may only import lang"
			case from == "stdlib" && internal && !strings.HasPrefix(to, "lang/"):
				bad = "stdlib may only import lang"
			case from == "runtime" && to == "runtime/tools":
				bad = "runtime must not import runtime/tools (hosts opt in)"
			case from == "lang/diag" && internal:
				bad = "lang/diag must import nothing of the project"
			case strings.HasPrefix(from, "runtime/proc") && internal && !strings.HasPrefix(to, "runtime/proc/internal/") && to != "runtime/internal/testhook":
				bad = "runtime/proc must import nothing of the project (but its own internal packages and the leaf runtime/internal/testhook)"
			case from == "runtime/internal/testhook" && internal:
				bad = "runtime/internal/testhook must import nothing of the project"
			case strings.Contains(imp, "alecthomas/participle") && from != "lang/lexer" && from != "lang/parser":
				bad = "participle belongs to lang/lexer and lang/parser"
			case !strings.HasPrefix(from, "cmd/") && !strings.HasPrefix(from, "examples/") &&
				(strings.Contains(imp, "chzyer/readline") || strings.Contains(imp, "fatih/color")):
				bad = "terminal libraries belong to cmd"
			}
			if bad != "" {
				t.Errorf("%s imports %s: %s", from, to, bad)
			}
		}
	}
}

// TestCLIStartupDeps keeps out of the a0 binary the packages whose
// initialisation every a0 command paid for, whether it used them or not
// (issue 27): the MCP SDK (a0 speaks MCP through runtime/mcpwire, which
// uses nothing but the standard library) and the JSON Schema libraries
// (runtime/mcptool has its own validator). They stay test dependencies,
// the other end of the wire in the interop tests.
func TestCLIStartupDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/a0lang/a0/cmd/a0").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{
			"github.com/modelcontextprotocol/go-sdk",
			"github.com/google/jsonschema-go",
			"github.com/santhosh-tekuri/jsonschema",
			"golang.org/x/oauth2",
			"encoding/gob",
		} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("the a0 command links %s", pkg)
			}
		}
	}
	out, err = exec.Command("go", "list", "-deps", "github.com/a0lang/a0/runtime/mcpwire").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if first, _, _ := strings.Cut(pkg, "/"); strings.Contains(first, ".") && pkg != "github.com/a0lang/a0/runtime/mcpwire" {
			t.Errorf("runtime/mcpwire depends on %s: it is to use only the standard library", pkg)
		}
	}
}
