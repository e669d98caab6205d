//go:build linux

package tools_test

import (
	"context"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"

	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/runtime/tools"
)

// runAll runs src with the tools built from cfg and every capability
// granted (sh.exec included), under ctx, in dir. It fails the test when
// the run has not ended after limit (the run is left behind).
func runAll(t *testing.T, ctx context.Context, limit time.Duration, dir string, cfg tools.Config, src string) result {
	t.Helper()
	env, err := runtime.NewEnv(runtime.WithTools(tools.New(cfg)...), runtime.WithGrants(runtime.AllowAll), runtime.WithWorkDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	full := "cap { fs.read: true, fs.write: true, sh.exec: true }\n" + src + "\n"
	prog, ds := env.Compile("t.a0", full)
	if len(ds) > 0 {
		t.Fatalf("static diagnostics: %v\n%s", ds, full)
	}
	done := make(chan result, 1)
	go func() {
		res, rerr := prog.Run(ctx, runtime.RunOptions{})
		out := result{res: res}
		if rerr != nil {
			out.err, _ = rerr.(*runtime.Error)
			if out.err == nil {
				out.err = &runtime.Error{}
				out.err.Code = diag.Code("non-A0 " + rerr.Error())
			}
		} else {
			out.v = res.Value
		}
		done <- out
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(limit):
		t.Fatalf("the run has not ended after %v", limit)
	}
	return result{}
}

func errReason(r result) string {
	if r.err == nil {
		return "<no error: " + r.json() + ">"
	}
	return string(r.err.Code) + " " + r.err.Details.AsRecord().GetOrNull("reason").AsString()
}

// A FIFO inside a read root is refused at once (it used to block the
// open forever, deaf to timeMs and cancellation).
func TestFSReadFIFORefused(t *testing.T) {
	dir := realTemp(t)
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := tools.Config{FS: tools.FSScope{Read: []string{dir}}}
	start := time.Now()
	r := runAll(t, context.Background(), 5*time.Second, dir, cfg, `return call? fs.read { path: "pipe" }`)
	if got := errReason(r); got != "E_TOOL not_regular" {
		t.Fatalf("got %s", got)
	}
	if !strings.Contains(r.err.Hint, "fs.readSpecial") {
		t.Errorf("hint does not name the flag: %q", r.err.Hint)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refusal took %v", d)
	}
}

// With fs.readSpecial, a FIFO whose writer never writes does not hold
// the read past cancellation.
func TestFSReadSpecialFIFOStopsAtCancel(t *testing.T) {
	dir := realTemp(t)
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// A writer that keeps the FIFO open and writes nothing.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cfg := tools.Config{FS: tools.FSScope{Read: []string{dir}, ReadSpecial: true}}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := runAll(t, ctx, 5*time.Second, dir, cfg, `return call? fs.read { path: "pipe" }`)
	if r.err == nil {
		t.Fatalf("read of a silent FIFO succeeded: %s", r.json())
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the run ended %v after start (cancelled at 300ms)", d)
	}
	// What a FIFO gives is read, bounded by the size limit.
	w.Write([]byte("hello"))
	cfg.FS.MaxReadBytes = 4
	r = runAll(t, context.Background(), 5*time.Second, dir, cfg, `return call? fs.read { path: "pipe" }`)
	if got := errReason(r); got != "E_TOOL too_large" {
		t.Errorf("FIFO over the limit: %s", got)
	}
}

// /dev/zero with fs.read unscoped is refused (it used to end in a fatal
// out-of-memory crash); with readSpecial it stops at the size limit.
func TestFSReadDevZero(t *testing.T) {
	dir := realTemp(t)
	res := loadPolicy(t, dir, `{"version":1,"allow":["fs.read"]}`)
	cfg := tools.FromPolicy(res, dir)
	r := runAll(t, context.Background(), 10*time.Second, dir, cfg, `return call? fs.read { path: "/dev/zero" }`)
	if got := errReason(r); got != "E_TOOL not_regular" {
		t.Fatalf("got %s", got)
	}
	res = loadPolicy(t, dir, `{"version":1,"allow":["fs.read"],"fs":{"readSpecial":true,"maxReadBytes":1048576}}`)
	cfg = tools.FromPolicy(res, dir)
	r = runAll(t, context.Background(), 10*time.Second, dir, cfg, `return call? fs.read { path: "/dev/zero" }`)
	if got := errReason(r); got != "E_TOOL too_large" {
		t.Fatalf("readSpecial: got %s", got)
	}
}

// A sparse 16 GiB file is refused before it is read: quickly, and
// without the memory a read would take.
func TestFSReadTooLarge(t *testing.T) {
	dir := realTemp(t)
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(16 << 30); err != nil {
		t.Skip("no sparse 16 GiB file here:", err)
	}
	f.Close()
	write(t, filepath.Join(dir, "small"), []byte("12345678"))
	cfg := tools.Config{FS: tools.FSScope{Read: []string{dir}}}
	var before goruntime.MemStats
	goruntime.ReadMemStats(&before)
	start := time.Now()
	r := runAll(t, context.Background(), 10*time.Second, dir, cfg, `return call? fs.read { path: "big" }`)
	if got := errReason(r); got != "E_TOOL too_large" {
		t.Fatalf("got %s", got)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refusal took %v", d)
	}
	var after goruntime.MemStats
	goruntime.ReadMemStats(&after)
	if grown := int64(after.TotalAlloc - before.TotalAlloc); grown > 32<<20 {
		t.Errorf("%d bytes allocated for a refused read", grown)
	}
	msg := r.err.Message
	if !strings.Contains(msg, "17179869184") || !strings.Contains(msg, "67108864") || !strings.Contains(r.err.Hint, "fs.maxReadBytes") {
		t.Errorf("message/hint: %q / %q", msg, r.err.Hint)
	}
	// The limit is the policy's, and the memory ceiling bounds it.
	cfg.FS.MaxReadBytes = 4
	r = runAll(t, context.Background(), 10*time.Second, dir, cfg, `return call? fs.read { path: "small" }`)
	if got := errReason(r); got != "E_TOOL too_large" {
		t.Errorf("maxReadBytes 4: %s", got)
	}
	cfg.FS.MaxReadBytes = 8
	r = runAll(t, context.Background(), 10*time.Second, dir, cfg, `return call? fs.read { path: "small" }`)
	if r.err != nil || r.v.AsString() != "12345678" {
		t.Errorf("at the limit: %s", r.json())
	}
}

// fs.write never writes, replaces or deletes a policy file: any
// .a0policy.json, and the policy in effect under any name that leads to
// it (a symbolic link, `..`, another link to the same file).
func TestFSWritePolicyFile(t *testing.T) {
	dir := realTemp(t)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	write(t, filepath.Join(dir, ".a0policy.json"), []byte(`{"version":1,"allow":["fs.write"],"fs":{"write":["."]}}`))
	write(t, filepath.Join(dir, "strict.json"), []byte(`{"version":1}`))
	os.Symlink(".a0policy.json", filepath.Join(dir, "alias.json"))
	os.Symlink("strict.json", filepath.Join(dir, "alias2.json"))
	os.Symlink(".", filepath.Join(dir, "here"))
	if err := os.Link(filepath.Join(dir, "strict.json"), filepath.Join(dir, "hard.json")); err != nil {
		t.Fatal(err)
	}
	res := loadPolicy(t, dir, `{"version":1,"allow":["fs.write"],"fs":{"write":["."]}}`)
	cfg := tools.FromPolicy(res, dir)
	cfg.PolicyFiles = append(cfg.PolicyFiles, filepath.Join(dir, "strict.json"))
	for _, p := range []string{".a0policy.json", "sub/../.a0policy.json", "alias.json", "here/.a0policy.json",
		"sub/.a0policy.json", ".A0POLICY.JSON", "strict.json", "alias2.json", "sub/../strict.json", "here/strict.json", "hard.json"} {
		t.Run(p, func(t *testing.T) {
			r := runAll(t, context.Background(), 10*time.Second, dir, cfg, `return do fs.write { path: "`+p+`", data: "{\"version\":1,\"allow\":[\"sh.exec\"]}" }`)
			if got := errReason(r); got != "E_CAP_DENIED policy_file" {
				t.Fatalf("got %s", got)
			}
			if r.err.Hint == "" {
				t.Error("no hint")
			}
		})
	}
	for _, f := range []string{".a0policy.json", "strict.json"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		if strings.Contains(string(b), "sh.exec") {
			t.Errorf("%s was rewritten: %s", f, b)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", ".a0policy.json")); err == nil {
		t.Error("a new .a0policy.json was made")
	}
	// Nor a folder in place of a policy file.
	home := realTemp(t)
	t.Setenv("HOME", home)
	cfg2 := tools.FromPolicy(res, dir)
	cfg2.FS.Write = append(cfg2.FS.Write, home)
	for _, p := range []string{"sub/.a0policy.json/x", home + "/.a0/policy.json/x", home + "/.a0/policy.json"} {
		r := runAll(t, context.Background(), 10*time.Second, dir, cfg2, `return do fs.write { path: "`+p+`", data: "{}" }`)
		if got := errReason(r); got != "E_CAP_DENIED policy_file" {
			t.Errorf("%s: %s", p, got)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "sub", ".a0policy.json")); err == nil {
		t.Error("a folder named .a0policy.json was made")
	}
	if _, err := os.Lstat(filepath.Join(home, ".a0", "policy.json")); err == nil {
		t.Error("the user policy was made")
	}
	// The zero Config refuses any .a0policy.json too.
	r := runAll(t, context.Background(), 10*time.Second, dir, tools.Config{FS: tools.FSScope{Write: []string{dir}}},
		`return do fs.write { path: "sub/.a0policy.json", data: "{}" }`)
	if got := errReason(r); got != "E_CAP_DENIED policy_file" {
		t.Errorf("zero Config: %s", got)
	}
	// Other files are written as before.
	r = runAll(t, context.Background(), 10*time.Second, dir, cfg, `do fs.write { path: "sub/ok.json", data: "{}" } -> w
return w.bytes`)
	if r.err != nil {
		t.Errorf("ordinary write: %s", r.json())
	}
}

// A write root that a command replaces with a symbolic link to a folder
// outside, during the run, does not move: the next fs.write lands in the
// folder pinned at the run's start (moved aside), never outside.
func TestFSWriteRootSwappedMidRun(t *testing.T) {
	dir := realTemp(t)
	outside := realTemp(t)
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	cfg := tools.Config{FS: tools.FSScope{Read: []string{filepath.Join(dir, "out")}, Write: []string{filepath.Join(dir, "out")}}}
	ec := testCfg(dir)
	cfg.Exec = &ec
	for _, first := range []string{"", `do fs.write { path: "out/first", data: "1" }`} {
		t.Run("first="+first, func(t *testing.T) {
			os.RemoveAll(filepath.Join(dir, "out"))
			os.RemoveAll(filepath.Join(dir, "out.old"))
			os.MkdirAll(filepath.Join(dir, "out"), 0o755)
			r := runAll(t, context.Background(), 20*time.Second, dir, cfg, first+`
do sh.exec { cmd: "mv out out.old && ln -s `+outside+` out" } -> s
do fs.write { path: "out/x", data: "X" } -> w
return [s.exitCode, w]`)
			if _, err := os.Stat(filepath.Join(outside, "x")); err == nil {
				t.Fatalf("fs.write followed the swapped root outside: %s", r.json())
			}
			if r.err != nil {
				t.Fatalf("%s", r.json())
			}
			if b, err := os.ReadFile(filepath.Join(dir, "out.old", "x")); err != nil || string(b) != "X" {
				t.Errorf("not written in the pinned folder: %v %q (%s)", err, b, r.json())
			}
		})
	}
	// A root removed and replaced: the write is refused, nothing outside.
	os.RemoveAll(filepath.Join(dir, "out"))
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	r := runAll(t, context.Background(), 20*time.Second, dir, cfg, `do sh.exec { cmd: "rmdir out && ln -s `+outside+` out" } -> s
do fs.write { path: "out/y", data: "Y" } -> w
return [s.exitCode, w]`)
	if _, err := os.Stat(filepath.Join(outside, "y")); err == nil {
		t.Fatalf("fs.write followed the replaced root outside: %s", r.json())
	}
	if r.err == nil {
		t.Errorf("write into a removed root succeeded: %s", r.json())
	}
}

// The read variant: a read root swapped for a link to the folder above
// does not list that folder.
func TestFSListRootSwappedMidRun(t *testing.T) {
	dir := realTemp(t)
	data := filepath.Join(dir, "data")
	write(t, filepath.Join(data, "a.txt"), []byte("A"))
	write(t, filepath.Join(dir, "secret.txt"), []byte("S"))
	cfg := tools.Config{FS: tools.FSScope{Read: []string{data}}}
	ec := testCfg(dir)
	cfg.Exec = &ec
	r := runAll(t, context.Background(), 20*time.Second, dir, cfg, `do sh.exec { cmd: "mv data data.old && ln -s . data" } -> s
call? fs.list { path: "data" } -> l
call? fs.exists { path: "data/secret.txt" } -> x
return [s.exitCode, l, x]`)
	out := r.json()
	if r.err != nil || strings.Contains(out, "secret") || strings.Contains(out, "true") {
		t.Fatalf("the swapped read root reached the folder above: %s", out)
	}
	if !strings.Contains(out, "a.txt") {
		t.Errorf("the pinned folder was not listed: %s", out)
	}
}

// A confined command (Landlock) that swaps the root for a link: its own
// rules come from the pinned folders too, and fs.write stays inside.
func TestSandboxRootSwapConfined(t *testing.T) {
	if !proc.SandboxStatus().Available {
		t.Skip("no Landlock here")
	}
	dir := realTemp(t)
	outside := realTemp(t)
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	res := loadPolicy(t, filepath.Join(dir, "pol"), `{"version":1,"allow":["fs.write","sh.exec","fs.read"],
 "fs":{"write":["../out"],"read":["../out"]},
 "exec":{"sandbox":{"write":[".."]}}}`)
	if err := res.CheckReach(); err == nil {
		t.Fatal("a sandbox whose write root holds the policy was accepted")
	}
	res = loadPolicy(t, filepath.Join(dir, "pol"), `{"version":1,"allow":["fs.write","sh.exec","fs.read"],
 "fs":{"write":["../out"],"read":["../out"]},
 "exec":{"sandbox":{"write":["../work"]}}}`)
	os.MkdirAll(filepath.Join(dir, "work"), 0o755)
	os.MkdirAll(filepath.Join(dir, "work", "out"), 0o755)
	if err := res.CheckReach(); err != nil {
		t.Fatal(err)
	}
	cfg := tools.FromPolicy(res, dir)
	// The command swaps the fs.write root inside its own write root.
	cfg.FS.Write = []string{filepath.Join(dir, "work", "out")}
	r := runAll(t, context.Background(), 20*time.Second, dir, cfg, `do sh.exec { cmd: "cd work && mv out out.old && ln -s `+outside+` out && echo moved; echo no > `+outside+`/z; true" } -> s
do fs.write { path: "work/out/x", data: "X" } -> w
return [s.stdout, w]`)
	if r.err != nil {
		t.Fatalf("%s", r.json())
	}
	if !strings.Contains(r.json(), "moved") {
		t.Fatalf("the confined command could not swap (test setup): %s", r.json())
	}
	for _, n := range []string{"x", "z"} {
		if _, err := os.Stat(filepath.Join(outside, n)); err == nil {
			t.Errorf("%s was written outside: %s", n, r.json())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "work", "out.old", "x")); err != nil {
		t.Errorf("not in the pinned folder: %v (%s)", err, r.json())
	}
}

// The policy's fs keys reach the tools.
func TestFromPolicyReadKeys(t *testing.T) {
	dir := realTemp(t)
	res := loadPolicy(t, dir, `{"version":1,"fs":{"maxReadBytes":10,"readSpecial":true}}`)
	cfg := tools.FromPolicy(res, dir)
	if cfg.FS.MaxReadBytes != 10 || !cfg.FS.ReadSpecial {
		t.Errorf("got %+v", cfg.FS)
	}
	found := false
	for _, p := range cfg.PolicyFiles {
		found = found || p == res.Path
	}
	if !found {
		t.Errorf("the policy in effect is not protected: %v", cfg.PolicyFiles)
	}
}

// The Landlock rules of the run's commands are made from the roots the
// run pinned, not from their paths at the first command: a write root
// swapped for a link to a folder outside (here by the test, between the
// run's first file call and its first command) does not open that folder
// to the commands.
func TestSandboxRulesFromPinnedRoots(t *testing.T) {
	if !proc.SandboxStatus().Available {
		t.Skip("no Landlock here")
	}
	dir := realTemp(t)
	outside := realTemp(t)
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	fifo := filepath.Join(dir, "sync")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ec := testCfg(dir)
	ec.Sandbox = &proc.Sandbox{Write: []string{out}, Require: true}
	cfg := tools.Config{FS: tools.FSScope{Read: []string{dir}, Write: []string{out}, ReadSpecial: true}, Exec: &ec}
	// The FIFO has a writer from the start (O_RDWR does not wait for a
	// reader), so the run's read waits for data instead of reading an
	// early end of file. The swap comes once the run's first fs.write
	// (which pins the roots) has landed, and only then the data.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer w.Close()
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(out, "first")); err == nil {
				break
			}
		}
		os.Rename(out, out+".old")
		os.Symlink(outside, out)
		w.Write([]byte("go"))
	}()
	r := runAll(t, context.Background(), 20*time.Second, dir, cfg, `do fs.write { path: "out/first", data: "1" }
call? fs.read { path: "sync" } -> s
do sh.exec { cmd: "echo y > out/y; echo $?" } -> c
return [s, c.stdout]`)
	if r.err != nil {
		t.Fatalf("%s", r.json())
	}
	if _, err := os.Lstat(filepath.Join(dir, "out.old")); err != nil {
		t.Fatalf("the test did not swap the root: %v (%s)", err, r.json())
	}
	if _, err := os.Stat(filepath.Join(outside, "y")); err == nil {
		t.Errorf("the confined command wrote outside through the swapped root: %s", r.json())
	}
}

// A file under the limit is read whole, whatever its size relative to
// the read buffer; /proc files (size 0 in fstat) are read too.
func TestFSReadWhole(t *testing.T) {
	dir := realTemp(t)
	data := strings.Repeat("0123456789abcdef", 20000) + "end"
	write(t, filepath.Join(dir, "f"), []byte(data))
	cfg := tools.Config{FS: tools.FSScope{Read: []string{dir, "/proc/self"}}}
	r := runAll(t, context.Background(), 10*time.Second, dir, cfg, `return call? fs.read { path: "f" }`)
	if r.err != nil || r.v.AsString() != data {
		t.Fatalf("read %d bytes, want %d (%v)", len(r.v.AsString()), len(data), r.err)
	}
	r = runAll(t, context.Background(), 10*time.Second, dir, cfg, `return call? fs.read { path: "/proc/self/status" }`)
	if r.err != nil || !strings.Contains(r.v.AsString(), "Pid:") {
		t.Fatalf("/proc/self/status: %s", r.json())
	}
}
