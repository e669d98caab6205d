//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a0lang/a0/runtime/proc"
)

// These tests drive the built a0 binary: detached jobs must outlive the
// process that started them, so nothing here runs in-process.

const detachPolicy = `{ "allow": ["sh.exec"], "exec": { "allowDetach": true, "allowCrossRun": true, "graceMs": 300, "jobStore": { "dir": "store" } } }`

// jobsDir makes a folder with a policy file (HOME there too).
func jobsDir(t *testing.T, policy string) string {
	t.Helper()
	dir := t.TempDir()
	if policy != "" {
		if err := os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(policy), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// a0In runs the built a0 in dir and returns stdout, stderr and the exit
// code.
func a0In(t *testing.T, dir string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(builtA0(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+filepath.Join(dir, "xdg"), "A0_JOBS_ROOT=")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// jobsJSON runs `a0 jobs args…` and decodes its one JSON object.
func jobsJSON(t *testing.T, dir string, args ...string) (map[string]any, int) {
	t.Helper()
	out, errOut, code := a0In(t, dir, "", append([]string{"jobs"}, args...)...)
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("a0 jobs %v: stdout is not one line: %q (stderr %q)", args, out, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("a0 jobs %v: %v: %q", args, err, out)
	}
	if m["schemaVersion"] != 1.0 {
		t.Fatalf("a0 jobs %v: %v", args, m)
	}
	return m, code
}

func job(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	j, ok := m["job"].(map[string]any)
	if !ok {
		t.Fatalf("no job in %v", m)
	}
	return j
}

// runProg runs a program and decodes its JSON result.
func runProg(t *testing.T, dir, src string) any {
	t.Helper()
	out, errOut, code := a0In(t, dir, src, "run", "-")
	if code != 0 {
		t.Fatalf("a0 run: exit %d: %s %s", code, out, errOut)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	return v
}

func pidAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] != 'Z'
}

// groupMembers lists the live processes of process group pgid, from the
// process table.
func groupMembers(pgid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+2:])
		if len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid) {
			out = append(out, pid)
		}
	}
	return out
}

// killGroupAtEnd kills process group pgid when the test ends, then waits
// for the supervisors of the jobs stored under dir to finish: a
// supervisor records its job's end after the group dies, and the
// temporary directory must not be removed while it writes.
func killGroupAtEnd(t *testing.T, dir string, pgid int) {
	t.Cleanup(func() {
		syscall.Kill(-pgid, syscall.SIGKILL)
		deadline := time.Now().Add(10 * time.Second)
		for _, owner := range supervisorsUnder(dir) {
			for pidAlive(owner) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		}
	})
}

// supervisorsUnder returns the ownerPid of every job's meta.json under dir.
func supervisorsUnder(dir string) []int {
	var owners []int
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "meta.json" {
			return nil
		}
		var m struct {
			OwnerPid int `json:"ownerPid"`
		}
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &m) == nil && m.OwnerPid > 0 {
			owners = append(owners, m.OwnerPid)
		}
		return nil
	})
	return owners
}

func TestJobsDetachedAcrossRuns(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	v := runProg(t, dir, `cap { sh.exec: true }
do sh.start { cmd: "echo begin; sleep 1; echo done; exit 3", detach: true, tag: "build" } -> j
return j`)
	j := v.(map[string]any)
	id, pid := j["id"].(string), int(j["pid"].(float64))
	killGroupAtEnd(t, dir, pid)
	if j["state"] != "running" || j["detached"] != true {
		t.Fatalf("start: %v", j)
	}
	// The run has exited; its job runs on.
	if !pidAlive(pid) {
		t.Fatal("the detached job ended with its run")
	}
	st, _ := jobsJSON(t, dir, "status", id)
	if job(t, st)["state"] != "running" {
		t.Fatalf("status: %v", st)
	}
	// A second run reads its tail and waits for it.
	v = runProg(t, dir, `cap { sh.exec: true }
call? sh.tail { id: "`+id+`" } -> t
call? sh.wait { id: "`+id+`", timeoutMs: 10000 } -> w
return { tail: t.state, state: w.state, code: w.exitCode, out: w.stdout, timedOut: w.waitTimedOut }`)
	got, _ := json.Marshal(v)
	if string(got) != `{"code":3,"out":"begin\ndone\n","state":"exited","tail":"running","timedOut":false}` {
		t.Fatalf("second run: %s", got)
	}
	st, code := jobsJSON(t, dir, "status", id)
	sj := job(t, st)
	if code != 0 || st["ok"] != true || st["type"] != "status" || sj["state"] != "exited" || sj["exitCode"] != 3.0 || sj["tag"] != "build" {
		t.Fatalf("a0 jobs status: %v", st)
	}
}

