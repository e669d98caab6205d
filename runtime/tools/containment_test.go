package tools_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/tools"
)

// wantDenied checks that err is E_CAP_DENIED with the given reason.
func wantDenied(t *testing.T, v value.Value, err *runtime.Error, reason string) {
	t.Helper()
	if err == nil {
		t.Fatalf("not refused: returned %s", value.JSON(v))
	}
	if err.Code != "E_CAP_DENIED" {
		t.Fatalf("%s: %s, want E_CAP_DENIED", err.Code, err.Message)
	}
	if got := err.Details.AsRecord().GetOrNull("reason").AsString(); got != reason {
		t.Errorf("reason %q, want %q (%s)", got, reason, err.Message)
	}
}

// A symbolic link inside an fs root to a /proc magic link
// (/proc/self/fd/N: here a pipe holding a secret) does not reach what the
// link names, neither by reading, listing, testing nor writing; nor does
// naming the magic link directly when the whole file system is a root.
func TestFSMagicLinks(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc")
	}
	dir := realTemp(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.WriteString("PIPE-SECRET")
	w.Close()
	fdPath := "/proc/self/fd/" + strconv.Itoa(int(r.Fd()))
	os.MkdirAll(filepath.Join(dir, "data"), 0o755)
	for name, target := range map[string]string{
		"in":      fdPath,
		"stdin":   "/proc/self/fd/0",
		"fds":     "/proc/self/fd",
		"rel":     strings.Repeat("../", strings.Count(dir, "/")+1) + fdPath[1:],
		"cwdlink": "/proc/self/cwd",
	} {
		if err := os.Symlink(target, filepath.Join(dir, "data", name)); err != nil {
			t.Fatal(err)
		}
	}
	scoped := tools.Config{FS: tools.FSScope{Read: []string{filepath.Join(dir, "data")}, Write: []string{filepath.Join(dir, "data")}}}
	all := tools.Config{FS: tools.FSScope{Read: tools.AllFiles, Write: tools.AllFiles}}
	tests := []struct {
		name   string
		cfg    tools.Config
		src    string
		reason string
	}{
		{"read fd link", scoped, `return call? fs.read { path: "data/in" }`, "outside_root"},
		{"read stdin link", scoped, `return call? fs.read { path: "data/stdin" }`, "outside_root"},
		{"read relative link to proc", scoped, `return call? fs.read { path: "data/rel" }`, "outside_root"},
		{"read through cwd link", scoped, `return call? fs.read { path: "data/cwdlink/data/../secret" }`, "outside_root"},
		{"list fd dir link", scoped, `return call? fs.list { path: "data/fds" }`, "outside_root"},
		{"exists fd link", scoped, `return call? fs.exists { path: "data/in" }`, "outside_root"},
		{"write fd link", scoped, `return do fs.write { path: "data/in", data: "x" }`, "outside_root"},
		{"read magic link directly", all, `return call? fs.read { path: "` + fdPath + `" }`, "magic_link"},
		{"read dev stdin", all, `return call? fs.read { path: "/dev/stdin" }`, "magic_link"},
		{"read through proc root", all, `return call? fs.read { path: "/proc/self/root/etc/hostname" }`, "magic_link"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := runScoped(t, dir, tc.cfg, tc.src)
			wantDenied(t, v, err, tc.reason)
		})
	}
	// The pipe was not read, and the links are still links.
	buf := make([]byte, 32)
	if n, _ := r.Read(buf); string(buf[:n]) != "PIPE-SECRET" {
		t.Errorf("the pipe was read: %q left", buf[:n])
	}
	if st, err := os.Lstat(filepath.Join(dir, "data", "in")); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("data/in was replaced")
	}
	// procfs's ordinary links (self) still work with the whole file system.
	v, rerr := runScoped(t, dir, all, `return call? fs.read { path: "/proc/self/status" }`)
	if rerr != nil || !strings.Contains(v.AsString(), "Pid:") {
		t.Errorf("/proc/self/status: %v %v", value.JSON(v), rerr)
	}
}

