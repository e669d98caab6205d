package mcpserver

// Progress and log notifications of a0_run (spec/mcp.md §9.1). A call
// that carries a progress token gets notifications/progress as its run
// advances: one per tool call started and ended, per job, per progress
// notification of an MCP server the run calls, and one every second
// whatever the run does. A client that has set a logging level gets
// notifications/message at or above it: failed checks (warning), tool
// errors (error), jobs started (info), and the logs of the MCP servers
// the run calls at their own level. Both come from the run's trace
// events, which a reporter watches without writing them anywhere.

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcpwire"
)

// ProgressEvery is how often a run with a progress token reports that it
// is still going when nothing else happened.
const ProgressEvery = time.Second

// mcpNoteQueue bounds the notifications waiting to be written; past it a
// progress notification is dropped (the next one carries the news) and so
// is a log message.
const mcpNoteQueue = 256

// mcpLogTextBytes bounds the text of one log message or progress message.
const mcpLogTextBytes = 1000

// LoggerName is the logger of the log messages a0_run sends about its own
// run; those forwarded from an MCP server a0 calls have the logger
// "mcp:<server>".
const LoggerName = "a0"

// mcpNote is one notification to send: a progress message, or a log
// message when level is set.
type mcpNote struct {
	msg    string
	level  mcpwire.LoggingLevel
	logger string
	data   map[string]any
}

// runReporter turns one run's trace events into notifications. Its Event
// method only queues them: a writer goroutine sends them in order, so a
// slow client never holds the run up. It is nil when the call asked for
// neither progress nor logs.
type runReporter struct {
	ctx   context.Context
	ss    *mcpwire.ServerSession
	token any  // the call's progress token; nil: no progress
	logs  bool // the client set a logging level
	begin time.Time

	queue chan mcpNote
	quit  chan struct{}
	wg    sync.WaitGroup

	mu      sync.Mutex
	stopped bool
	tools   int    // tool calls started
	doing   string // the tool call in progress ("" between calls)
}

// newRunReporter returns the reporter of a call, or nil when the call
// has no progress token and the session has no logging level.
func newRunReporter(ctx context.Context, req *mcpwire.CallToolRequest) *runReporter {
	if req == nil || req.Session == nil || req.Params == nil {
		return nil
	}
	token := req.Params.ProgressToken()
	logs := req.Session.LogLevel() != ""
	if !logs {
		// A client of the newer protocol sends its level with each
		// request instead of with logging/setLevel.
		_, logs = req.Params.Meta[mcpwire.MetaKeyLogLevel]
	}
	if token == nil && !logs {
		return nil
	}
	return &runReporter{ctx: ctx, ss: req.Session, token: token, logs: logs, begin: time.Now(),
		queue: make(chan mcpNote, mcpNoteQueue), quit: make(chan struct{})}
}

// start starts the writer and, with a progress token, the ticker.
func (r *runReporter) start() {
	if r == nil {
		return
	}
	r.wg.Add(1)
	go r.write()
	if r.token != nil {
		r.progress("started")
		r.wg.Add(1)
		go r.tick()
	}
}

// stop ends the ticker, lets the writer send what is queued and waits
// for it: no notification of the call follows its response.
func (r *runReporter) stop() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	close(r.quit)
	r.wg.Wait()
}

// write sends the queued notifications in order until stop, then those
// still queued.
func (r *runReporter) write() {
	defer r.wg.Done()
	n := 0
	send := func(note mcpNote) {
		if note.level != "" {
			_ = r.ss.Log(r.ctx, &mcpwire.LoggingMessageParams{Level: note.level, Logger: note.logger, Data: note.data})
			return
		}
		n++
		_ = r.ss.NotifyProgress(r.ctx, &mcpwire.ProgressNotificationParams{ProgressToken: r.token, Progress: float64(n), Message: note.msg})
	}
	for {
		select {
		case note := <-r.queue:
			send(note)
		case <-r.quit:
			for {
				select {
				case note := <-r.queue:
					send(note)
				default:
					return
				}
			}
		}
	}
}

// tick reports every ProgressEvery that the run is still going, and
// what it is doing.
func (r *runReporter) tick() {
	defer r.wg.Done()
	t := time.NewTicker(ProgressEvery)
	defer t.Stop()
	for {
		select {
		case <-r.quit:
			return
		case <-t.C:
			r.mu.Lock()
			msg := "running " + strconv.Itoa(int(time.Since(r.begin).Round(time.Second)/time.Second)) + "s"
			if r.doing != "" {
				msg += ": " + r.doing
			}
			r.mu.Unlock()
			r.progress(msg)
		}
	}
}

// enqueue queues a notification; it is dropped when the queue is full or
// the run has ended.
func (r *runReporter) enqueue(note mcpNote) {
	r.mu.Lock()
	stopped := r.stopped
	r.mu.Unlock()
	if stopped {
		return
	}
	select {
	case r.queue <- note:
	default:
	}
}

func (r *runReporter) progress(msg string) {
	if r.token != nil {
		r.enqueue(mcpNote{msg: clip(msg, mcpLogTextBytes)})
	}
}

// log queues a log message of the run (logger "a0"): data is
// {message, event, span?} plus extra members.
func (r *runReporter) log(level mcpwire.LoggingLevel, event string, sp diag.Span, msg string, extra map[string]any) {
	if !r.logs {
		return
	}
	data := map[string]any{"message": clip(msg, mcpLogTextBytes), "event": event}
	if sp.File != "" {
		data["span"] = sp.String()
	}
	for k, v := range extra {
		data[k] = v
	}
	r.enqueue(mcpNote{level: level, logger: LoggerName, data: data})
}

