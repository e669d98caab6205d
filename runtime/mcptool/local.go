package mcptool

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/runtime/proc"
)

// stderrKeep is how many bytes of a local server's (masked) stderr are
// kept for error messages.
const stderrKeep = 4096

// localProc is a running local server: its own process group, stdin and
// stdout carry the protocol, stderr is kept (masked, bounded).
type localProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tailBuffer
	masker *proc.Masker  // the secret values of its environment
	done   chan struct{} // closed when the leader has been reaped
	status string        // exit status text, valid once done is closed
}

// spawn starts a local server through the exec engine's rules: the
// engine builds its environment (the policy's env mode, allow/deny globs,
// plus the server's env) and its secret mask set, and resolves the
// program on that environment's PATH. The executable allowlist and the
// exec root are not applied: the policy's `mcp` entry is itself the grant
// to run this command. exec.deny still refuses.
func spawn(cfg *ServerConfig) (*localProc, mcp.Transport, error) {
	ec := cfg.Exec
	if ec.WorkDir == "" {
		ec = proc.DefaultConfig()
	}
	ec.Allow, ec.Root = nil, ""
	eng := proc.NewEngine(ec)
	p, err := eng.Prepare(&proc.Request{Argv: cfg.Command, Cwd: cfg.Dir, Env: cfg.Env, MaxOutput: -1, Remaining: -1})
	if err != nil {
		return nil, nil, err
	}
	cmd := &exec.Cmd{Path: p.Spec.Path, Args: p.Spec.Args, Env: p.Spec.Env, Dir: p.Cwd}
	setGroup(cmd)
	lp := &localProc{cmd: cmd, stderr: &tailBuffer{masker: p.Masker}, masker: p.Masker, done: make(chan struct{})}
	cmd.Stderr = lp.stderr
	cmd.WaitDelay = time.Second // a grandchild holding stderr cannot stall the reaping
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	lp.stdin = stdin
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	go func() {
		err := cmd.Wait()
		lp.stderr.flush()
		lp.status = exitText(cmd, err)
		close(lp.done)
	}()
	t := &mcp.IOTransport{Reader: stdout, Writer: stdin, MaxLineLength: int(cfg.maxResult()) + 64<<10}
	return lp, &rawTransport{Transport: t}, nil
}

func exitText(cmd *exec.Cmd, err error) string {
	if cmd.ProcessState == nil {
		if err != nil {
			return err.Error()
		}
		return "ended"
	}
	return cmd.ProcessState.String() // "exit status 2", "signal: killed"
}

// exited reports whether the leader has ended.
func (lp *localProc) exited() bool {
	select {
	case <-lp.done:
		return true
	default:
		return false
	}
}

// describe is the exit status and the last stderr line, for messages.
func (lp *localProc) describe() string {
	var parts []string
	select {
	case <-lp.done:
		parts = append(parts, lp.status)
	case <-time.After(200 * time.Millisecond):
	}
	if tail := lp.stderr.lastLine(); tail != "" {
		parts = append(parts, "stderr: "+strconv.Quote(tail))
	}
	return strings.Join(parts, "; ")
}

// stop ends the server: its stdin is closed (the protocol's shutdown),
// then its group gets SIGTERM after grace and SIGKILL after another
// grace; finally every process left in the group is killed, so no server
// process outlives it.
func (lp *localProc) stop(grace time.Duration) {
	lp.stdin.Close()
	pgid := lp.cmd.Process.Pid
	select {
	case <-lp.done:
	case <-time.After(grace):
		signalGroup(pgid, false)
		select {
		case <-lp.done:
		case <-time.After(grace):
			signalGroup(pgid, true)
			select {
			case <-lp.done:
			case <-time.After(2 * time.Second):
			}
		}
	}
	signalGroup(pgid, true)
}

// tailBuffer keeps the last stderrKeep bytes written to it, masked.
type tailBuffer struct {
	mu     sync.Mutex
	masker *proc.Masker
	buf    []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := p
	if t.masker != nil {
		out = t.masker.Write(p)
	}
	t.buf = append(t.buf, out...)
	if len(t.buf) > stderrKeep {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-stderrKeep:]...)
	}
	return len(p), nil
}

// flush adds the masker's held-back bytes at the end of the stream.
func (t *tailBuffer) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.masker != nil {
		t.buf = append(t.buf, t.masker.Flush()...)
	}
}

// lastLine returns the last non-empty line written (bounded).
func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	s := strings.TrimSpace(lines[len(lines)-1])
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// startError words a failure to start a local server.
func startError(err error) string {
	var pe *proc.Error
	if errors.As(err, &pe) {
		return pe.Msg
	}
	var se *proc.StartError
	if errors.As(err, &se) {
		return se.Error()
	}
	return err.Error()
}

// withTimeout bounds ctx by d when d > 0.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}
