//go:build linux

package tools_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Commands with a terminal and sh.write, through A0 programs (issue 29).

func needPython3(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 here")
	}
}

// A pty command sees a terminal of its cols and rows on every stream;
// stdout carries stderr too and stderr is "".
func TestShExecPty(t *testing.T) {
	t.Parallel()
	needPython3(t)
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { argv: ["python3", "-c", "import os,sys; print(sys.stdin.isatty(), sys.stdout.isatty(), os.get_terminal_size()); sys.stderr.write('to-stderr\\n')"], pty: true, cols: 132, rows: 40 } -> a
do sh.exec { cmd: "stty size", pty: true } -> b
do sh.exec { argv: ["python3", "-c", "import sys; print(sys.stdout.isatty())"] } -> c
return [a.stdout, a.stderr, a.stderrTotalBytes, a.exitCode, b.stdout, c.stdout]`)
	if r.err != nil {
		t.Fatal(r.err)
	}
	expect(t, r.json(), `["True True os.terminal_size(columns=132, lines=40)\r\nto-stderr\r\n","",0,0,"24 80\r\n","False\n"]`)
}

// sh.write drives REPLs on a pty (sh -i and python3 -i); sh.tail reads
// their answers; eof ends them.
func TestShWriteDrivesREPL(t *testing.T) {
	t.Parallel()
	needPython3(t)
	m, me := mark(t)
	r := runCfg(t, testCfg(realTemp(t)), `do sh.start { argv: ["sh", "-i"], pty: true, env: { PS1: "$ ", `+me+` } } -> j
do sh.write { id: j.id, data: "echo answer-$((6*7))\n" } -> w
call? sh.wait { id: j.id, timeoutMs: 1500 } -> s1
call? sh.tail { id: j.id } -> t1
do sh.write { id: j.id, data: "echo second-$((2+3))\n", eof: true } -> w2
call? sh.wait { id: j.id, timeoutMs: 10000 } -> s2
call? sh.tail { id: j.id } -> t2
do sh.start { argv: ["python3", "-i", "-q"], pty: true, env: { `+me+` } } -> p
do sh.write { id: p.id, data: "print(6 * 7)\n" } -> pw
call? sh.wait { id: p.id, timeoutMs: 1500 } -> ps1
call? sh.tail { id: p.id } -> pt1
do sh.write { id: p.id, eof: true } -> pe
call? sh.wait { id: p.id, timeoutMs: 10000 } -> ps2
return { w: [w.bytesWritten, w.eof, w.state], t1: t1.stdout, s1: s1.waitTimedOut, s2: [s2.state, s2.exitCode, w2.eof], t2: t2.stdout, merged: j.merged,
  pt1: pt1.stdout, ps2: [ps2.state, ps2.exitCode] }`)
	if r.err != nil {
		t.Fatal(r.err)
	}
	v := r.v.AsRecord()
	expect(t, js(v.GetOrNull("w")), `[21,false,"running"]`)
	if !strings.Contains(v.GetOrNull("t1").AsString(), "answer-42") || !v.GetOrNull("s1").AsBool() {
		t.Errorf("the shell's first answer: %s", r.json())
	}
	if !strings.Contains(v.GetOrNull("t2").AsString(), "second-5") {
		t.Errorf("the shell's second answer: %s", r.json())
	}
	expect(t, js(v.GetOrNull("s2")), `["exited",0,true]`)
	expect(t, js(v.GetOrNull("merged")), `true`)
	if !strings.Contains(v.GetOrNull("pt1").AsString(), "42") {
		t.Errorf("python's answer: %s", r.json())
	}
	expect(t, js(v.GetOrNull("ps2")), `["exited",0]`)
	noneLeft(t, m)
	// The written data is not in the trace: tool_start shows its size.
	for _, ev := range events(r, "tool_start") {
		if s := js(ev.Data); strings.Contains(s, "answer-") {
			t.Errorf("sh.write data in the trace: %s", s)
		}
	}
}

// A pipe job with stdinOpen takes sh.write; eof closes its input; later
// writes are refused. A job without stdinOpen refuses every write.
func TestShWritePipe(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	r := runCfg(t, testCfg(realTemp(t)), `do sh.start { argv: ["cat"], stdinOpen: true, stdin: "one\n", env: { `+me+` } } -> j
do sh.write { id: j.id, data: "two\n" } -> w
do sh.write { id: j.id, eof: true } -> e
call? sh.wait { id: j.id, timeoutMs: 10000 } -> s
try { do sh.write { id: j.id, data: "three\n" } -> x return x } catch { err } { return err } -> late
do sh.start { argv: ["sleep", "30"], env: { `+me+` } } -> k
try { do sh.write { id: k.id, data: "x" } -> y return y } catch { err } { return err } -> refused
do sh.kill { id: k.id, signal: "KILL" } -> killed
return [s.state, s.exitCode, s.stdout, w.bytesWritten, e.eof, late.code, late.details.reason, refused.code, refused.details.reason, refused.message]`)
	if r.err != nil {
		t.Fatal(r.err)
	}
	got := r.v.AsList()
	if js(got[0]) != `"exited"` || js(got[1]) != `0` || js(got[2]) != `"one\ntwo\n"` || js(got[3]) != `4` || js(got[4]) != `true` {
		t.Errorf("pipe job with stdinOpen: %s", r.json())
	}
	if js(got[5]) != `"E_TOOL"` || (got[6].AsString() != "job_ended" && got[6].AsString() != "stdin_closed") {
		t.Errorf("write after eof: %s", r.json())
	}
	if js(got[7]) != `"E_TOOL"` || got[8].AsString() != "stdin_not_open" || !strings.Contains(got[9].AsString(), "stdinOpen: true") {
		t.Errorf("write without stdinOpen: %s", r.json())
	}
	noneLeft(t, m)
}

// The new arguments are checked: cols without pty, stdinOpen on sh.exec
// (not one of its arguments), sh.write without data or eof, a misspelt
// sh.write argument.
func TestTerminalArgs(t *testing.T) {
	t.Parallel()
	cfg := testCfg(realTemp(t))
	for _, c := range []struct{ src, want string }{
		{`do sh.exec { cmd: "true", cols: 100 }`, "cols: only allowed with pty: true"},
		{`do sh.exec { cmd: "true", pty: true, rows: 0 }`, "rows: must be an integer from 1 to 10000"},
		{`do sh.exec { cmd: "true", stdinOpen: true }`, "stdinOpen"},
		{`do sh.write { id: "j_0123456789abcdef" }`, "data: give data, eof: true, or both"},
		{`do sh.write { id: "j_0123456789abcdef", dta: "x" }`, "data"},
	} {
		r := runCfg(t, cfg, c.src+" -> x\nreturn x")
		if r.err == nil || r.err.Code != "E_TOOL_ARGS" || !strings.Contains(r.err.Message+r.err.Hint, c.want) {
			t.Errorf("%s: %s (want E_TOOL_ARGS with %q)", c.src, r.json(), c.want)
		}
	}
	r := runCfg(t, cfg, `do sh.write { id: "j_0123456789abcdef", data: "x" } -> x
return x`)
	if reason(r) != "E_TOOL job_not_found" {
		t.Errorf("sh.write to an unknown job: %s", reason(r))
	}
}

// A pty command is stopped like any other at its timeout: its shell's
// background job, which ignores SIGTERM and SIGHUP, goes too.
func TestShExecPtyTimeout(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "trap '' TERM HUP; sleep 30 & echo started; sleep 31", pty: true, timeoutMs: 700, onTimeout: "result", env: { `+me+` } } -> a
return [a.timedOut, a.stdout, a.signal]`)
	if r.err != nil {
		t.Fatal(r.err)
	}
	expect(t, r.json(), `[true,"started\r\n","SIGKILL"]`)
	noneLeft(t, m)
}

// Masking and output bounds hold on a pty: a secret echoed through the
// terminal is masked, and outputLimitBytes stops a flood.
func TestShExecPtyMaskAndLimit(t *testing.T) {
	t.Parallel()
	m, me := mark(t)
	r := runCfg(t, testCfg(realTemp(t)), `do sh.exec { cmd: "echo token=$MY_TOKEN", pty: true, env: { MY_TOKEN: "s3cr3t-value-42", `+me+` } } -> a
do sh.exec { cmd: "yes", pty: true, outputLimitBytes: 20000, maxOutputBytes: 1000, env: { `+me+` } } -> b
return [a.stdout, b.killReason, b.stdoutTruncated, b.stderr]`)
	if r.err != nil {
		t.Fatal(r.err)
	}
	expect(t, r.json(), `["token=[masked:MY_TOKEN]\r\n","output_limit",true,""]`)
	noneLeft(t, m)
}