func TestJobsRunReadFromProgram(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	m, code := jobsJSON(t, dir, "run", "--snapshot-after", "0", "--tag", "cli", "--", "sh", "-c", "echo from-cli; sleep 0.3")
	if code != 0 || m["type"] != "run" || job(t, m)["state"] != "running" {
		t.Fatalf("run: %d %v", code, m)
	}
	id := job(t, m)["id"].(string)
	v := runProg(t, dir, `cap { sh.exec: true }
call? sh.wait { id: "`+id+`" } -> w
call? sh.jobs { scope: "store", tag: "cli" } -> l
return [w.state, w.stdout, l.count]`)
	got, _ := json.Marshal(v)
	if string(got) != `["exited","from-cli\n",1]` {
		t.Fatalf("program: %s", got)
	}
	// --wait returns when the job ends, with its output.
	m, _ = jobsJSON(t, dir, "run", "--wait", "--cmd", "echo out; echo err >&2")
	if j := job(t, m); j["state"] != "exited" || j["stdout"] != "out\n" || j["stderr"] != "err\n" {
		t.Fatalf("run --wait: %v", m)
	}
}

func TestJobsSupervisorKilledIsLost(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	m, _ := jobsJSON(t, dir, "run", "--snapshot-after", "0", "--cmd", "sleep 60 & sleep 60")
	j := job(t, m)
	id, pid := j["id"].(string), int(j["pid"].(float64))
	killGroupAtEnd(t, dir, pid)
	var meta struct{ OwnerPid int }
	b, _ := os.ReadFile(filepath.Join(dir, "store", id, "meta.json"))
	if err := json.Unmarshal(b, &meta); err != nil || meta.OwnerPid <= 0 {
		t.Fatalf("meta: %v %s", err, b)
	}
	if err := syscall.Kill(meta.OwnerPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200 && pidAlive(meta.OwnerPid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if len(groupMembers(pid)) == 0 {
		t.Fatal("the group ended before reconciliation")
	}
	// The next reader reconciles: lost, the group gone.
	st, _ := jobsJSON(t, dir, "status", id)
	if sj := job(t, st); sj["state"] != "lost" || sj["killReason"] != "owner_died" {
		t.Fatalf("status: %v", st)
	}
	for i := 0; i < 100 && len(groupMembers(pid)) > 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if g := groupMembers(pid); len(g) > 0 {
		t.Fatalf("process group %d still has %v", pid, g)
	}
}

func TestJobsTimeoutAndKillAfter(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	start := time.Now()
	m, _ := jobsJSON(t, dir, "run", "--wait", "--timeout", "300", "--kill-after", "200", "--cmd", "trap 'echo term' TERM; while :; do sleep 0.05; done")
	j := job(t, m)
	if j["state"] != "timed_out" || j["signal"] != "SIGKILL" || j["timeoutMs"] != 300.0 || !strings.Contains(j["stdout"].(string), "term") {
		t.Fatalf("timeout: %v", j)
	}
	if el := time.Since(start); el < 500*time.Millisecond || el > 5*time.Second {
		t.Fatalf("took %v", el)
	}
	// kill: TERM, then KILL after the grace period.
	m, _ = jobsJSON(t, dir, "run", "--snapshot-after", "200", "--cmd", "trap 'echo term' TERM; echo ready; while :; do sleep 0.05; done")
	id := job(t, m)["id"].(string)
	killGroupAtEnd(t, dir, int(job(t, m)["pid"].(float64)))
	k, code := jobsJSON(t, dir, "kill", id, "--grace", "200")
	kj := job(t, k)
	if code != 0 || kj["state"] != "killed" || kj["killReason"] != "kill" || k["signalSent"] != "SIGTERM" || k["escalated"] != true {
		t.Fatalf("kill: %v", k)
	}
	// A finished job: nothing sent.
	k, _ = jobsJSON(t, dir, "kill", id)
	if k["signalSent"] != nil {
		t.Fatalf("second kill: %v", k)
	}
}

func TestJobsGC(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	m, _ := jobsJSON(t, dir, "run", "--wait", "--", "true")
	done := job(t, m)["id"].(string)
	m, _ = jobsJSON(t, dir, "run", "--snapshot-after", "0", "--", "sleep", "30")
	running := job(t, m)["id"].(string)
	killGroupAtEnd(t, dir, int(job(t, m)["pid"].(float64)))
	actions := func(rep map[string]any) map[string]string {
		out := map[string]string{}
		for _, e := range rep["jobs"].([]any) {
			e := e.(map[string]any)
			out[e["id"].(string)] = e["action"].(string) + "/" + e["reason"].(string)
		}
		return out
	}
	rep, _ := jobsJSON(t, dir, "gc", "--older-than", "0s", "--dry-run")
	a := actions(rep)
	if a[done] != "would_delete/older_than" || a[running] != "skipped/running" || rep["deleted"] != 0.0 {
		t.Fatalf("dry run: %v", rep)
	}
	if _, err := os.Stat(filepath.Join(dir, "store", done)); err != nil {
		t.Fatal("the dry run deleted a job")
	}
	rep, _ = jobsJSON(t, dir, "gc", "--older-than", "30d")
	if a := actions(rep); a[done] != "skipped/too_recent" {
		t.Fatalf("30d: %v", rep)
	}
	rep, _ = jobsJSON(t, dir, "gc", "--older-than", "0s")
	a = actions(rep)
	if a[done] != "deleted/older_than" || a[running] != "skipped/running" || rep["deleted"] != 1.0 || rep["freedBytes"].(float64) <= 0 {
		t.Fatalf("gc: %v", rep)
	}
	if _, err := os.Stat(filepath.Join(dir, "store", done)); err == nil {
		t.Fatal("gc kept the finished job")
	}
	st, _ := jobsJSON(t, dir, "status", running)
	if job(t, st)["state"] != "running" {
		t.Fatalf("the running job: %v", st)
	}
	if _, code := jobsJSON(t, dir, "gc", "--older-than", "7w"); code != 1 {
		t.Fatal("a bad --older-than was accepted")
	}
}

func TestJobsRefusals(t *testing.T) {
	cases := []struct {
		name, policy string
		args         []string
		code         string
		exit         int
		in           string
	}{
		{"no sh.exec", `{ "exec": { "allowDetach": true } }`, []string{"run", "--", "true"}, "E_CAP_DENIED", 3, `"sh.exec"`},
		{"outside exec.allow", `{ "allow": ["sh.exec"], "exec": { "allowDetach": true, "allow": ["echo"], "allowShell": false } }`, []string{"run", "--", "sleep", "1"}, "E_CAP_DENIED", 3, "sleep"},
		{"shell refused", `{ "allow": ["sh.exec"], "exec": { "allowDetach": true, "allowShell": false } }`, []string{"run", "--cmd", "true"}, "E_CAP_DENIED", 3, "shell"},
		{"usage", detachPolicy, []string{"run"}, "E_USAGE", 1, "no command"},
		{"bad id", detachPolicy, []string{"status", "nope"}, "E_USAGE", 1, "not a job id"},
		{"unknown flag", detachPolicy, []string{"list", "--bogus"}, "E_USAGE", 1, "--bogus"},
		{"no such job", detachPolicy, []string{"status", "j_0123456789abcdef"}, "E_TOOL", 4, "no job"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := jobsDir(t, c.policy)
			m, code := jobsJSON(t, dir, c.args...)
			e, _ := m["error"].(map[string]any)
			if code != c.exit || m["ok"] != false || e["code"] != c.code || !strings.Contains(e["message"].(string)+e["hint"].(string), c.in) || e["hint"] == "" {
				t.Fatalf("exit %d: %v", code, m)
			}
		})
	}
	// A program without a store: the refusal names the key.
	dir := jobsDir(t, `{ "allow": ["sh.exec"], "exec": { "allowDetach": true } }`)
	_, errOut, code := a0In(t, dir, `cap { sh.exec: true }
return do sh.start { cmd: "true", detach: true }`, "run", "-")
	if code != 4 || !strings.Contains(errOut, "store_unavailable") || !strings.Contains(errOut, "exec.jobStore") {
		t.Fatalf("no store: exit %d: %s", code, errOut)
	}
	// Another user's store is refused, and nothing in it is read.
	dir = jobsDir(t, detachPolicy)
	other := filepath.Join(dir, "other")
	os.MkdirAll(filepath.Join(other, "j_0123456789abcdef"), 0o700)
	os.WriteFile(filepath.Join(other, "j_0123456789abcdef", "state.json"), []byte(`{"id":"j_0123456789abcdef","state":"running"}`), 0o600)
	if err := os.Chown(other, 4242, 4242); err != nil {
		t.Skip("cannot chown: ", err)
	}
	m, code := jobsJSON(t, dir, "--root", other, "status", "j_0123456789abcdef")
	e, _ := m["error"].(map[string]any)
	if code != 4 || e["code"] != "E_TOOL" || !strings.Contains(e["message"].(string), "uid 4242") {
		t.Fatalf("another user's store: %d %v", code, m)
	}
}

func TestJobsHelp(t *testing.T) {
	dir := jobsDir(t, "")
	out, _, code := a0In(t, dir, "", "jobs", "--help")
	if code != 0 || !strings.HasPrefix(out, "Usage: a0 jobs") || !strings.Contains(out, "gc [--older-than") {
		t.Fatalf("a0 jobs --help: %d %q", code, out)
	}
	h, _, code := a0In(t, dir, "", "help", "jobs")
	if code != 0 || h != out {
		t.Fatalf("a0 help jobs differs: %d", code)
	}
	top, _, _ := a0In(t, dir, "", "--help")
	if !strings.Contains(top, "jobs [options] <subcommand>") || strings.Contains(top, "__supervise") {
		t.Fatalf("top-level help: %q", top)
	}
}

// Two hundred jobs are listed, and a wait on a finished job answers,
// each about as fast as reading the store.
func TestJobsManyListedQuickly(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	m, _ := jobsJSON(t, dir, "run", "--wait", "--", "echo", "hi")
	id := job(t, m)["id"].(string)
	src := filepath.Join(dir, "store", id)
	for i := 1; i < 200; i++ {
		nid := "j_" + strings.Repeat("0", 12) + strconv.FormatInt(int64(0x1000+i), 16)
		dst := filepath.Join(dir, "store", nid)
		os.Mkdir(dst, 0o700)
		for _, f := range []string{"meta.json", "state.json", "stdout.log", "stderr.log"} {
			b, _ := os.ReadFile(filepath.Join(src, f))
			os.WriteFile(filepath.Join(dst, f), bytes.ReplaceAll(b, []byte(id), []byte(nid)), 0o600)
		}
	}
	start := time.Now()
	l, code := jobsJSON(t, dir, "list", "--limit", "500")
	listTime := time.Since(start)
	if code != 0 || l["count"] != 200.0 || l["truncated"] != false {
		t.Fatalf("list: count %v truncated %v", l["count"], l["truncated"])
	}
	l, _ = jobsJSON(t, dir, "list", "--limit", "10")
	if l["count"] != 10.0 || l["truncated"] != true {
		t.Fatalf("list --limit 10: %v %v", l["count"], l["truncated"])
	}
	start = time.Now()
	w, _ := jobsJSON(t, dir, "wait", id)
	waitTime := time.Since(start)
	if job(t, w)["state"] != "exited" || w["waitTimedOut"] != false {
		t.Fatalf("wait: %v", w)
	}
	t.Logf("list of 200: %v, wait on a finished job: %v", listTime, waitTime)
	if listTime > 2*time.Second || waitTime > time.Second {
		t.Fatalf("too slow: list %v, wait %v", listTime, waitTime)
	}
}

// A detached job is confined by exec.sandbox like an attached one, from
// a0 jobs run and from a program.
func TestJobsConfined(t *testing.T) {
	if !proc.SandboxStatus().Available {
		t.Skip("no Landlock here")
	}
	dir := jobsDir(t, `{"allow": ["sh.exec"], "fs": {"write": ["out"]},
 "exec": {"allowDetach": true, "allowCrossRun": true, "jobStore": {"dir": "store"}, "sandbox": {"network": "deny"}}}`)
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	m, _ := jobsJSON(t, dir, "run", "--wait", "--cmd", "echo a > out/a.txt; echo b > here.txt")
	j := job(t, m)
	if j["confined"] != true || j["state"] != "exited" || j["exitCode"] == 0.0 {
		t.Fatalf("job: %v", j)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "a.txt")); err != nil {
		t.Fatal("no write inside the root")
	}
	if _, err := os.Stat(filepath.Join(dir, "here.txt")); err == nil {
		t.Fatal("a detached job wrote outside its roots")
	}
	v := runProg(t, dir, `cap { sh.exec: true }
do sh.start { cmd: "echo c > there.txt", detach: true } -> j
call? sh.wait { id: j.id } -> w
return [w.confined, w.exitCode == 0]`)
	if got, _ := json.Marshal(v); string(got) != `[true,false]` {
		t.Fatalf("program: %s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "there.txt")); err == nil {
		t.Fatal("a detached job of a program wrote outside its roots")
	}
}

func TestJobsCreateStart(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	os.WriteFile(filepath.Join(dir, "vars.env"), []byte("GREETING=first\n"), 0o600)
	m, code := jobsJSON(t, dir, "create", "--tag", "later", "--env-file", "vars.env", "--env", "WHO=world", "--cmd", "echo $GREETING $WHO")
	j := job(t, m)
	if code != 0 || m["type"] != "create" || j["state"] != "created" || j["completed"] != false || j["tag"] != "later" {
		t.Fatalf("create: %v", m)
	}
	id := j["id"].(string)
	l, _ := jobsJSON(t, dir, "list", "--state", "created")
	if l["count"] != 1.0 {
		t.Fatalf("list created: %v", l)
	}
	if l, _ = jobsJSON(t, dir, "list", "--state", "terminal"); l["count"] != 0.0 {
		t.Fatalf("list terminal: %v", l)
	}
	// The env file is read again at start.
	os.WriteFile(filepath.Join(dir, "vars.env"), []byte("GREETING=second\n"), 0o600)
	m, code = jobsJSON(t, dir, "start", id, "--wait")
	j = job(t, m)
	if code != 0 || m["type"] != "start" || j["id"] != id || j["state"] != "exited" || j["stdout"] != "second world\n" {
		t.Fatalf("start: %v", m)
	}
	if _, err := os.Stat(filepath.Join(dir, "store", id, "spec.json")); err == nil {
		t.Fatal("spec.json kept after the start")
	}
	m, code = jobsJSON(t, dir, "start", id)
	if code != 4 || m["ok"] != false {
		t.Fatalf("second start: %v", m)
	}
	// The policy in effect at start decides.
	m, _ = jobsJSON(t, dir, "create", "--", "sleep", "1")
	id = job(t, m)["id"].(string)
	os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(`{ "allow": ["sh.exec"], "exec": { "allowDetach": true, "deny": ["sleep"], "jobStore": { "dir": "store" } } }`), 0o600)
	m, code = jobsJSON(t, dir, "start", id)
	if e, _ := m["error"].(map[string]any); code != 3 || e["code"] != "E_CAP_DENIED" {
		t.Fatalf("start under a stricter policy: %d %v", code, m)
	}
}

