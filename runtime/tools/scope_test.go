package tools_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/tools"
)

// runScoped runs src with the tools built from cfg and everything granted.
func runScoped(t *testing.T, dir string, cfg tools.Config, src string) (value.Value, *runtime.Error) {
	t.Helper()
	env, err := runtime.NewEnv(runtime.WithTools(tools.New(cfg)...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("t.a0", "cap { fs.read: true, fs.write: true, http.get: true }\n"+src+"\n")
	if len(ds) > 0 {
		t.Fatalf("static: %v", ds)
	}
	res, rerr := prog.Run(context.Background(), runtime.RunOptions{})
	if rerr != nil {
		return value.Value{}, rerr.(*runtime.Error)
	}
	return res.Value, nil
}

func TestFSScope(t *testing.T) {
	dir := realTemp(t)
	write(t, filepath.Join(dir, "data", "a.txt"), []byte("ok"))
	write(t, filepath.Join(dir, "secret.txt"), []byte("secret"))
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "data", "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "data", "up")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	scope := tools.Config{FS: tools.FSScope{
		Read:  []string{filepath.Join(dir, "data")},
		Write: []string{filepath.Join(dir, "out")},
	}}
	tests := []struct {
		name, src, code, path string
	}{
		{"inside", `return call? fs.read { path: "data/a.txt" }`, "", ""},
		{"dotdot", `return call? fs.read { path: "data/../secret.txt" }`, "E_CAP_DENIED", "secret.txt"},
		{"symlink file", `return call? fs.read { path: "data/link.txt" }`, "E_CAP_DENIED", "data/link.txt"},
		{"symlink dir", `return call? fs.read { path: "data/up/secret.txt" }`, "E_CAP_DENIED", "data/up/secret.txt"},
		{"absolute", `return call? fs.read { path: "/etc/hostname" }`, "E_CAP_DENIED", "/etc/hostname"},
		{"list outside", `return call? fs.list { path: "." }`, "E_CAP_DENIED", ""},
		{"exists outside", `return call? fs.exists { path: "secret.txt" }`, "E_CAP_DENIED", "secret.txt"},
		{"write inside", "do fs.write { path: \"out/new/x.txt\", data: \"1\" } -> w\nreturn w.bytes", "", ""},
		{"write outside", `return do fs.write { path: "data/x.txt", data: "1" }`, "E_CAP_DENIED", "data/x.txt"},
		{"write through symlink", `return do fs.write { path: "out/../data/up/evil.txt", data: "1" }`, "E_CAP_DENIED", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := runScoped(t, dir, scope, tc.src)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("unexpected %s: %s", err.Code, err.Message)
				}
				return
			}
			if err == nil || string(err.Code) != tc.code {
				t.Fatalf("got %v %v, want %s", value.JSON(v), err, tc.code)
			}
			d := err.Details.AsRecord()
			if d.GetOrNull("reason").AsString() != "outside_root" || !strings.HasPrefix(d.GetOrNull("capability").AsString(), "fs.") {
				t.Errorf("details %s", value.JSON(err.Details))
			}
			if tc.path != "" && !strings.HasSuffix(d.GetOrNull("path").AsString(), tc.path) {
				t.Errorf("path %s", d.GetOrNull("path").AsString())
			}
			if !strings.Contains(err.Message, "fs section") {
				t.Errorf("message does not name the policy field: %s", err.Message)
			}
		})
	}
	for _, bad := range []string{"data/x.txt", "evil.txt"} {
		if _, err := os.Stat(filepath.Join(dir, bad)); err == nil {
			t.Errorf("%s was written", bad)
		}
	}
}

