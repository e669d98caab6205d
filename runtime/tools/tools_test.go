package tools_test

import (
	"context"
	"encoding/base64"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/tools"
)

// result is the outcome of one program run.
type result struct {
	v   value.Value
	err *runtime.Error
	res *runtime.Result
	ev  []runtime.TraceEvent
}

// json is the compact JSON of the value, or "CODE message" of the error.
func (r result) json() string {
	if r.err != nil {
		return string(r.err.Code) + " " + r.err.Message
	}
	return value.JSON(r.v)
}

func (r result) details() string {
	if r.err == nil || r.err.Details.Kind() != value.RecordKind {
		return ""
	}
	return value.JSON(r.err.Details)
}

// field returns a key of the result record.
func (r result) field(t *testing.T, key string) value.Value {
	t.Helper()
	rec := r.v.AsRecord()
	if rec == nil {
		t.Fatalf("result is not a record: %s", r.json())
	}
	v, ok := rec.Get(key)
	if !ok {
		t.Fatalf("result has no %q: %s", key, r.json())
	}
	return v
}

type sink struct{ events []runtime.TraceEvent }

func (s *sink) Event(ev runtime.TraceEvent) error { s.events = append(s.events, ev); return nil }

// run compiles and runs src with every standard tool and capability, with
// dir as the working directory. The program may use every capability: the
// header is added here.
func run(t *testing.T, dir, src string) result {
	t.Helper()
	env, err := runtime.NewEnv(runtime.WithTools(openTools()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	full := "cap { fs.read: true, fs.write: true, http.get: true, sh.exec: true }\n" + src + "\n"
	prog, ds := env.Compile("t.a0", full)
	if len(ds) > 0 {
		t.Fatalf("static diagnostics: %v\n%s", ds, full)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := &sink{}
	res, rerr := prog.Run(ctx, runtime.RunOptions{Trace: s})
	out := result{res: res, ev: s.events}
	if rerr != nil {
		e, ok := rerr.(*runtime.Error)
		if !ok {
			t.Fatalf("non-A0 error %v", rerr)
		}
		out.err = e
		return out
	}
	out.v = res.Value
	return out
}

func q(s string) string { return value.JSON(value.Str(s)) }

func realTemp(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func expect(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("\ngot:  %s\nwant: %s", got, want)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

// ---------------------------------------------------------------- fs.read

func TestFSRead(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	write(t, filepath.Join(dir, "u.txt"), []byte("héllo\n"))
	write(t, filepath.Join(dir, "bad.bin"), []byte{0xFF, 0xFE, 0x41, 0xE2, 0x82})
	write(t, filepath.Join(dir, "bom.txt"), []byte("\xEF\xBB\xBFx"))
	write(t, filepath.Join(dir, "sub", "z.txt"), []byte("z"))
	r := run(t, dir, `
let a = call? fs.read { path: "u.txt" }
let b = call? fs.read { path: "bad.bin" }
let c = call? fs.read { path: "bom.txt" }
let d = call? fs.read { path: "u.txt", encoding: "utf8" }
let e = call? fs.read { path: "./sub/../sub/z.txt" }
return [a, b, c, d, e, len { in: c }]`)
	expect(t, r.json(), "[\"héllo\\n\",\"\ufffd\ufffdA\ufffd\",\"\ufeffx\",\"héllo\\n\",\"z\",2]")

	abs := filepath.Join(dir, "u.txt")
	r = run(t, t.TempDir(), `return call? fs.read { path: `+q(abs)+` }`)
	expect(t, r.json(), `"héllo\n"`)
}

func TestFSReadBase64(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	raw := []byte{0, 1, 2, 0xFF, 'a'}
	write(t, filepath.Join(dir, "b.bin"), raw)
	b64 := base64.StdEncoding.EncodeToString(raw)
	r := run(t, dir, `
let a = call? fs.read { path: "b.bin", encoding: "base64" }
let b = call? fs.read { path: "b.bin", encoding: "utf-8" }
let c = call? fs.read { path: "b.bin", encoding: "latin1" }
return [a, b, c]`)
	expect(t, r.json(), `["`+b64+`","`+b64+`","`+b64+`"]`)
}

func TestFSReadErrors(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, `return call? fs.read { path: "missing.txt" }`)
	expect(t, r.json(), "E_TOOL Tool 'fs.read' failed: ENOENT: no such file or directory, open '"+filepath.Join(dir, "missing.txt")+"'")
	expect(t, r.details(), `{"tool":"fs.read"}`)
	r = run(t, dir, `return call? fs.read { path: "d" }`)
	expect(t, r.json(), "E_TOOL Tool 'fs.read' failed: EISDIR: illegal operation on a directory, read")
	r = run(t, dir, `return call? fs.read { path: "" }`)
	expect(t, r.json(), "E_TOOL Tool 'fs.read' failed: EISDIR: illegal operation on a directory, read")
	r = run(t, dir, `return call? fs.read { path: "sub/../nope/x" }`)
	expect(t, r.json(), "E_TOOL Tool 'fs.read' failed: ENOENT: no such file or directory, open '"+filepath.Join(dir, "nope", "x")+"'")
}

// ---------------------------------------------------------------- fs.write

func TestFSWriteFormats(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	r := run(t, dir, `
do fs.write { path: "j.json", data: { a: [1, 2], b: {} }, format: "json" }
do fs.write { path: "s.txt", data: "line\n" }
do fs.write { path: "n.txt", data: null }
do fs.write { path: "f.txt", data: 1.5 }
do fs.write { path: "r.txt", data: { k: [1, 2] }, format: "text" }
do fs.write { path: "q.json", data: "x", format: "json" }
do fs.write { path: "l.txt", data: ["a", 1.0, true] }
return 0`)
	expect(t, r.json(), "0")
	want := map[string]string{
		"j.json": "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}",
		"s.txt":  "line\n",
		"n.txt":  "null",
		"f.txt":  "1.5",
		"r.txt":  `{"k":[1,2]}`,
		"q.json": `"x"`,
		"l.txt":  `["a",1,true]`,
	}
	for name, w := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if string(b) != w {
			t.Errorf("%s: got %q, want %q", name, b, w)
		}
	}
}

func TestFSWriteResult(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	r := run(t, dir, `do fs.write { path: "./x/../hello.txt", data: "hello" } -> w
return w`)
	expect(t, r.json(), `{"kind":"file","path":`+q(filepath.Join(dir, "hello.txt"))+`,"bytes":5,"sha256":"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"}`)
	r = run(t, dir, `do fs.write { path: "u.txt", data: "é😀" } -> w
return w.bytes`)
	expect(t, r.json(), "6")
}

func TestFSWriteCreatesParentsAndLeavesNoTempFiles(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	write(t, filepath.Join(dir, "keep", "old.txt"), []byte("old content that is longer"))
	r := run(t, dir, `
do fs.write { path: "a/b/c/deep.txt", data: "d" }
do fs.write { path: "keep/old.txt", data: "new" }
do fs.write { path: "keep/old.txt", data: "newer" }
let e = try { do fs.write { path: "keep", data: "x" } return "no error" } catch { e } { return e.message }
return e`)
	expect(t, r.json(), q("Tool 'fs.write' failed: EISDIR: illegal operation on a directory, open '"+filepath.Join(dir, "keep")+"'"))
	got := strings.Join(dirNames(t, dir), " ")
	expect(t, got, "a a/b a/b/c a/b/c/deep.txt keep keep/old.txt")
	b, _ := os.ReadFile(filepath.Join(dir, "keep", "old.txt"))
	expect(t, string(b), "newer")
}

func TestFSWriteKeepsModeAndFollowsSymlink(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	target := filepath.Join(dir, "target.txt")
	write(t, target, []byte("old"))
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, `do fs.write { path: "link", data: "via link" } -> w
return w.bytes`)
	expect(t, r.json(), "8")
	b, _ := os.ReadFile(target)
	expect(t, string(b), "via link")
	st, err := os.Lstat(filepath.Join(dir, "link"))
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link was replaced: %v %v", st.Mode(), err)
	}
	st, _ = os.Stat(target)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	expect(t, strings.Join(dirNames(t, dir), " "), "link target.txt")
}

func TestFSWriteErrors(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	write(t, filepath.Join(dir, "afile"), []byte("f"))
	r := run(t, dir, `return do fs.write { path: "nodata.txt" }`)
	expect(t, r.json(), `E_TOOL Tool 'fs.write' failed: The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received undefined`)
	expect(t, r.details(), `{"tool":"fs.write"}`)
	if _, err := os.Stat(filepath.Join(dir, "nodata.txt")); err == nil {
		t.Error("file written without data")
	}
	r = run(t, dir, `return do fs.write { path: "afile/a/b/x.txt", data: "x" }`)
	expect(t, r.json(), "E_TOOL Tool 'fs.write' failed: ENOTDIR: not a directory, mkdir '"+filepath.Join(dir, "afile", "a", "b")+"'")
	expect(t, strings.Join(dirNames(t, dir), " "), "afile")
}

func TestFSWriteDirectChildOfFile(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	write(t, filepath.Join(dir, "afile"), []byte("f"))
	r := run(t, dir, `return do fs.write { path: "afile/x.txt", data: "x" }`)
	// spec/tools.md "fs.write": a direct child of a file fails at open, naming the target.
	expect(t, r.json(), "E_TOOL Tool 'fs.write' failed: ENOTDIR: not a directory, open '"+filepath.Join(dir, "afile", "x.txt")+"'")
}

func TestFSWriteBudgetRefusedLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	env, _ := runtime.NewEnv(runtime.WithTools(openTools()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	prog, ds := env.Compile("t.a0", `cap { fs.write: true }
budget { maxBytesWritten: 4 }
do fs.write { path: "sub/big.txt", data: "12345" }
return 1
`)
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	_, err := prog.Run(context.Background(), runtime.RunOptions{})
	e, ok := err.(*runtime.Error)
	if !ok || e.Code != "E_BUDGET" {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "big.txt")); err == nil {
		t.Error("over-budget write left a file")
	}
	for _, n := range dirNames(t, dir) {
		if strings.Contains(n, "big") {
			t.Errorf("leftover %s", n)
		}
	}
}

// ---------------------------------------------------------------- fs.list / fs.exists

func TestFSList(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	for _, n := range []string{".hid", "10", "9", "B", "Z", "_x", "a", "b", "é"} {
		write(t, filepath.Join(dir, n), []byte(n))
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "dlink")); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, `return call? fs.list { path: "." }`)
	var parts []string
	for _, e := range []struct{ n, t string }{
		{".hid", "file"}, {"10", "file"}, {"9", "file"}, {"B", "file"}, {"Z", "file"}, {"_x", "file"},
		{"a", "file"}, {"b", "file"}, {"dlink", "other"}, {"link", "other"}, {"sub", "directory"}, {"é", "file"},
	} {
		parts = append(parts, `{"name":`+q(e.n)+`,"type":"`+e.t+`"}`)
	}
	expect(t, r.json(), "["+strings.Join(parts, ",")+"]")

	r = run(t, dir, `return call? fs.list { path: "sub" }`)
	expect(t, r.json(), "[]")
	r = run(t, dir, `return call? fs.list { path: "nope" }`)
	expect(t, r.json(), "E_TOOL Tool 'fs.list' failed: ENOENT: no such file or directory, scandir '"+filepath.Join(dir, "nope")+"'")
	r = run(t, dir, `return call? fs.list { path: "a" }`)
	expect(t, r.json(), "E_TOOL Tool 'fs.list' failed: ENOTDIR: not a directory, scandir '"+filepath.Join(dir, "a")+"'")
}

