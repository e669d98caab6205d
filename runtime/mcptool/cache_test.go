package mcptool_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	a0 "github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcptool"
)

// cachedManager returns a manager of the test server that records to, and
// reads from, the schema cache in dir.
func cachedManager(t *testing.T, cfg mcptool.ServerConfig, dir string) *mcptool.Manager {
	t.Helper()
	m, err := mcptool.NewManager(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.SetSchemaCache(mcptool.NewSchemaCache(dir))
	t.Cleanup(m.Close)
	return m
}

// toolNamed returns the manager's tool name (nothing started).
func toolNamed(t *testing.T, m *mcptool.Manager, name string) *mcptool.Tool {
	t.Helper()
	for _, tool := range m.Tools([]string{name}) {
		if tool.Name() == name {
			return tool.(*mcptool.Tool)
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// TestSchemaCache: a listing is recorded; a new manager (a new a0
// process) knows the tools' modes and schemas from it without starting
// the server; another configuration of the server does not use it.
func TestSchemaCache(t *testing.T) {
	work, store := t.TempDir(), filepath.Join(t.TempDir(), "store")
	cfg := local(t, work)
	m := cachedManager(t, cfg, store)
	if _, err := m.List(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	m.Close()
	path := filepath.Join(store, mcptool.SchemaCacheFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "hunter2") || strings.Contains(string(b), cfg.Command[0]) {
		t.Errorf("the cache holds a secret or the command line: %s", b)
	}
	for _, p := range []string{store, path} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: %v %v, want private", p, fi.Mode(), err)
		}
	}
	if ents, _ := os.ReadDir(store); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}

	m2 := cachedManager(t, cfg, store)
	search := toolNamed(t, m2, "notes.search")
	in, out := search.StaticSchemas()
	if !strings.Contains(string(in), `"limit"`) || !strings.Contains(string(out), `"hits"`) {
		t.Errorf("schemas from the cache: %s %s", in, out)
	}
	if toolNamed(t, m2, "notes.add_note").Mode() != a0.ModeEffect || search.Mode() != a0.ModeRead {
		t.Error("modes are not the cached ones")
	}
	if names := m2.Tools(nil); len(names) < 10 {
		t.Errorf("a complete entry lists the server's tools: %d", len(names))
	}
	// The checker sees the cached schemas: a literal mistake is static.
	env, err := a0.NewEnv(a0.WithTools(m2.Tools(nil)...))
	if err != nil {
		t.Fatal(err)
	}
	_, ds := env.CompileWith("t.a0", "cap { notes.search: true }\nreturn call? notes.search { q: 1, limit: 0 }", a0.CompileOptions{ToolSchemas: true})
	if len(ds) != 2 || ds[0].Code != "E_TOOL_ARGS" || ds[1].Code != "E_TOOL_ARGS" {
		t.Errorf("static diagnostics: %s", ds.JSONArray())
	}
	if len(calls(work)) != 0 {
		t.Errorf("the server was called: %v", calls(work))
	}

	// Another command line (or executable) is another key.
	other := cfg
	other.Command = append(append([]string{}, cfg.Command...), "--other")
	m3 := cachedManager(t, other, store)
	if in, _ := toolNamed(t, m3, "notes.search").StaticSchemas(); in != nil {
		t.Errorf("another configuration used the entry: %s", in)
	}
}

// TestSchemaCacheHostile: a cache file that is a link, a FIFO, too large,
// not JSON, or in a folder others may write, reads as empty; a0 never
// blocks or follows the link, and the next write replaces the file.
func TestSchemaCacheHostile(t *testing.T) {
	work := t.TempDir()
	cfg := local(t, work)
	good := filepath.Join(t.TempDir(), "good")
	m := cachedManager(t, cfg, good)
	if _, err := m.List(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	m.Close()
	valid, err := os.ReadFile(filepath.Join(good, mcptool.SchemaCacheFile))
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "target.json")
	if err := os.WriteFile(target, valid, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		make func(path string) error
		mode os.FileMode
	}{
		{"symlink", func(p string) error { return os.Symlink(target, p) }, 0o700},
		{"fifo", func(p string) error { return mkfifo(p) }, 0o700},
		{"huge", func(p string) error { return os.WriteFile(p, append(valid, make([]byte, 5<<20)...), 0o600) }, 0o700},
		{"junk", func(p string) error { return os.WriteFile(p, []byte(`{"a0SchemaCache":1,"servers":[{"key":`), 0o600) }, 0o700},
		{"wrong format", func(p string) error {
			return os.WriteFile(p, []byte(strings.Replace(string(valid), `"a0SchemaCache":1`, `"a0SchemaCache":2`, 1)), 0o600)
		}, 0o700},
		{"folder others write", func(p string) error { return os.WriteFile(p, valid, 0o600) }, 0o777},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "store")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(filepath.Join(dir, mcptool.SchemaCacheFile)); err != nil {
				t.Fatal(err)
			}
			os.Chmod(dir, tc.mode)
			m := cachedManager(t, cfg, dir)
			if in, _ := toolNamed(t, m, "notes.search").StaticSchemas(); in != nil {
				t.Errorf("schemas read from a %s: %s", tc.name, in)
			}
			if tc.mode != 0o700 {
				return
			}
			if _, err := m.List(context.Background(), "notes"); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(filepath.Join(dir, mcptool.SchemaCacheFile))
			if err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("not replaced by a regular file: %v %v", fi, err)
			}
			if b, _ := os.ReadFile(target); string(b) != string(valid) {
				t.Error("the link's target was written")
			}
			var f map[string]any
			if b, _ := os.ReadFile(filepath.Join(dir, mcptool.SchemaCacheFile)); json.Unmarshal(b, &f) != nil {
				t.Errorf("rewritten file is not JSON: %s", b)
			}
		})
	}
}

// TestSchemaCacheParallelLists: servers listed at once (a session's
// start) all land in the file.
func TestSchemaCacheParallelLists(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	var cfgs []mcptool.ServerConfig
	for _, name := range []string{"notes", "more", "other"} {
		c := local(t, t.TempDir())
		c.Name = name
		cfgs = append(cfgs, c)
	}
	m, err := mcptool.NewManager(cfgs...)
	if err != nil {
		t.Fatal(err)
	}
	m.SetSchemaCache(mcptool.NewSchemaCache(store))
	defer m.Close()
	errs := make(chan error, len(cfgs))
	for _, c := range cfgs {
		go func() {
			_, err := m.List(context.Background(), c.Name)
			errs <- err
		}()
	}
	for range cfgs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(store, mcptool.SchemaCacheFile))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Servers []struct{ Server string } `json:"servers"`
	}
	if err := json.Unmarshal(b, &f); err != nil || len(f.Servers) != len(cfgs) {
		t.Errorf("%d entries, want %d (%v)", len(f.Servers), len(cfgs), err)
	}
}