func TestHTTPScope(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "http://localhost.invalid.example/", http.StatusFound)
			return
		}
		if r.URL.Path == "/big" {
			w.Write([]byte(strings.Repeat("x", 5000)))
			return
		}
		w.Write([]byte("hello"))
	}))
	defer srv.Close()
	dir := realTemp(t)
	with := func(s tools.HTTPScope) tools.Config { return tools.Config{HTTP: s} }
	tests := []struct {
		name   string
		scope  tools.HTTPScope
		url    string
		code   string
		reason string
	}{
		{"private refused", tools.HTTPScope{}, srv.URL, "E_CAP_DENIED", "private_address"},
		{"localhost name refused", tools.HTTPScope{}, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1), "E_CAP_DENIED", "private_address"},
		{"private allowed", tools.HTTPScope{AllowPrivate: true}, srv.URL, "", ""},
		{"not in allow list", tools.HTTPScope{AllowPrivate: true, Allow: []string{"*.example.com"}}, srv.URL, "E_CAP_DENIED", "host_not_allowed"},
		{"denied", tools.HTTPScope{AllowPrivate: true, Deny: []string{"127.0.0.1"}}, srv.URL, "E_CAP_DENIED", "host_denied"},
		{"redirect checked", tools.HTTPScope{AllowPrivate: true, Allow: []string{"127.0.0.1"}}, srv.URL + "/redirect", "E_CAP_DENIED", "host_not_allowed"},
		{"too large", tools.HTTPScope{AllowPrivate: true, MaxResponseBytes: 100}, srv.URL + "/big", "E_TOOL", ""},
		{"data url under allow list", tools.HTTPScope{Allow: []string{"example.com"}}, "data:,hi", "", ""},
		// Other spellings of a denied host are the host itself.
		{"denied, full-width", tools.HTTPScope{Deny: []string{"blocked.example"}}, "http://ＢＬＯＣＫＥＤ．example/", "E_CAP_DENIED", "host_denied"},
		{"denied, percent-encoded", tools.HTTPScope{Deny: []string{"blocked.example"}}, "http://bl%6Fcked.example/", "E_CAP_DENIED", "host_denied"},
		{"denied, short IPv4", tools.HTTPScope{AllowPrivate: true, Deny: []string{"127.0.0.1"}}, strings.Replace(srv.URL, "127.0.0.1", "127.1", 1), "E_CAP_DENIED", "host_denied"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runScoped(t, dir, with(tc.scope), `call? http.get { url: "`+tc.url+`" } -> r`+"\n"+`return r.status`)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("unexpected %s: %s", err.Code, err.Message)
				}
				return
			}
			if err == nil || string(err.Code) != tc.code {
				t.Fatalf("got %v, want %s", err, tc.code)
			}
			if tc.reason != "" {
				if r := err.Details.AsRecord().GetOrNull("reason").AsString(); r != tc.reason {
					t.Errorf("reason %s, want %s (%s)", r, tc.reason, err.Message)
				}
				// A refusal names the policy change that would allow it.
				if tc.code == "E_CAP_DENIED" && !strings.Contains(err.Hint, "http.") && !strings.Contains(err.Hint, `"http"`) {
					t.Errorf("hint %q names no http setting", err.Hint)
				}
			}
		})
	}
}

// The http.get calls of one scoped run share one client: later calls reuse
// the first call's connection instead of dialling again.
func TestHTTPScopeReusesConnections(t *testing.T) {
	var dials atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hello"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dials.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	vals := tools.Config{HTTP: tools.HTTPScope{AllowPrivate: true}}
	get := `call? http.get { url: "` + srv.URL + `" }`
	v, err := runScoped(t, realTemp(t), vals, `let a = `+get+`
let b = `+get+`
let c = `+get+`
return [a.status, b.status, c.status]`)
	if err != nil {
		t.Fatalf("%s: %s", err.Code, err.Message)
	}
	if got := value.JSON(v); got != "[200,200,200]" {
		t.Errorf("statuses %s", got)
	}
	if n := dials.Load(); n != 1 {
		t.Errorf("%d connections for 3 requests, want 1", n)
	}
}