func TestFSExists(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	write(t, filepath.Join(dir, "f"), []byte("x"))
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.Symlink("f", filepath.Join(dir, "good"))
	os.Symlink("missing", filepath.Join(dir, "broken"))
	r := run(t, dir, `
return [call? fs.exists { path: "f" }, call? fs.exists { path: "d" }, call? fs.exists { path: "good" }, call? fs.exists { path: "broken" }, call? fs.exists { path: "nope" }, do fs.exists { path: "" }]`)
	expect(t, r.json(), "[true,true,true,false,false,true]")
}

// ---------------------------------------------------------------- E_TOOL_ARGS

func TestToolArgsMessages(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cases := []struct{ call, want string }{
		{`call? fs.read { path: 5 }`, "fs.read': path: Expected string, received number"},
		{`call? fs.read { path: 5, encoding: 1 }`, "fs.read': path: Expected string, received number; encoding: Expected string, received number"},
		{`call? fs.read { encoding: 1 }`, "fs.read': path: fs.read requires a 'path' argument; encoding: Expected string, received number"},
		{`call? fs.read { path: null }`, "fs.read': path: Expected string, received null"},
		{`call? fs.read { path: "x", encoding: null }`, "fs.read': encoding: Expected string, received null"},
		{`do fs.write { path: [], data: 1 }`, "fs.write': path: Expected string, received array"},
		{`do fs.write { path: "x", format: true }`, "fs.write': format: Expected string, received boolean"},
		{`call? fs.list { path: {} }`, "fs.list': path: Expected string, received object"},
		{`call? fs.exists {}`, "fs.exists': path: fs.exists requires a 'path' argument"},
		{`call? http.get { url: 1 }`, "http.get': url: Expected string, received number"},
		{`call? http.get { url: "data:,x", headers: [] }`, "http.get': headers: Expected object, received array"},
		{`call? http.get { url: "data:,x", headers: { a: 1, b: "ok", c: null } }`, "http.get': headers.a: Expected string, received number; headers.c: Expected string, received null"},
		{`do sh.exec { cmd: "true", env: { A: true } }`, "sh.exec': env.A: Expected string, received boolean"},
		{`do sh.exec { cmd: "true", timeoutMs: "5" }`, "sh.exec': timeoutMs: Expected number, received string"},
	}
	for _, tc := range cases {
		r := run(t, dir, `return `+tc.call)
		expect(t, r.json(), "E_TOOL_ARGS Invalid arguments for tool '"+tc.want)
		tool := strings.SplitN(tc.want, "'", 2)[0]
		if !strings.HasPrefix(r.details(), `{"tool":"`+tool+`"`) {
			t.Errorf("%s: details %s", tc.call, r.details())
		}
		if r.err != nil && r.err.Span == nil {
			t.Errorf("%s: no span", tc.call)
		}
		for _, ev := range r.ev {
			if strings.HasPrefix(ev.Event, "tool_") {
				t.Errorf("%s: E_TOOL_ARGS emitted %s", tc.call, ev.Event)
			}
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("E_TOOL_ARGS calls wrote files: %v", entries)
	}
}

// TestToolArgsUnknownKeysRefused: the file tools name an unknown argument
// and the ones they take (spec/tools.md).
func TestToolArgsUnknownKeysRefused(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	r := run(t, dir, `return call? fs.exists { path: "x", whatever: [1, 2] }`)
	expect(t, r.json(), "E_TOOL_ARGS Invalid arguments for tool 'fs.exists': fs.exists takes { path }; got whatever.")
}

// ---------------------------------------------------------------- http.get

func TestHTTPGet(t *testing.T) {
	t.Parallel()
	seen := make(chan http.Header, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/r":
			http.Redirect(w, r, "/final", http.StatusFound)
			return
		case "/final":
			w.Write([]byte("final"))
			return
		case "/bad":
			w.Write([]byte{0xFF, 'o', 'k'})
			return
		}
		seen <- r.Header.Clone()
		h := w.Header()
		h.Add("X-Multi", "a")
		h.Add("X-Multi", "b")
		h.Add("Set-Cookie", "a=1")
		h.Add("Set-Cookie", "b=2")
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte("\ufeffbody\ufeff"))
	}))
	defer srv.Close()

	r := run(t, realTemp(t), `return call? http.get { url: `+q(srv.URL+"/x")+`, headers: { X_Test: "yes" } }`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	expect(t, value.JSON(r.field(t, "status")), "404")
	expect(t, value.JSON(r.field(t, "body")), `"body`+"\ufeff"+`"`)
	hs := r.field(t, "headers").AsRecord()
	keys := append([]string(nil), hs.Keys()...)
	if !sort.StringsAreSorted(keys) {
		t.Errorf("header names not sorted: %v", keys)
	}
	for _, k := range keys {
		if k != strings.ToLower(k) {
			t.Errorf("header name not lower-case: %s", k)
		}
	}
	expect(t, value.JSON(hs.GetOrNull("x-multi")), `"a, b"`)
	expect(t, value.JSON(hs.GetOrNull("set-cookie")), `"b=2"`)
	expect(t, value.JSON(hs.GetOrNull("content-type")), `"text/plain; charset=utf-8"`)
	if got := strings.Join(r.v.AsRecord().Keys(), ","); got != "status,headers,body" {
		t.Errorf("result keys %s", got)
	}
	req := <-seen
	expect(t, req.Get("X_Test"), "yes")
	expect(t, req.Get("Accept"), "*/*")
	expect(t, req.Get("User-Agent"), "node")
	expect(t, req.Get("Accept-Language"), "*")
	expect(t, req.Get("Accept-Encoding"), "gzip, deflate")
	expect(t, req.Get("Connection"), "keep-alive")

	r = run(t, realTemp(t), `return call? http.get { url: `+q(srv.URL+"/x")+`, headers: { accept: "text/plain" } }`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	req = <-seen
	expect(t, strings.Join(req.Values("Accept"), "|"), "text/plain")

	r = run(t, realTemp(t), `let a = call? http.get { url: `+q(srv.URL+"/r")+` }
let b = call? http.get { url: `+q(srv.URL+"/bad")+` }
return [a.status, a.body, b.body]`)
	expect(t, r.json(), "[200,\"final\",\"\ufffdok\"]")
}

func TestHTTPGetDataURLs(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	r := run(t, dir, `return call? http.get { url: "data:application/json,%7B%22ok%22%3Atrue%7D" }`)
	expect(t, r.json(), `{"status":200,"headers":{"content-type":"application/json"},"body":"{\"ok\":true}"}`)
	r = run(t, dir, `return call? http.get { url: "data:,hello%20world" }`)
	expect(t, r.json(), `{"status":200,"headers":{"content-type":"text/plain;charset=US-ASCII"},"body":"hello world"}`)
	r = run(t, dir, `return call? http.get { url: "data:text/plain;base64,aGVsbG8gYjY0" }`)
	expect(t, r.json(), `{"status":200,"headers":{"content-type":"text/plain"},"body":"hello b64"}`)
	r = run(t, dir, `return call? http.get { url: "data:;base64,77u/Ym9t" }`)
	expect(t, value.JSON(r.field(t, "body")), `"bom"`)
}

func TestHTTPGetErrors(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	r := run(t, dir, `return call? http.get { url: "not a url" }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: Failed to parse URL from not a url")
	expect(t, r.details(), `{"tool":"http.get"}`)
	r = run(t, dir, `return call? http.get { url: "ftp://example.invalid/x" }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: fetch failed")
	r = run(t, dir, `return call? http.get { url: "file:///etc/hostname" }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: fetch failed")
	r = run(t, dir, `return call? http.get { url: "data:no-comma" }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: fetch failed")

	// A port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r = run(t, dir, `return call? http.get { url: "http://`+addr+`/" }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: fetch failed")
}

// ---------------------------------------------------------------- sh.exec

func TestShExecBasics(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	r := run(t, dir, `do sh.exec { cmd: "echo hello" } -> a
do sh.exec { cmd: "echo out; echo err 1>&2; exit 3" } -> b
do sh.exec { cmd: "echo warn 1>&2" } -> c
do sh.exec { cmd: "no-such-command-a0test" } -> d
return [[a.exitCode, a.stdout, a.stderr], [b.exitCode, b.stdout, b.stderr], [c.exitCode, c.stdout, c.stderr], d.exitCode, d.stdout]`)
	expect(t, r.json(), `[[0,"hello\n",""],[3,"out\n","err\n"],[0,"","warn\n"],127,""]`)
}

func TestShExecResultShape(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `return do sh.exec { cmd: "printf x" }`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	keys := strings.Join(r.v.AsRecord().Keys(), ",")
	expect(t, keys, "exitCode,stdout,stderr,durationMs,signal,timedOut,killReason,stdoutTruncated,stderrTruncated,stdoutTotalBytes,stderrTotalBytes,outputIncomplete,leftoverKilled,timeoutMs,pid")
	expect(t, value.JSON(r.field(t, "signal")), "null")
	expect(t, value.JSON(r.field(t, "timedOut")), "false")
	expect(t, value.JSON(r.field(t, "killReason")), "null")
	expect(t, value.JSON(r.field(t, "stdoutTotalBytes")), "1")
	expect(t, value.JSON(r.field(t, "timeoutMs")), "30000")
	if r.v.AsRecord().Has("bytes") {
		t.Error("sh.exec result has a top-level bytes key")
	}
}

func TestShExecDoesNotChargeBytesWritten(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	env, _ := runtime.NewEnv(runtime.WithTools(openTools()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	prog, ds := env.Compile("t.a0", "cap { sh.exec: true }\nbudget { maxBytesWritten: 0 }\ndo sh.exec { cmd: \"echo 12345 > f.txt; cat f.txt\" } -> r\nreturn r.stdout\n")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	res, err := prog.Run(context.Background(), runtime.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, value.JSON(res.Value), `"12345\n"`)
}

func TestShExecEnvCwdArgvStdin(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	home := os.Getenv("HOME")
	r := run(t, dir, `do sh.exec { cmd: "printf '%s|%s' \"$A0_TEST_VAR\" \"$HOME\"", env: { A0_TEST_VAR: "v 1" } } -> env
do sh.exec { cmd: "pwd -P" } -> here
do sh.exec { cmd: "pwd -P", cwd: "sub" } -> sub
do sh.exec { argv: ["printf", "%s|", "a b", "c", "$HOME"] } -> argv
do sh.exec { argv: ["sh", "-c", "echo $0"] } -> zero
do sh.exec { cmd: "echo $0" } -> shzero
do sh.exec { cmd: "cat", stdin: "abc" } -> in
do sh.exec { cmd: "cat" } -> noin
do sh.exec { cmd: "cat", stdin: "aGk=", stdinEncoding: "base64" } -> b64
return [env.stdout, here.stdout, sub.stdout, argv.stdout, zero.stdout, shzero.stdout, in.stdout, noin.stdout, b64.stdout]`)
	want := []string{"v 1|" + home, dir + "\n", filepath.Join(dir, "sub") + "\n", "a b|c|$HOME|", "sh\n", "/bin/sh\n", "abc", "", "hi"}
	var parts []string
	for _, w := range want {
		parts = append(parts, q(w))
	}
	expect(t, r.json(), "["+strings.Join(parts, ",")+"]")
}

func TestShExecEnvModes(t *testing.T) {
	// Not parallel: it sets variables in the process environment.
	t.Setenv("A0TEST_INHERITED", "inh")
	t.Setenv("A0TEST_REMOVED", "rem")
	r := run(t, realTemp(t), `do sh.exec { argv: ["/usr/bin/env"], envMode: "replace", env: { ONLY: "1" } } -> rep
do sh.exec { argv: ["/usr/bin/env"], envMode: "clean" } -> clean
do sh.exec { cmd: "echo \"$A0TEST_INHERITED|$A0TEST_REMOVED|$A0TEST_SET\"", envRemove: ["A0TEST_REMOVED"], env: { A0TEST_SET: "s" } } -> inherit
do sh.exec { cmd: "echo $A0TEST_REMOVED", envRemove: ["A0TEST_REMOVED"], env: { A0TEST_REMOVED: "back" } } -> again
return [rep.stdout, clean.stdout, inherit.stdout, again.stdout]`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	items := r.v.AsList()
	envLines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
			if l != "" && !strings.HasPrefix(l, "A0_EXEC_ID=") {
				out = append(out, l)
			}
		}
		sort.Strings(out)
		return out
	}
	expect(t, strings.Join(envLines(items[0].AsString()), " "), "ONLY=1")
	clean := strings.Join(envLines(items[1].AsString()), "\n")
	if !strings.Contains(clean, "PATH=") || strings.Contains(clean, "A0TEST_INHERITED") {
		t.Errorf("clean env:\n%s", clean)
	}
	expect(t, items[2].AsString(), "inh||s\n")
	expect(t, items[3].AsString(), "back\n")
}

func TestShExecExecID(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `do sh.exec { cmd: "echo $A0_EXEC_ID", env: { A0_EXEC_ID: "mine" } } -> a
do sh.exec { cmd: "echo $A0_EXEC_ID" } -> b
return [a.stdout, b.stdout]`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	items := r.v.AsList()
	re := regexp.MustCompile(`^x_[0-9a-f]{16}\n$`)
	if !re.MatchString(items[0].AsString()) || !re.MatchString(items[1].AsString()) || items[0].AsString() == items[1].AsString() {
		t.Errorf("A0_EXEC_ID: %s", r.json())
	}
}

func TestShExecSignalExitCode(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `do sh.exec { cmd: "kill -9 $$" } -> a
return [a.exitCode, a.signal, a.timedOut]`)
	expect(t, r.json(), `[137,"SIGKILL",false]`)
}

func TestShExecTimeoutError(t *testing.T) {
	t.Parallel()
	start := time.Now()
	r := run(t, realTemp(t), `return do sh.exec { cmd: "echo partial; sleep 5", timeoutMs: 300 }`)
	if el := time.Since(start); el > 4*time.Second {
		t.Errorf("timeout took %v", el)
	}
	if r.err == nil || r.err.Code != "E_TOOL" || !strings.HasPrefix(r.err.Message, "Tool 'sh.exec' failed: ") {
		t.Fatalf("got %s", r.json())
	}
	d := r.err.Details.AsRecord()
	if d == nil {
		t.Fatal("no details")
	}
	expect(t, strings.Join(d.Keys(), ","), "tool,reason,timeoutMs,exitCode,signal,durationMs,stdout,stderr,stdoutTotalBytes,stderrTotalBytes,stdoutTruncated,stderrTruncated")
	expect(t, value.JSON(d.GetOrNull("tool")), `"sh.exec"`)
	expect(t, value.JSON(d.GetOrNull("reason")), `"timeout"`)
	expect(t, value.JSON(d.GetOrNull("timeoutMs")), "300")
	expect(t, value.JSON(d.GetOrNull("stdout")), `"partial\n"`)
	expect(t, value.JSON(d.GetOrNull("stdoutTotalBytes")), "8")
	// tool_end is an err with the sentence (no frame).
	for _, ev := range r.ev {
		if ev.Event == "tool_end" {
			rec := ev.Data.AsRecord()
			expect(t, value.JSON(rec.GetOrNull("outcome")), `"err"`)
			if msg := rec.GetOrNull("error").AsString(); strings.HasPrefix(msg, "Tool ") || msg == "" {
				t.Errorf("tool_end error %q", msg)
			}
		}
	}

	// try catches it, with the reason.
	r = run(t, realTemp(t), `let r = try { do sh.exec { cmd: "sleep 5", timeoutMs: 200 } -> x return x } catch { e } { return [e.code, e.details.reason] }
return r`)
	expect(t, r.json(), `["E_TOOL","timeout"]`)
}

func TestShExecTimeoutAsResult(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `do sh.exec { cmd: "echo partial; sleep 5", timeoutMs: 300, onTimeout: "result" } -> a
return [a.timedOut, a.killReason, a.exitCode, a.signal, a.stdout, a.timeoutMs]`)
	expect(t, r.json(), `[true,"timeout",143,"SIGTERM","partial\n",300]`)
	r = run(t, realTemp(t), `do sh.exec { cmd: "trap 'exit 0' TERM; sleep 5 & wait", timeoutMs: 300, onTimeout: "result" } -> a
return [a.timedOut, a.exitCode]`)
	expect(t, r.json(), `[true,0]`)
}

func TestShExecTruncation(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	gen := `head -c 1000 /dev/zero | tr '\\000' a`
	r := run(t, dir, `do sh.exec { cmd: "`+gen+`", maxOutputBytes: 100 } -> both
do sh.exec { cmd: "`+gen+`", maxOutputBytes: 100, truncate: "head" } -> head
do sh.exec { cmd: "`+gen+`", maxOutputBytes: 100, truncate: "tail" } -> tail
do sh.exec { cmd: "`+gen+`", maxOutputBytes: 0 } -> zero
do sh.exec { cmd: "`+gen+`", maxOutputBytes: 1000 } -> fits
return [both, head, tail, zero, fits]`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	a := func(n int) string { return strings.Repeat("a", n) }
	marker := "\n[a0: 900 bytes omitted]\n"
	items := r.v.AsList()
	want := []string{a(50) + marker + a(50), a(100) + marker, marker + a(100), "\n[a0: 1000 bytes omitted]\n", a(1000)}
	for i, it := range items {
		rec := it.AsRecord()
		expect(t, rec.GetOrNull("stdout").AsString(), want[i])
		expect(t, value.JSON(rec.GetOrNull("stdoutTotalBytes")), "1000")
		expect(t, value.JSON(rec.GetOrNull("stdoutTruncated")), value.JSON(value.BoolOf(i < 4)))
		expect(t, rec.GetOrNull("stderr").AsString(), "")
		expect(t, value.JSON(rec.GetOrNull("stderrTruncated")), "false")
	}
}

func TestShExecInvalidUTF8Output(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `do sh.exec { cmd: "printf 'a\\377b\\342\\202'" } -> bad
return [bad.stdout, bad.stdoutTotalBytes]`)
	expect(t, r.json(), "[\"a\ufffdb\ufffd\",5]")
}

func TestShExecTruncationKeepsCharactersWhole(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `do sh.exec { cmd: "printf 'ab\\303\\251'", maxOutputBytes: 3, truncate: "head" } -> h
return [h.stdout, h.stdoutTotalBytes, h.stdoutTruncated]`)
	expect(t, r.json(), `["ab\n[a0: 2 bytes omitted]\n",4,true]`)
	// 500 × "é" = 1000 bytes; a 101-byte head would split a character.
	r = run(t, realTemp(t), `do sh.exec { cmd: "i=0; while [ $i -lt 500 ]; do printf '\\303\\251'; i=$((i+1)); done", maxOutputBytes: 101, truncate: "head" } -> h
do sh.exec { cmd: "printf '\\303\\251\\303\\251'", maxOutputBytes: 3 } -> both
return [h.stdout, h.stdoutTotalBytes, both.stdout]`)
	expect(t, r.json(), `[`+q(strings.Repeat("é", 50)+"\n[a0: 900 bytes omitted]\n")+`,1000,`+q("\n[a0: 2 bytes omitted]\né")+`]`)
}

func TestShExecMerge(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `do sh.exec { cmd: "echo a; echo b 1>&2; echo c; echo d 1>&2", merge: true } -> m
return [m.stdout, m.stderr, m.stdoutTotalBytes, m.stderrTotalBytes]`)
	expect(t, r.json(), `["a\nb\nc\nd\n","",8,0]`)
}