// Symbolic links that stay inside the roots keep working, relative or
// absolute, to files and directories, for reads and writes; a link loop
// is an error, not a hang.
func TestFSLinksInsideRoots(t *testing.T) {
	dir := realTemp(t)
	data, other := filepath.Join(dir, "data"), filepath.Join(dir, "other")
	write(t, filepath.Join(data, "sub", "a.txt"), []byte("A"))
	write(t, filepath.Join(other, "b.txt"), []byte("B"))
	write(t, filepath.Join(dir, "secret.txt"), []byte("secret"))
	links := map[string]string{
		"data/rel.txt":     "sub/a.txt",
		"data/abs.txt":     filepath.Join(data, "sub", "a.txt"),
		"data/chain.txt":   "rel.txt",
		"data/subdir":      "sub",
		"data/absdir":      filepath.Join(data, "sub"),
		"data/toother":     filepath.Join(other, "b.txt"),
		"data/sub/up":      "..",
		"data/loop1":       "loop2",
		"data/loop2":       "loop1",
		"data/out.txt":     "sub/w.txt",
		"data/sub/esc.txt": "../../secret.txt",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := tools.Config{FS: tools.FSScope{Read: []string{data, other}, Write: []string{data}}}
	fdsBefore := openFDs()
	defer func() {
		if after := openFDs(); fdsBefore >= 0 && after > fdsBefore {
			t.Errorf("%d descriptors open after the calls, %d before", after, fdsBefore)
		}
	}()
	tests := []struct{ name, src, want, code string }{
		{"relative", `return call? fs.read { path: "data/rel.txt" }`, `"A"`, ""},
		{"absolute inside", `return call? fs.read { path: "data/abs.txt" }`, `"A"`, ""},
		{"chain", `return call? fs.read { path: "data/chain.txt" }`, `"A"`, ""},
		{"dir link", `return call? fs.read { path: "data/subdir/a.txt" }`, `"A"`, ""},
		{"absolute dir link", `return call? fs.read { path: "data/absdir/a.txt" }`, `"A"`, ""},
		{"into another root", `return call? fs.read { path: "data/toother" }`, `"B"`, ""},
		{"dotdot after link", `return call? fs.read { path: "data/sub/up/rel.txt" }`, `"A"`, ""},
		{"list through link", `return call? fs.list { path: "data/subdir" }`, `[{"name":"a.txt","type":"file"},{"name":"esc.txt","type":"other"},{"name":"up","type":"other"}]`, ""},
		{"exists through link", `return call? fs.exists { path: "data/absdir/a.txt" }`, `true`, ""},
		{"missing", `return call? fs.exists { path: "data/sub/none" }`, `false`, ""},
		{"write through link", "do fs.write { path: \"data/out.txt\", data: \"W\" } -> w\nreturn call? fs.read { path: \"data/sub/w.txt\" }", `"W"`, ""},
		{"escape", `return call? fs.read { path: "data/sub/esc.txt" }`, "", "E_CAP_DENIED"},
		{"loop", `return call? fs.read { path: "data/loop1" }`, "", "E_TOOL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := runScoped(t, dir, cfg, tc.src)
			if tc.code != "" {
				if err == nil || string(err.Code) != tc.code {
					t.Fatalf("got %s %v, want %s", value.JSON(v), err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %s", err.Code, err.Message)
			}
			if got := value.JSON(v); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	if st, err := os.Lstat(filepath.Join(data, "out.txt")); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link written through was replaced")
	}
}

// A directory inside the root swapped for a symbolic link to the outside
// while fs.read runs never yields the outside file: the file is opened
// relative to descriptors, not checked first and opened by name after.
func TestFSSwapRace(t *testing.T) {
	dir := realTemp(t)
	data := filepath.Join(dir, "data")
	write(t, filepath.Join(data, "sub", "f.txt"), []byte("inside"))
	write(t, filepath.Join(dir, "outside", "f.txt"), []byte("SECRET"))
	cfg := tools.Config{FS: tools.FSScope{Read: []string{data}}}
	env, err := runtime.NewEnv(runtime.WithTools(tools.New(cfg)...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("t.a0", "cap { fs.read: true }\ncall? fs.read { path: \"data/sub/f.txt\" } -> v\nreturn v")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sub, moved, link := filepath.Join(data, "sub"), filepath.Join(data, "sub.real"), filepath.Join(dir, "outside")
		for !stop.Load() {
			os.Rename(sub, moved)
			os.Symlink(link, sub)
			goruntime.Gosched()
			os.Remove(sub)
			os.Rename(moved, sub)
		}
	}()
	deadline := time.Now().Add(1500 * time.Millisecond)
	reads := 0
	for time.Now().Before(deadline) {
		res, _ := prog.Run(context.Background(), runtime.RunOptions{})
		reads++
		if res.Value.AsString() == "SECRET" {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("read the outside file after %d reads", reads)
		}
	}
	stop.Store(true)
	wg.Wait()
}

// loadPolicy parses a policy file's text as the project policy of dir.
func loadPolicy(t *testing.T, dir, text string) *policy.Resolved {
	t.Helper()
	path := filepath.Join(dir, ".a0policy.json")
	p, err := policy.Parse(path, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return &policy.Resolved{Source: policy.SourceProject, Path: path, Policy: p}
}

// With http.get granted and no http section, private, loopback and
// link-local addresses are refused (a real loopback server is not
// reached); allowPrivate lets them through.
func TestHTTPNoSectionRefusesPrivate(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("internal"))
	}))
	defer srv.Close()
	dir := realTemp(t)
	noSection := tools.FromPolicy(loadPolicy(t, dir, `{"version":1,"allow":["http.get"]}`), dir)
	for _, u := range []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1),
		"http://169.254.169.254/latest/meta-data/", "http://[::1]:1/", "http://10.0.0.1:1/", "http://0.0.0.0:1/",
		"http://[::ffff:127.0.0.1]:1/", "http://192.168.0.1:1/", "http://[fe80::1]:1/",
		"http://100.100.100.200:1/", "http://[64:ff9b::a9fe:a9fe]:1/", "http://[2002:7f00:1::]:1/",
		"http://255.255.255.255:1/", "http://[fd00::1]:1/"} {
		t.Run(u, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			v, err := runUnder(t, ctx, dir, noSection, `return call? http.get { url: "`+u+`" }`)
			wantDenied(t, v, err, "private_address")
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
	allowed := tools.FromPolicy(loadPolicy(t, dir, `{"version":1,"allow":["http.get"],"http":{"allowPrivate":true}}`), dir)
	v, err := runScoped(t, dir, allowed, `call? http.get { url: "`+srv.URL+`" } -> r`+"\nreturn r.body")
	if err != nil || v.AsString() != "internal" {
		t.Errorf("allowPrivate: %s %v", value.JSON(v), err)
	}
}

// runUnder is runScoped under ctx.
func runUnder(t *testing.T, ctx context.Context, dir string, cfg tools.Config, src string) (value.Value, *runtime.Error) {
	t.Helper()
	env, err := runtime.NewEnv(runtime.WithTools(tools.New(cfg)...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := env.Compile("t.a0", "cap { fs.read: true, fs.write: true, http.get: true }\n"+src+"\n")
	if len(ds) > 0 {
		t.Fatalf("static: %v", ds)
	}
	res, rerr := prog.Run(ctx, runtime.RunOptions{})
	if rerr != nil {
		return value.Value{}, rerr.(*runtime.Error)
	}
	return res.Value, nil
}

// The tools built without configuration (the zero Config, Standard) are
// safe even with every capability granted: no file is reachable, private
// addresses are refused, and host values cannot widen them.
func TestZeroConfigIsSafe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) }))
	defer srv.Close()
	dir := realTemp(t)
	write(t, filepath.Join(dir, "a.txt"), []byte("A"))
	env, err := runtime.NewEnv(runtime.WithTools(tools.Standard()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	// What earlier versions read as scopes: a missing or odd entry must not
	// mean "unrestricted".
	vals := map[string]any{"a0.fs": "anything", "a0.http": nil}
	for _, tc := range []struct{ src, reason string }{
		{`return call? fs.read { path: "a.txt" }`, "outside_root"},
		{`return call? fs.exists { path: "a.txt" }`, "outside_root"},
		{`return call? fs.list { path: "." }`, "outside_root"},
		{`return do fs.write { path: "b.txt", data: "B" }`, "outside_root"},
		{`return call? http.get { url: "` + srv.URL + `" }`, "private_address"},
	} {
		prog, ds := env.Compile("t.a0", "cap { fs.read: true, fs.write: true, http.get: true }\n"+tc.src)
		if len(ds) > 0 {
			t.Fatal(ds)
		}
		for _, opts := range []runtime.RunOptions{{}, {Values: vals}} {
			res, rerr := prog.Run(context.Background(), opts)
			var re *runtime.Error
			if rerr != nil {
				re = rerr.(*runtime.Error)
			}
			wantDenied(t, res.Value, re, tc.reason)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Errorf("b.txt was written")
	}
}

// FromPolicy turns each policy section into the tools' configuration.
func TestFromPolicy(t *testing.T) {
	dir := realTemp(t)
	tests := []struct {
		name, policy string
		allowAll     bool
		read, write  []string
		http         tools.HTTPScope
	}{
		{"no sections", `{"version":1,"allow":["fs.read"]}`, false, tools.AllFiles, tools.AllFiles, tools.HTTPScope{}},
		{"fs read only", `{"version":1,"allow":["fs.read"],"fs":{"read":["data"]}}`, false, []string{filepath.Join(dir, "data")}, tools.AllFiles, tools.HTTPScope{}},
		{"fs empty", `{"version":1,"allow":["fs.read"],"fs":{"read":[],"write":[]}}`, false, []string{}, []string{}, tools.HTTPScope{}},
		{"http", `{"version":1,"allow":["http.get"],"http":{"allow":["example.com"],"timeoutMs":5,"maxResponseBytes":9}}`, false, tools.AllFiles, tools.AllFiles,
			tools.HTTPScope{Allow: []string{"example.com"}, Timeout: 5 * time.Millisecond, MaxResponseBytes: 9}},
		{"allow all", `{"version":1,"allow":[],"fs":{"read":["data"]},"http":{"allow":["example.com"]}}`, true, tools.AllFiles, tools.AllFiles, tools.HTTPScope{AllowPrivate: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := loadPolicy(t, dir, tc.policy)
			if tc.allowAll {
				res = res.AllowAll()
			}
			cfg := tools.FromPolicy(res, dir)
			if strings.Join(cfg.FS.Read, ",") != strings.Join(tc.read, ",") || (cfg.FS.Read == nil) != (tc.read == nil) {
				t.Errorf("read roots %q, want %q", cfg.FS.Read, tc.read)
			}
			if strings.Join(cfg.FS.Write, ",") != strings.Join(tc.write, ",") {
				t.Errorf("write roots %q, want %q", cfg.FS.Write, tc.write)
			}
			h := cfg.HTTP
			if strings.Join(h.Allow, ",") != strings.Join(tc.http.Allow, ",") || h.AllowPrivate != tc.http.AllowPrivate ||
				h.Timeout != tc.http.Timeout || h.MaxResponseBytes != tc.http.MaxResponseBytes {
				t.Errorf("http %+v, want %+v", h, tc.http)
			}
			if cfg.Exec == nil || cfg.Exec.WorkDir != dir {
				t.Errorf("exec config %+v", cfg.Exec)
			}
		})
	}
}

// A root may name a file: that file is reachable, nothing below or beside
// it is.
func TestFSFileRoot(t *testing.T) {
	dir := realTemp(t)
	write(t, filepath.Join(dir, "conf.json"), []byte(`{"a":1}`))
	write(t, filepath.Join(dir, "other.json"), []byte(`{}`))
	cfg := tools.Config{FS: tools.FSScope{Read: []string{filepath.Join(dir, "conf.json")}, Write: []string{filepath.Join(dir, "conf.json")}}}
	v, err := runScoped(t, dir, cfg, `return call? fs.read { path: "conf.json" }`)
	if err != nil || v.AsString() != `{"a":1}` {
		t.Fatalf("read: %s %v", value.JSON(v), err)
	}
	v, err = runScoped(t, dir, cfg, "do fs.write { path: \"conf.json\", data: \"{}\" } -> w\nreturn call? fs.exists { path: \"conf.json\" }")
	if err != nil || value.JSON(v) != "true" {
		t.Fatalf("write: %s %v", value.JSON(v), err)
	}
	v, err = runScoped(t, dir, cfg, `return call? fs.read { path: "other.json" }`)
	wantDenied(t, v, err, "outside_root")
}

// openFDs counts this process's open descriptors (-1 without /proc).
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// TestHTTPHostHeaderInScope: a Host header names the site a shared server
// (a CDN, a proxy) answers for, so it passes the policy's http section as
// the URL's host does: a program cannot reach a denied site, or one the
// allow list leaves out, through the address of an allowed host.
func TestHTTPHostHeaderInScope(t *testing.T) {
	hosts := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hosts <- r.Host
	}))
	defer srv.Close()
	dir := realTemp(t)
	cfg := tools.FromPolicy(loadPolicy(t, dir, `{"version":1,"allow":["http.get"],"http":{"allowPrivate":true,"allow":["127.0.0.1","ok.test"],"deny":["evil.test"]}}`), dir)
	for host, reason := range map[string]string{"evil.test": "host_denied", "EVIL.test:443": "host_denied", "other.test": "host_not_allowed"} {
		v, err := runScoped(t, dir, cfg, `return call? http.get { url: "`+srv.URL+`", headers: { Host: "`+host+`" } }`)
		wantDenied(t, v, err, reason)
	}
	if _, err := runScoped(t, dir, cfg, `return call? http.get { url: "`+srv.URL+`", headers: { Host: "ok.test" } }`); err != nil {
		t.Fatalf("an allowed Host header: %v", err)
	}
	close(hosts)
	var got []string
	for h := range hosts {
		got = append(got, h)
	}
	if len(got) != 1 || got[0] != "ok.test" {
		t.Errorf("requests reached the server with Host %q, want only ok.test", got)
	}
}
