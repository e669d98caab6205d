package tools

import (
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/proc"
)

// ShNotify is the sh.notify tool: set the notifications of a running
// detached job (spec/exec.md §6.7). The keys given replace those
// settings; the others are kept. Matching goes on from the next new
// output, never replaying what came before.
type ShNotify struct{ cfg *Config }

// Name implements runtime.Tool.
func (ShNotify) Name() string { return "sh.notify" }

// Capability implements runtime.Tool.
func (ShNotify) Capability() string { return "sh.exec" }

// Mode implements runtime.Tool.
func (ShNotify) Mode() runtime.Mode { return runtime.ModeEffect }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (ShNotify) AwaitedOnStop() bool { return true }

var notifyParams = []runtime.Param{
	idParam,
	{Name: "command", Type: runtime.TypeString, Doc: "completion: a command run through the job's shell, the event on stdin"},
	{Name: "file", Type: runtime.TypeString, Doc: "completion: a file that gets one NDJSON line"},
	{Name: "output", Type: runtime.TypeRecord, Doc: "output match: { pattern, matchType?, stream?, command?, file? }"},
}

// Params implements runtime.Tool.
func (ShNotify) Params() []runtime.Param { return notifyParams }

// ClosedArgs implements runtime.ClosedArgs.
func (ShNotify) ClosedArgs() bool { return true }

// notifyRecord is the notify part of sh.notify's arguments.
func notifyRecord(a *value.Record) value.Value {
	r := value.NewRecord(3)
	for _, k := range []string{"command", "file", "output"} {
		if v, ok := a.Get(k); ok {
			r.Set(k, v)
		}
	}
	return value.RecordOf(r)
}

// CheckArgs implements runtime.ArgChecker.
func (ShNotify) CheckArgs(a *value.Record) []string {
	c := &argCheck{a: a}
	c.id()
	if _, msg := notifyArg(notifyRecord(a), ""); msg != "" {
		c.add(msg)
	}
	return c.issues
}

// Call implements runtime.Tool.
func (t ShNotify) Call(c *runtime.Call) (value.Value, error) {
	x := execFor(c, t.cfg)
	id := c.Args.GetOrNull("id").AsString()
	v, live, err := findJob(c, x, id, true)
	if err != nil {
		return value.Value{}, err
	}
	if live != nil {
		return value.Value{}, &runtime.ToolError{Msg: "job " + id + " is attached to this run; only detached jobs (sh.start { detach: true }) take notifications", Reason: "not_detached"}
	}
	sj := v.(*proc.StoredJob)
	given, _ := notifyArg(notifyRecord(c.Args), c.WorkDir)
	n := sj.Notify()
	if n == nil {
		n = &proc.Notify{}
	}
	if _, ok := c.Args.Get("command"); ok {
		n.Command = given.Command
	}
	if _, ok := c.Args.Get("file"); ok {
		n.File = given.File
	}
	if _, ok := c.Args.Get("output"); ok {
		n.Output = given.Output
	}
	st, _ := x.jobs.Store()
	if err := st.SetNotify(id, n); err != nil {
		return value.Value{}, &runtime.ToolError{Msg: "cannot set the notifications of job " + id + ": " + err.Error(), Reason: "job_not_running"}
	}
	info := sj.Info()
	c.SetEndData(jobEnd("jobId", value.Str(id), "state", value.Str(info.State)))
	return value.RecordOf(jobRecord(info)), nil
}