func TestShExecStartFailures(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	r := run(t, dir, `return do sh.exec { argv: ["no-such-program-a0test"] }`)
	if r.err == nil || r.err.Code != "E_TOOL" {
		t.Fatalf("got %s", r.json())
	}
	expect(t, value.JSON(r.err.Details.AsRecord().GetOrNull("reason")), `"not_found"`)
	r = run(t, dir, `return do sh.exec { cmd: "true", cwd: "missing-dir" }`)
	if r.err == nil || r.err.Code != "E_TOOL" {
		t.Fatalf("got %s", r.json())
	}
	expect(t, value.JSON(r.err.Details.AsRecord().GetOrNull("reason")), `"cwd_not_found"`)
	write(t, filepath.Join(dir, "noexec.sh"), []byte("echo hi\n"))
	r = run(t, dir, `return do sh.exec { argv: ["./noexec.sh"] }`)
	if r.err == nil || r.err.Code != "E_TOOL" {
		t.Fatalf("got %s", r.json())
	}
	expect(t, value.JSON(r.err.Details.AsRecord().GetOrNull("reason")), `"permission_denied"`)
}

func TestShExecInvalidArgs(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	for _, args := range []string{
		`{ cmd: "true", argv: ["true"] }`,
		`{}`,
		`{ cmd: "" }`,
		`{ argv: [] }`,
		`{ argv: [""] }`,
		`{ cmd: "true", cwd: "" }`,
		`{ cmd: "true", timeoutMs: -1 }`,
		`{ cmd: "true", timeoutMs: 1.5 }`,
		`{ cmd: "true", onTimeout: "ignore" }`,
		`{ cmd: "true", truncate: "middle" }`,
		`{ cmd: "true", graceMs: 60001 }`,
		`{ cmd: "true", envMode: "weird" }`,
		`{ cmd: "true", env: parse.json { in: "{\"\":\"x\"}" } }`,
		`{ cmd: "true", env: parse.json { in: "{\"A=B\":\"x\"}" } }`,
	} {
		r := run(t, dir, `return do sh.exec `+args)
		if r.err == nil || r.err.Code != "E_TOOL_ARGS" || !strings.HasPrefix(r.err.Message, "Invalid arguments for tool 'sh.exec': ") {
			t.Errorf("%s: got %s", args, r.json())
		}
	}
}