// static logs the static errors of a call whose program did not compile
// (warning: the program did not run).
func (r *runReporter) static(ds diag.List) {
	if r == nil || len(ds) == 0 {
		return
	}
	r.log(mcpwire.LoggingLevel("warning"), "static_error", spanOf(ds[0].Span), staticSummary(ds), map[string]any{"code": string(ds[0].Code)})
}

// Event implements runtime.TraceSink: it never fails the run.
func (r *runReporter) Event(ev runtime.TraceEvent) error {
	switch ev.Event {
	case "tool_start":
		tool := field(ev.Data, "tool")
		r.mu.Lock()
		r.tools++
		n := r.tools
		r.doing = tool + " (tool call " + strconv.Itoa(n) + ")"
		r.mu.Unlock()
		r.progress("tool call " + strconv.Itoa(n) + ": " + tool + " started")
	case "tool_end":
		tool := field(ev.Data, "tool")
		r.mu.Lock()
		n := r.tools
		r.doing = ""
		r.mu.Unlock()
		ms := field(ev.Data, "durationMs")
		if field(ev.Data, "outcome") == "err" {
			errText := field(ev.Data, "error")
			r.progress("tool call " + strconv.Itoa(n) + ": " + tool + " failed after " + ms + " ms")
			r.log(mcpwire.LoggingLevel("error"), "tool_error", ev.Span, "tool "+tool+" failed: "+errText, map[string]any{"tool": tool})
		} else {
			r.progress("tool call " + strconv.Itoa(n) + ": " + tool + " done in " + ms + " ms")
		}
	case "job_start":
		id := field(ev.Data, "jobId")
		r.progress("job " + id + " started")
		r.log(mcpwire.LoggingLevel("info"), "job_start", ev.Span, "job "+id+" started", map[string]any{"jobId": id})
	case "job_end":
		r.progress("job " + field(ev.Data, "jobId") + " ended")
	case "evidence":
		if rec := ev.Data.AsRecord(); rec != nil {
			if ok, _ := rec.Get("ok"); ok.Kind() == value.Bool && !ok.AsBool() {
				kind := field(ev.Data, "kind")
				msg := kind + " failed"
				if m := field(ev.Data, "msg"); m != "" {
					msg += ": " + m
				}
				r.log(mcpwire.LoggingLevel("warning"), kind+"_failed", ev.Span, msg, nil)
			}
		}
	case MCPProgressEvent:
		r.progress(serverProgressText(ev.Data))
	case MCPLogEvent:
		r.forwardLog(ev)
	case mcpServerStartEvent:
		r.serverStart(ev)
	}
	return nil
}

// mcpServerStartEvent is the trace event runtime/mcptool writes when it
// starts an MCP server: {server, transport, ms, ok, tools?, error?}.
const mcpServerStartEvent = "mcp_server_start"

// serverStart reports the start of an MCP server the run calls: info
// when it started, error when it could not.
func (r *runReporter) serverStart(ev runtime.TraceEvent) {
	name := field(ev.Data, "server")
	if field(ev.Data, "ok") == "false" {
		r.progress("MCP server " + name + " could not start")
		r.log(mcpwire.LoggingLevel("error"), ev.Event, ev.Span, "MCP server "+name+" could not start: "+field(ev.Data, "error"), map[string]any{"server": name})
		return
	}
	msg := "MCP server " + name + " started in " + field(ev.Data, "ms") + " ms"
	if t := field(ev.Data, "tools"); t != "" {
		msg += " (" + t + " tools)"
	}
	r.progress(msg)
	r.log(mcpwire.LoggingLevel("info"), ev.Event, ev.Span, msg, map[string]any{"server": name})
}

// The trace events runtime/mcptool writes for the notifications of the
// MCP servers a0 calls (spec/mcp.md §8).
const (
	MCPProgressEvent = "mcp_progress"
	MCPLogEvent      = "mcp_log"
)

// serverProgressText is the progress message of a server's progress
// notification: "<tool>: <message> (<progress>/<total>)".
func serverProgressText(d value.Value) string {
	msg := field(d, "tool") + ":"
	if m := field(d, "message"); m != "" {
		msg += " " + m
	}
	p := field(d, "progress")
	if t := field(d, "total"); t != "" {
		p += "/" + t
	}
	return msg + " (" + p + ")"
}

// forwardLog sends a server's log message on at its own level, with the
// logger "mcp:<server>".
func (r *runReporter) forwardLog(ev runtime.TraceEvent) {
	if !r.logs {
		return
	}
	level := mcpwire.LoggingLevel(field(ev.Data, "level"))
	switch level {
	case "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency":
	default:
		level = "info"
	}
	data := map[string]any{"server": field(ev.Data, "server")}
	if rec := ev.Data.AsRecord(); rec != nil {
		if v, ok := rec.Get("data"); ok {
			data["data"] = value.ToGo(v)
		}
		if v, ok := rec.Get("logger"); ok && v.Kind() == value.String {
			data["logger"] = v.AsString()
		}
	}
	r.enqueue(mcpNote{level: level, logger: "mcp:" + field(ev.Data, "server"), data: data})
}

// field is the member k of a trace event's data as text ("" when absent).
func field(d value.Value, k string) string {
	rec := d.AsRecord()
	if rec == nil {
		return ""
	}
	v, ok := rec.Get(k)
	if !ok || v.Kind() == value.Null {
		return ""
	}
	if v.Kind() == value.String {
		return v.AsString()
	}
	return value.JSON(v)
}

func spanOf(sp *diag.Span) diag.Span {
	if sp == nil {
		return diag.Span{}
	}
	return *sp
}
