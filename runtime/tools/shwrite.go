package tools

import (
	"errors"
	"strconv"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/proc"
)

// Commands with a terminal and input to running jobs (spec/exec.md
// §5.4, §6.8): the pty, cols, rows and login arguments of sh.exec and
// sh.start, sh.start's stdinOpen, and the sh.write tool.

var stdinOpenParam = runtime.Param{Name: "stdinOpen", Type: runtime.TypeBool, Doc: "keep the job's input open for sh.write (a pty job's always is)"}

// maxTermSize bounds cols and rows.
const maxTermSize = 10000

// terminalIssues checks pty, cols and rows.
func terminalIssues(a *value.Record) []string {
	var issues []string
	pty := a.GetOrNull("pty").AsBool()
	for _, f := range []string{"cols", "rows"} {
		v, ok := a.Get(f)
		if !ok {
			continue
		}
		if !isInt(v, 1, maxTermSize) {
			issues = append(issues, f+": must be an integer from 1 to "+strconv.Itoa(maxTermSize))
		} else if !pty {
			issues = append(issues, f+": only allowed with pty: true")
		}
	}
	return issues
}

// terminalRequest decodes pty, cols, rows, login and stdinOpen.
func terminalRequest(a *value.Record, r *proc.Request) {
	r.Pty = a.GetOrNull("pty").AsBool()
	r.Cols = int(a.GetOrNull("cols").AsNumber())
	r.Rows = int(a.GetOrNull("rows").AsNumber())
	r.Login = a.GetOrNull("login").AsBool()
	r.StdinOpen = r.IsJob && a.GetOrNull("stdinOpen").AsBool()
}

// ShWrite is the sh.write tool: write to a running job's standard input
// (spec/exec.md §6.8). It is gated like sh.kill: an effect of the
// sh.exec capability, on this run's jobs only.
type ShWrite struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShWrite) Name() string { return "sh.write" }

// Capability implements runtime.Tool.
func (ShWrite) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShWrite) Mode() runtime.Mode { return runtime.ModeEffect }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShWrite) AwaitedOnStop() bool { return true }

var writeParams = []runtime.Param{
	idParam,
	{Name: "data", Type: runtime.TypeString, Doc: "text written to the job's input"},
	{Name: "eof", Type: runtime.TypeBool, Doc: "then end the input: close a pipe, or send a pty its EOF character (^D)"},
}

// Params implements runtime.Tool.
func (ShWrite) Params() []runtime.Param { return writeParams }

// ClosedArgs implements runtime.ClosedArgs.
func (ShWrite) ClosedArgs() bool { return true }

// CheckArgs implements runtime.ArgChecker.
func (ShWrite) CheckArgs(a *value.Record) []string {
	c := &argCheck{a: a}
	c.id()
	if _, ok := a.Get("data"); !ok && !a.GetOrNull("eof").AsBool() {
		c.add("data: give data, eof: true, or both")
	}
	return c.issues
}

// RedactArgs implements runtime.Redactor: the data is summarised, as
// sh.exec's stdin is.
func (ShWrite) RedactArgs(c *runtime.Call, args *value.Record) (value.Value, []string) {
	out := value.NewRecord(args.Len())
	for i, k := range args.Keys() {
		v := args.At(i)
		if k == "data" {
			v = value.Str("[data: " + strconv.Itoa(len(v.AsString())) + " bytes]")
		}
		out.Set(k, v)
	}
	return value.RecordOf(out), nil
}

// writeWait is how long sh.write waits for a job to take its data.
const writeWait = 10 * time.Second

// Call implements runtime.Tool.
func (t ShWrite) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	a := c.Args
	id := a.GetOrNull("id").AsString()
	_, job, err := findJob(c, x, id, true)
	if err != nil {
		return value.Value{}, err
	}
	data := []byte(a.GetOrNull("data").AsString())
	if max := x.engine.Config().MaxStdinBytes; int64(len(data)) > max {
		return value.Value{}, argsError(c, "data", "larger than the policy's exec.maxStdinBytes ("+strconv.FormatInt(max, 10)+" bytes)")
	}
	eof := a.GetOrNull("eof").AsBool()
	wait := writeWait
	if rem := c.Remaining(); rem >= 0 && rem < wait {
		wait = rem
	}
	n, err := job.Write(data, eof, time.Now().Add(wait))
	info := job.Info()
	c.SetEndData(jobEnd("jobId", value.Str(id), "state", value.Str(info.State), "bytesWritten", value.Int(n), "eof", value.BoolOf(eof && err == nil)))
	if err != nil {
		return value.Value{}, writeError(id, info, err)
	}
	r := jobRecord(info)
	r.Set("bytesWritten", value.Int(n))
	r.Set("eof", value.BoolOf(eof))
	return value.RecordOf(r), nil
}

// writeError is sh.write's E_TOOL for a write the job did not take.
func writeError(id string, info proc.JobInfo, err error) error {
	extra := value.NewRecord(2)
	extra.Set("jobId", value.Str(id))
	var full *proc.InputFullError
	switch {
	case errors.Is(err, proc.ErrInputNotOpen):
		return &runtime.ToolError{Reason: "stdin_not_open", Extra: extra,
			Msg: "job " + id + " does not take input: its standard input was not kept open; start it with sh.start { ..., stdinOpen: true } (or pty: true) to write to it"}
	case errors.Is(err, proc.ErrInputClosed):
		return &runtime.ToolError{Reason: "stdin_closed", Extra: extra,
			Msg: "job " + id + "'s standard input was closed by an earlier sh.write with eof: true"}
	case errors.Is(err, proc.ErrJobEnded):
		return &runtime.ToolError{Reason: "job_ended", Extra: extra,
			Msg: "job " + id + " has ended (" + info.State + "); nothing reads its input. sh.tail shows its last output"}
	case errors.Is(err, proc.ErrInputBusy):
		return &runtime.ToolError{Reason: "stdin_busy", Extra: extra,
			Msg: "job " + id + " is still taking an earlier write; try again later"}
	case errors.As(err, &full):
		extra.Set("bytesWritten", value.Int(full.Written))
		return &runtime.ToolError{Reason: "stdin_full", Extra: extra,
			Msg: "job " + id + " did not read its input: " + strconv.Itoa(full.Written) + " of the bytes were taken before sh.write gave up; read its output (sh.tail) or write less at a time"}
	}
	return &runtime.ToolError{Reason: "io_error", Extra: extra, Msg: "cannot write to job " + id + ": " + err.Error()}
}