func TestShExecInvalidArgsDetails(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `return do sh.exec { cmd: "true", timeoutMs: -1 }`)
	if r.err == nil {
		t.Fatal(r.json())
	}
	d := r.err.Details.AsRecord()
	// spec/exec.md §9: every engine error carries {tool, reason, …}; E_TOOL_ARGS
	// has reason invalid_args and names the argument in details.field.
	expect(t, value.JSON(d.GetOrNull("reason")), `"invalid_args"`)
	expect(t, value.JSON(d.GetOrNull("field")), `"timeoutMs"`)
}

func TestShExecMasksSecrets(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `do sh.exec { cmd: "echo $API_TOKEN", env: { API_TOKEN: "s3cr3t-value" } } -> a
return a.stdout`)
	expect(t, r.json(), `"[masked:API_TOKEN]\n"`)
	for _, ev := range r.ev {
		if strings.Contains(value.JSON(ev.Data), "s3cr3t-value") {
			t.Errorf("secret in trace event %s", ev.Event)
		}
	}
}

func TestShExecTraceArgs(t *testing.T) {
	t.Parallel()
	r := run(t, realTemp(t), `do sh.exec { cmd: "cat", stdin: "abcd" } -> a
return a.stdout`)
	expect(t, r.json(), `"abcd"`)
	for _, ev := range r.ev {
		if ev.Event == "tool_start" {
			d := ev.Data.AsRecord()
			expect(t, value.JSON(d.GetOrNull("mode")), `"effect"`)
			args := d.GetOrNull("args").AsRecord()
			expect(t, value.JSON(args.GetOrNull("stdin")), `"[stdin: 4 bytes]"`)
			if _, ok := d.Get("ignoredArgs"); ok {
				t.Errorf("ignoredArgs in %s", value.JSON(ev.Data))
			}
		}
	}
}

