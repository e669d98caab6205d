package runtime_test

import (
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/tools"
)

// namedTool is a host tool whose name, capability and mode a test picks.
type namedTool struct {
	name, capID string
	mode        runtime.Mode
}

func (n namedTool) Name() string            { return n.name }
func (n namedTool) Capability() string      { return n.capID }
func (n namedTool) Mode() runtime.Mode      { return n.mode }
func (n namedTool) Params() []runtime.Param { return nil }
func (n namedTool) Call(*runtime.Call) (value.Value, error) {
	return value.Str(n.name), nil
}

// TestEnvToolSet covers the tool set of an Env (spec/embedding.md §3):
// Tools lists what WithTools registered, in order, with the mode and
// capability each declared; the list is the caller's copy; one name
// registered twice is an error of NewEnv rather than a silent
// replacement (a host tool must not shadow a built-in one unnoticed);
// and a name nobody registered is unknown to the checker.
func TestEnvToolSet(t *testing.T) {
	lamp := namedTool{"lamp.on", "lamp", runtime.ModeEffect}
	probe := namedTool{"lamp.state", "lamp", runtime.ModeRead}

	env, err := runtime.NewEnv(runtime.WithTools(lamp, probe))
	if err != nil {
		t.Fatal(err)
	}
	got := env.Tools()
	if len(got) != 2 || got[0].Name() != "lamp.on" || got[1].Name() != "lamp.state" {
		t.Fatalf("Tools() = %v, want lamp.on, lamp.state", got)
	}
	if got[0].Mode() != runtime.ModeEffect || got[1].Mode() != runtime.ModeRead || got[1].Capability() != "lamp" {
		t.Errorf("modes/capability: %v %v %q", got[0].Mode(), got[1].Mode(), got[1].Capability())
	}

	// Changing the returned list changes nothing in the Env.
	got[0] = namedTool{"lamp.off", "lamp", runtime.ModeEffect}
	_ = append(got[:1], namedTool{"extra.one", "extra", runtime.ModeRead})
	again := env.Tools()
	if len(again) != 2 || again[0].Name() != "lamp.on" || again[1].Name() != "lamp.state" {
		t.Errorf("Tools() after the caller changed its copy = %v", again)
	}

	// The built-in set: six file, web and shell tools among them, each
	// under its capability and mode.
	builtin, err := runtime.NewEnv(runtime.WithTools(tools.Standard()...))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]runtime.Tool{}
	for _, tl := range builtin.Tools() {
		have[tl.Name()] = tl
	}
	for _, w := range []struct {
		name, capID string
		mode        runtime.Mode
	}{
		{"fs.read", "fs.read", runtime.ModeRead},
		{"fs.list", "fs.read", runtime.ModeRead},
		{"fs.exists", "fs.read", runtime.ModeRead},
		{"fs.write", "fs.write", runtime.ModeEffect},
		{"http.get", "http.get", runtime.ModeRead},
		{"sh.exec", "sh.exec", runtime.ModeEffect},
	} {
		tl, ok := have[w.name]
		if !ok {
			t.Errorf("tools.Standard() has no %s", w.name)
			continue
		}
		if tl.Capability() != w.capID || tl.Mode() != w.mode {
			t.Errorf("%s: capability %q mode %v, want %q %v", w.name, tl.Capability(), tl.Mode(), w.capID, w.mode)
		}
	}

	// The same name twice, in one WithTools or across two.
	for _, opts := range [][]runtime.Option{
		{runtime.WithTools(lamp, namedTool{"lamp.on", "lamp", runtime.ModeRead})},
		{runtime.WithTools(lamp), runtime.WithTools(lamp)},
		{runtime.WithTools(tools.Standard()...), runtime.WithTools(namedTool{"fs.read", "fs.read", runtime.ModeRead})},
	} {
		if _, err := runtime.NewEnv(opts...); err == nil || !strings.Contains(err.Error(), "registered twice") {
			t.Errorf("a name registered twice: err = %v", err)
		}
	}

	// A tool the Env does not have.
	_, ds := env.Compile("t.a0", "cap { lamp: true }\nlet s = call? lamp.color {}\nreturn { s: s }\n")
	if len(ds) == 0 || ds[0].Code != diag.EUnknownTool {
		t.Errorf("unregistered tool: %v", ds)
	}
}
