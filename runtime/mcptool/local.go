package mcptool

import (
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a0lang/a0/runtime/mcpwire"
	"github.com/a0lang/a0/runtime/proc"
)

// stderrKeep is how many bytes of a local server's (masked) stderr are
// kept for error messages.
const stderrKeep = 4096

// baseEnvNames are the variables of a0's own environment every local
// server gets (spec/mcp.md §5.1), besides the LC_* ones: what a program
// needs to find its tools, its user, its locale and a temporary folder.
// Anything else passes only when the server's envAllow names it.
var baseEnvNames = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR"}

// serverEnv builds a local server's environment from a0's (base): the
// minimal base, the variables envAllow names (globs, case-insensitive),
// then the server's own env entries.
func serverEnv(base []string, envAllow []string, own [][2]string) [][2]string {
	var out [][2]string
	seen := map[string]int{}
	set := func(k, v string) {
		if i, ok := seen[k]; ok {
			out[i][1] = v
			return
		}
		seen[k] = len(out)
		out = append(out, [2]string{k, v})
	}
	for _, kv := range base {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || k == "A0_EXEC_ID" {
			continue
		}
		keep := slices.Contains(baseEnvNames, k) || strings.HasPrefix(k, "LC_")
		for _, g := range envAllow {
			if !keep && proc.EnvGlobMatch(g, k) {
				keep = true
			}
		}
		if keep {
			set(k, v)
		}
	}
	for _, kv := range own {
		set(kv[0], kv[1])
	}
	return out
}

// localProc is a running local server: its own process group, stdin and
// stdout carry the protocol, stderr is kept (masked, bounded).
type localProc struct {
	pp     *proc.Piped
	eng    *proc.Engine
	sweep  bool // sweep the processes carrying its A0_EXEC_ID at stop
	stderr *tailBuffer
	masker *proc.Masker  // the secret values of its environment
	done   chan struct{} // closed when the leader has been reaped
	status string        // exit status text, valid once done is closed
}

// spawn starts a local server through the exec engine: its environment is
// the minimal base plus the server's envAllow and env (serverEnv), its
// mask set the secret-looking names among them (exec.mask and the
// defaults), and it is confined by the server's own sandbox, else by
// exec.sandbox, through the engine's confined spawn. The executable
// allowlist and the exec root are not applied: the policy's `mcp` entry
// is itself the grant to run this command. exec.deny still refuses.
func spawn(cfg *ServerConfig) (*localProc, mcpwire.Transport, error) {
	ec := cfg.Exec
	if ec.WorkDir == "" {
		ec = proc.DefaultConfig()
	}
	base := ec.BaseEnv
	if base == nil {
		base = os.Environ()
	}
	ec.Allow, ec.Root = nil, ""
	// The environment is built here, not by exec's env rules.
	ec.EnvMode, ec.EnvAllow, ec.EnvDeny, ec.EnvAllowCode = "replace", nil, nil, nil
	if cfg.Sandbox != nil {
		ec.Sandbox = cfg.Sandbox
	}
	// A secret's source variable reaches a server only through a
	// placeholder in its env.
	env := serverEnv(withoutVars(base, cfg.Secrets.sources()), cfg.EnvAllow, cfg.Env)
	used, err := cfg.Secrets.fillSecrets(env, cfg.Env)
	if err != nil {
		return nil, nil, err
	}
	eng := proc.NewEngine(ec)
	p, err := eng.Prepare(&proc.Request{Argv: cfg.Command, Cwd: cfg.Dir, Env: env,
		EnvMode: "replace", MaxOutput: -1, Remaining: -1})
	if err != nil {
		eng.CloseSandbox()
		var pe *proc.Error
		if cfg.Sandbox != nil && errors.As(err, &pe) {
			// The engine names exec.sandbox; this server has its own.
			pe.Msg = strings.ReplaceAll(pe.Msg, "exec.sandbox", "mcp."+cfg.Name+".sandbox")
		}
		return nil, nil, err
	}
	p.Masker = p.Masker.WithSecrets(used)
	lp := &localProc{eng: eng, sweep: ec.SweepEscaped, stderr: &tailBuffer{masker: p.Masker}, masker: p.Masker, done: make(chan struct{})}
	pp, err := eng.StartPiped(p, lp.stderr)
	if err != nil {
		eng.CloseSandbox()
		return nil, nil, err
	}
	lp.pp = pp
	go func() {
		<-pp.Done()
		select {
		case <-pp.StderrDone():
		case <-time.After(time.Second): // a grandchild holding stderr cannot stall the reaping
		}
		lp.stderr.flush()
		lp.status = pp.Status()
		close(lp.done)
	}()
	return lp, newStdioTransport(pp.Stdout, pp.Stdin, cfg.maxResult()), nil
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
// grace; finally every process left in the group is killed and, as for a
// command, every process carrying its A0_EXEC_ID (one that left the
// group with setsid), so no server process outlives it.
func (lp *localProc) stop(grace time.Duration) {
	lp.pp.Stdin.Close()
	select {
	case <-lp.done:
	case <-time.After(grace):
		lp.pp.SignalGroup(false)
		select {
		case <-lp.done:
		case <-time.After(grace):
			lp.pp.SignalGroup(true)
			select {
			case <-lp.done:
			case <-time.After(2 * time.Second):
			}
		}
	}
	lp.pp.SignalGroup(true)
	if lp.sweep {
		proc.SweepExecIDs(lp.pp.ID)
	}
	lp.pp.Close()
	lp.eng.CloseSandbox()
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