// TestShExecMisspeltArgRefused: `timeout_ms` (harn's spelling) for
// timeoutMs is E_TOOL_ARGS before the command starts; it used to run
// the command for its whole two seconds and show the key only as
// ignoredArgs in the trace.
func TestShExecMisspeltArgRefused(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	start := time.Now()
	r := run(t, dir, `do sh.exec { argv: ["sh", "-c", "sleep 2; echo ran > ran.txt"], timeout_ms: 300 } -> a
return a`)
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v: the command ran", el)
	}
	if r.err == nil || r.err.Code != "E_TOOL_ARGS" {
		t.Fatalf("got %s", r.json())
	}
	expect(t, r.err.Message, "Invalid arguments for tool 'sh.exec': sh.exec takes { cmd, argv, shell, cwd, timeoutMs, env, envMode, envRemove, mask, stdin, stdinEncoding, merge, maxOutputBytes, truncate, encoding, outputLimitBytes, graceMs, onTimeout, pty, cols, rows, login }; got timeout_ms.")
	expect(t, r.err.Hint, "Rename 'timeout_ms' to 'timeoutMs': sh.exec { argv: …, timeoutMs: … }.")
	d := r.err.Details.AsRecord()
	expect(t, value.JSON(d.GetOrNull("reason")), `"invalid_args"`)
	expect(t, value.JSON(d.GetOrNull("field")), `"timeout_ms"`)
	expect(t, value.JSON(d.GetOrNull("unknown")), `["timeout_ms"]`)
	for _, ev := range r.ev {
		if ev.Event == "tool_start" || ev.Event == "tool_end" {
			t.Errorf("%s traced: %s", ev.Event, value.JSON(ev.Data))
		}
	}
	time.Sleep(2200 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
		t.Error("the command ran")
	}
}

