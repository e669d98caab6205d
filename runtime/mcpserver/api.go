package mcpserver

import (
	"context"
	"errors"
	"io"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/proc"
)

// DefaultMaxResultBytes is the default of Options.MaxResultBytes (1 MiB),
// the default of `a0 mcp --max-result-bytes`.
const DefaultMaxResultBytes = 1 << 20

// Options configure a Server. Only Env is required.
type Options struct {
	// Env compiles and runs every call; its tools are the tools A0
	// programs may call, listed by the resource a0://tools and the
	// a0_help tools topic.
	Env *runtime.Env
	// Grants are the capabilities every a0_run call has; nil grants none.
	Grants runtime.Grants
	// Ceiling bounds every run's budget (a program may ask for less).
	Ceiling runtime.Budget
	// MaxResultBytes bounds one tool result on the wire, envelope
	// included; 0 means DefaultMaxResultBytes.
	MaxResultBytes int
	// Version is the implementation version the server reports in its
	// initialize answer ("" reports "dev").
	Version string
	// ErrorHint, when set, may give the hint of a failed run's error
	// (for example the policy line that grants a denied capability);
	// capabilities are those the program declares. "" keeps the error's
	// own hint.
	ErrorHint func(e *runtime.Error, capabilities []string) string
	// CheckHint, when set, may add hints to the static diagnostics of an
	// a0_run or a0_check call (for example that a tool belongs to an MCP
	// server the policy grants nothing of).
	CheckHint func(ds diag.List)
	// OnClose is called once at Shutdown, after every run in flight has
	// returned (for example to stop the MCP servers the host's tools
	// call).
	OnClose func()
}

// Server is an MCP server of the A0 language. Its methods are safe for
// concurrent use; one Server serves one session.
type Server struct {
	h *mcpHost
}

// New returns a Server for opts. It fails when opts.Env is nil or
// opts.MaxResultBytes is negative.
func New(opts Options) (*Server, error) {
	if opts.Env == nil {
		return nil, errors.New("mcpserver: Options.Env is nil")
	}
	if opts.MaxResultBytes < 0 {
		return nil, errors.New("mcpserver: Options.MaxResultBytes is negative")
	}
	h := &mcpHost{
		env:       opts.Env,
		grants:    opts.Grants,
		ceiling:   opts.Ceiling,
		maxResult: opts.MaxResultBytes,
		version:   opts.Version,
		errorHint: opts.ErrorHint,
		checkHint: opts.CheckHint,
		onClose:   opts.OnClose,
		kill:      proc.NewKillSwitch(),
	}
	if h.maxResult == 0 {
		h.maxResult = DefaultMaxResultBytes
	}
	if h.version == "" {
		h.version = "dev"
	}
	if h.grants == nil {
		h.grants = runtime.DenyAll
	}
	h.stopAll, h.stop = context.WithCancelCause(context.Background())
	return &Server{h: h}, nil
}

// Serve runs one MCP session on newline-delimited JSON-RPC: requests are
// read from in and answers written to out, one message per line. It
// returns when in ends (io.EOF), ctx is cancelled or a write fails; it
// does not close in or out. Calls still running when the session ends
// are cancelled with it; call Shutdown afterwards to wait for their
// cleanup.
//
// When Serve returns, nothing reads in any more if it is an *os.File (on
// unix: os.Stdin as a process gets it, a pipe) or takes a read deadline
// (a net.Conn): a read waiting for input is interrupted without taking a
// byte, and the host reads on from there (what the session had read
// ahead of its last message is dropped). Any other reader cannot be
// interrupted: its goroutine ends when its pending Read returns, and
// drops what that Read got. Likewise a write to out that waits for a
// client that does not read is ended with the session when out is an
// *os.File (unix) or takes a write deadline (the line is cut short);
// another writer's pending Write is abandoned and its goroutine ends when
// it returns.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return s.h.server().Run(ctx, &mcpStdio{r: in, w: out})
}

// CancelRuns refuses new a0_run calls and cancels the runs in flight with
// cause (context.Cause of their context; a runtime.SignalCause makes
// their error name the signal).
func (s *Server) CancelRuns(cause error) { s.h.cancelRuns(cause) }

// Shutdown cancels the runs in flight and returns a channel closed once
// they have returned (their commands and jobs stopped) and
// Options.OnClose has run.
func (s *Server) Shutdown() <-chan struct{} { return s.h.shutdown() }

// Kill makes the stop sequences of every run's commands kill at once,
// skipping their grace period (a second interrupt).
func (s *Server) Kill() { s.h.kill.Trip() }