func TestJobsNotify(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	m, _ := jobsJSON(t, dir, "run", "--snapshot-after", "0", "--notify-file", "done.ndjson",
		"--cmd", "while [ ! -e go ]; do sleep 0.02; done; echo 'ERROR: disk' >&2; echo 'ERROR: out'")
	id := job(t, m)["id"].(string)
	killGroupAtEnd(t, dir, int(job(t, m)["pid"].(float64)))
	n, code := jobsJSON(t, dir, "notify", "set", id, "--output-pattern", "^ERROR: [a-z]+$", "--output-match-type", "regex",
		"--output-stream", "stderr", "--output-file", "match.ndjson")
	if code != 0 || n["type"] != "notify set" {
		t.Fatalf("notify set: %v", n)
	}
	nn := n["notify"].(map[string]any)
	if nn["file"] != filepath.Join(dir, "done.ndjson") || nn["output"].(map[string]any)["stream"] != "stderr" {
		t.Fatalf("notify set kept: %v", nn)
	}
	time.Sleep(100 * time.Millisecond)
	os.WriteFile(filepath.Join(dir, "go"), nil, 0o600)
	jobsJSON(t, dir, "wait", id)
	var done []byte
	for i := 0; i < 300 && len(done) == 0; i++ {
		done, _ = os.ReadFile(filepath.Join(dir, "done.ndjson"))
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(string(done), `"eventType":"job.finished"`) {
		t.Fatalf("completion: %q", done)
	}
	match, _ := os.ReadFile(filepath.Join(dir, "match.ndjson"))
	if strings.Count(string(match), "\n") != 1 || !strings.Contains(string(match), `"line":"ERROR: disk"`) {
		t.Fatalf("matches: %q", match)
	}
	if m, code := jobsJSON(t, dir, "notify", "set", id, "--output-pattern", "x"); code != 4 || !strings.Contains(m["error"].(map[string]any)["message"].(string), "already ended") {
		t.Fatalf("notify set on a finished job: %v", m)
	}
}

// A job started by one a0_run of a0 mcp is read by the next.
func TestJobsAcrossMCPRuns(t *testing.T) {
	cs := mcpSession(t, detachPolicy)
	_, out, _ := callTool(t, cs, "a0_run", map[string]any{"source": `cap { sh.exec: true }
do sh.start { cmd: "sleep 0.3; echo mcp-done", detach: true } -> j
return j.id`})
	var id string
	if !out.OK || json.Unmarshal(out.Value, &id) != nil || id == "" {
		t.Fatalf("first run: %+v", out)
	}
	_, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": `cap { sh.exec: true }
call? sh.wait { id: "` + id + `" } -> w
return [w.state, w.stdout]`})
	if !out.OK || string(out.Value) != `["exited","mcp-done\n"]` {
		t.Fatalf("second run: %+v %s", out, out.Value)
	}
}

// BenchmarkJobsRunStartup is `a0 jobs run --snapshot-after 0 -- true`
// with the built binary: two process start-ups (a0 and its supervisor),
// the policy, the store and the spawn, until the id is printed.
func BenchmarkJobsRunStartup(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "a0")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(dir, ".a0policy.json"), []byte(detachPolicy), 0o600)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "jobs", "run", "--snapshot-after", "0", "--", "true")
		cmd.Dir = dir
		if out, err := cmd.Output(); err != nil || !bytes.Contains(out, []byte(`"ok":true`)) {
			b.Fatalf("%v %s", err, out)
		}
	}
}

// kill of a job whose supervisor died sends nothing: the job is found
// lost, its group stopped by reconciliation.
func TestJobsKillAfterSupervisorDied(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	m, _ := jobsJSON(t, dir, "run", "--snapshot-after", "0", "--", "sleep", "60")
	j := job(t, m)
	id, pid := j["id"].(string), int(j["pid"].(float64))
	killGroupAtEnd(t, dir, pid)
	var meta struct{ OwnerPid int }
	b, _ := os.ReadFile(filepath.Join(dir, "store", id, "meta.json"))
	json.Unmarshal(b, &meta)
	syscall.Kill(meta.OwnerPid, syscall.SIGKILL)
	for i := 0; i < 200 && pidAlive(meta.OwnerPid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	k, code := jobsJSON(t, dir, "kill", id)
	if code != 0 || job(t, k)["state"] != "lost" || k["signalSent"] != nil {
		t.Fatalf("kill: %v", k)
	}
	for i := 0; i < 100 && pidAlive(pid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if pidAlive(pid) {
		t.Fatal("the job outlived reconciliation")
	}
}

// A detached job started in a REPL session outlives the session.
func TestJobsFromREPL(t *testing.T) {
	dir := jobsDir(t, detachPolicy)
	out, errOut, code := a0In(t, dir, `do sh.start { cmd: "sleep 0.5; echo from-repl", detach: true } -> j
j.id
`, "repl")
	if code != 0 {
		t.Fatalf("repl: %d %s %s", code, out, errOut)
	}
	i := strings.Index(out, `"j_`)
	if i < 0 {
		t.Fatalf("no job id in %q", out)
	}
	id := out[i+1 : i+19]
	w, _ := jobsJSON(t, dir, "wait", id, "--timeout", "5000")
	if j := job(t, w); j["state"] != "exited" || j["stdout"] != "from-repl\n" {
		t.Fatalf("wait: %v", w)
	}
}