// TestUnknownArgEveryTool: every built-in tool refuses an argument name
// it does not take with E_TOOL_ARGS naming the key, the valid ones and
// the likely rename, before any of its own checks (a missing required
// argument too) and without counting the call.
func TestUnknownArgEveryTool(t *testing.T) {
	t.Parallel()
	tests := []struct{ call, field, takes, hint string }{
		{`do sh.exec { cmd: "true", timeout_ms: 5 }`, "timeout_ms", "sh.exec takes { cmd, argv, shell, cwd, timeoutMs, env, envMode, envRemove, mask, stdin, stdinEncoding, merge, maxOutputBytes, truncate, encoding, outputLimitBytes, graceMs, onTimeout, pty, cols, rows, login }; got timeout_ms.", "Rename 'timeout_ms' to 'timeoutMs': sh.exec { cmd: …, timeoutMs: … }."},
		{`do sh.exec { cmd: "true", max_output_bytes: 5 }`, "max_output_bytes", "", "Rename 'max_output_bytes' to 'maxOutputBytes': sh.exec { cmd: …, maxOutputBytes: … }."},
		{`do sh.start { cmd: "true", wait_ms: 5 }`, "wait_ms", "", "Rename 'wait_ms' to 'waitMs': sh.start { cmd: …, waitMs: … }."},
		{`call? sh.status { id: "j_0123456789abcdef", extra: 1 }`, "extra", "sh.status takes { id }; got extra.", "sh.status has no 'extra' argument: remove it and call sh.status { id: … } (see `a0 help tools` for what each argument does)."},
		{`call? sh.tail { id: "j_0123456789abcdef", line: 3 }`, "line", "sh.tail takes { id, stream, lines, maxBytes, offset }; got line.", "Rename 'line' to 'lines': sh.tail { id: …, stream: …, lines: …, maxBytes: …, offset: … }."},
		{`call? sh.wait { jobId: "j_0123456789abcdef" }`, "jobId", "sh.wait takes { id, timeoutMs, lines, maxBytes }; got jobId.", ""},
		{`do sh.kill { id: "j_0123456789abcdef", sig: "TERM" }`, "sig", "", ""},
		{`call? sh.jobs { status: "running" }`, "status", "sh.jobs takes { state, tag, scope, limit }; got status.", "Rename 'status' to 'state': sh.jobs { state: …, tag: …, scope: …, limit: … }."},
		{`call? fs.read { pth: "x" }`, "pth", "fs.read takes { path, encoding }; got pth.", "Rename 'pth' to 'path': fs.read { path: …, encoding: … }."},
		{`do fs.write { path: "x", content: "y" }`, "content", "", ""},
		{`call? fs.list { dir: "." }`, "dir", "", ""},
		{`call? fs.exists { path: ".", follow: true }`, "follow", "", ""},
		{`call? http.get { url: "data:,x", method: "GET" }`, "method", "", ""},
	}
	dir := realTemp(t)
	// The budget refuses any call that counts: a valid one is E_BUDGET.
	if r := run(t, dir, "budget { maxToolCalls: 0 }\nreturn call? fs.exists { path: \".\" }"); r.err == nil || r.err.Code != "E_BUDGET" {
		t.Fatalf("control: got %s", r.json())
	}
	for _, tc := range tests {
		r := run(t, dir, "budget { maxToolCalls: 0 }\nreturn "+tc.call)
		if r.err == nil || r.err.Code != "E_TOOL_ARGS" {
			t.Errorf("%s: got %s", tc.call, r.json())
			continue
		}
		d := r.err.Details.AsRecord()
		expect(t, value.JSON(d.GetOrNull("field")), `"`+tc.field+`"`)
		expect(t, value.JSON(d.GetOrNull("reason")), `"invalid_args"`)
		if tc.takes != "" {
			tool, _, _ := strings.Cut(tc.takes, " ")
			expect(t, r.err.Message, "Invalid arguments for tool '"+tool+"': "+tc.takes)
		}
		if tc.hint != "" {
			expect(t, r.err.Hint, tc.hint)
		}
		if len(r.ev) > 0 {
			for _, ev := range r.ev {
				if ev.Event == "tool_start" {
					t.Errorf("%s: traced", tc.call)
				}
			}
		}
	}
}

func TestShExecLeftoverKilled(t *testing.T) {
	t.Parallel()
	start := time.Now()
	r := run(t, realTemp(t), `do sh.exec { cmd: "sleep 30 & echo started" } -> a
return [a.stdout, a.leftoverKilled, a.exitCode]`)
	expect(t, r.json(), `["started\n",true,0]`)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %v", el)
	}
}

func TestShExecTimeBudget(t *testing.T) {
	t.Parallel()
	start := time.Now()
	dir := realTemp(t)
	env, _ := runtime.NewEnv(runtime.WithTools(openTools()...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	prog, ds := env.Compile("t.a0", "cap { sh.exec: true }\nbudget { timeMs: 400 }\ndo sh.exec { cmd: \"sleep 10\" } -> r\nreturn r\n")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	s := &sink{}
	_, err := prog.Run(context.Background(), runtime.RunOptions{Trace: s})
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %v", el)
	}
	e, ok := err.(*runtime.Error)
	if !ok || e.Code != "E_BUDGET" {
		t.Fatalf("err %v", err)
	}
	expect(t, value.JSON(e.Details.AsRecord().GetOrNull("budget")), `"timeMs"`)
	var names []string
	for _, ev := range s.events {
		names = append(names, ev.Event)
	}
	got := strings.Join(names, " ")
	if !strings.Contains(got, "tool_start") || !strings.Contains(got, "tool_end budget_exceeded run_end") {
		t.Errorf("events %s", got)
	}
}

// openTools are the built-in tools with every file reachable and private
// addresses allowed (the tests' servers are on loopback).
func openTools() []runtime.Tool {
	return tools.New(tools.Config{
		FS:   tools.FSScope{Read: tools.AllFiles, Write: tools.AllFiles},
		HTTP: tools.HTTPScope{AllowPrivate: true},
	})
}
