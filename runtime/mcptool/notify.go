package mcptool

// The notifications a server sends during a call (spec/mcp.md §8): every
// tools/call a0 sends carries a progress token of its own, and the
// notifications/progress a server sends for it become mcp_progress trace
// events of the call; the notifications/message (logs) a server sends
// while calls are in flight become mcp_log events of each of those calls.
// a0 asks a server that declares logging for messages at level info and
// above when it starts (logging/setLevel, sent beside tools/list). Both are masked like the server's results, and
// bounded.

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcpwire"
)

// The trace events of a server's notifications.
const (
	// ProgressEvent is a server's notifications/progress for a call:
	// {server, tool, progress, total?, message?}.
	ProgressEvent = "mcp_progress"
	// LogEvent is a server's notifications/message during a call:
	// {server, tool, level, logger?, data}.
	LogEvent = "mcp_log"
)

// LogLevel is the level a0 asks servers that declare logging to log at.
const LogLevel = "info"

// notifyDataBytes bounds the JSON of a log message's data in the trace:
// larger data is kept as the start of its JSON text.
const notifyDataBytes = 4 << 10

// maxNotifyEvents bounds the events one call's notifications add to the
// trace; a server that sends more has the rest dropped.
const maxNotifyEvents = 1000

// setLevelWait bounds the wait for the answer to the logging/setLevel
// request sent at a start.
const setLevelWait = 2 * time.Second

// notifyRoute is one call in flight: where its notifications go.
type notifyRoute struct {
	mu     sync.Mutex
	closed bool
	n      int // events written
	call   *runtime.Call
	srv    *server
	tool   string // the A0 name
	cs     *mcpwire.ClientSession
}

// notifyRoutes are the calls in flight of every server, by progress token
// and by session.
type notifyRoutes struct {
	mu        sync.Mutex
	next      int64
	byToken   map[string]*notifyRoute
	bySession map[*mcpwire.ClientSession]map[*notifyRoute]bool
}

var routes = &notifyRoutes{byToken: map[string]*notifyRoute{}, bySession: map[*mcpwire.ClientSession]map[*notifyRoute]bool{}}

// open gives params a progress token of its own and routes the
// notifications of the call to c's trace until the returned function is
// called.
func (rs *notifyRoutes) open(params *mcpwire.CallToolParams, cs *mcpwire.ClientSession, c *runtime.Call, s *server, tool string) func() {
	rt := &notifyRoute{call: c, srv: s, tool: tool, cs: cs}
	rs.mu.Lock()
	rs.next++
	token := "a0-" + strconv.FormatInt(rs.next, 10)
	rs.byToken[token] = rt
	if rs.bySession[cs] == nil {
		rs.bySession[cs] = map[*notifyRoute]bool{}
	}
	rs.bySession[cs][rt] = true
	rs.mu.Unlock()
	if params.Meta == nil {
		params.Meta = mcpwire.Meta{}
	}
	params.Meta["progressToken"] = token
	return func() {
		rs.mu.Lock()
		delete(rs.byToken, token)
		if m := rs.bySession[cs]; m != nil {
			delete(m, rt)
			if len(m) == 0 {
				delete(rs.bySession, cs)
			}
		}
		rs.mu.Unlock()
		// A notification being written finishes first; none follows.
		rt.mu.Lock()
		rt.closed = true
		rt.mu.Unlock()
	}
}

// emit writes one event to the route's call, unless the call has ended
// or has had maxNotifyEvents already.
func (rt *notifyRoute) emit(event string, d *value.Record) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed || rt.n >= maxNotifyEvents {
		return
	}
	rt.n++
	_ = rt.call.Emit(event, value.RecordOf(d))
}

// mask masks the secrets of the route's server in v (the server's lock is
// not taken: a notification may arrive while a start holds it).
func (rt *notifyRoute) mask(v value.Value) value.Value {
	if m := rt.srv.mask.Load(); m != nil {
		return value.MapStrings(v, m.String, true)
	}
	return v
}

// progress handles a server's notifications/progress.
func (rs *notifyRoutes) progress(_ context.Context, req *mcpwire.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil {
		return
	}
	token, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	rt := rs.route(token, req.Session)
	if rt == nil {
		return
	}
	d := value.NewRecord(5)
	d.Set("server", value.Str(rt.srv.cfg.Name))
	d.Set("tool", value.Str(rt.tool))
	d.Set("progress", value.Num(req.Params.Progress))
	if req.Params.Total != 0 {
		d.Set("total", value.Num(req.Params.Total))
	}
	if req.Params.Message != "" {
		d.Set("message", rt.mask(value.Str(mcpwire.UTF8Prefix(req.Params.Message, notifyDataBytes))))
	}
	rt.emit(ProgressEvent, d)
}

// route returns the call in flight on session cs with progress token
// token, or nil. Tokens are a0's own and easy to guess ("a0-N"), so the
// session is checked too: a server cannot post progress to another
// server's call.
func (rs *notifyRoutes) route(token string, cs *mcpwire.ClientSession) *notifyRoute {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rt := rs.byToken[token]
	if rt == nil || rt.cs != cs {
		return nil
	}
	return rt
}

// log handles a server's notifications/message: an event in the trace of
// each call in flight on that session.
func (rs *notifyRoutes) log(_ context.Context, req *mcpwire.LoggingMessageRequest) {
	if req == nil || req.Params == nil {
		return
	}
	rs.mu.Lock()
	var targets []*notifyRoute
	for rt := range rs.bySession[req.Session] {
		targets = append(targets, rt)
	}
	rs.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	var data value.Value
	if b, err := json.Marshal(req.Params.Data); err == nil && len(b) <= notifyDataBytes {
		data, err = value.ParseJSON(string(b))
		if err != nil {
			data = value.Str(string(b))
		}
	} else if err == nil {
		data = value.Str(mcpwire.UTF8Prefix(string(b), notifyDataBytes) + "…")
	} else {
		data = value.NullValue
	}
	for _, rt := range targets {
		d := value.NewRecord(5)
		d.Set("server", value.Str(rt.srv.cfg.Name))
		d.Set("tool", value.Str(rt.tool))
		d.Set("level", value.Str(mcpwire.UTF8Prefix(string(req.Params.Level), 20)))
		if req.Params.Logger != "" {
			d.Set("logger", rt.mask(value.Str(mcpwire.UTF8Prefix(req.Params.Logger, 200))))
		}
		d.Set("data", rt.mask(data))
		rt.emit(LogEvent, d)
	}
}

// notificationWanted reports whether a server's notification, by its
// method as JSON text, is decoded and handled: progress and log messages
// are; a0 uses no other.
func notificationWanted(method string) bool {
	return method == `"notifications/progress"` || method == `"notifications/message"`
}

// clientOptions are the options of every client a0 connects to a server
// with: its notifications are routed to the calls in flight.
func clientOptions() *mcpwire.ClientOptions {
	return &mcpwire.ClientOptions{ProgressNotificationHandler: routes.progress, LoggingMessageHandler: routes.log}
}

// askForLogs asks a server that declares logging to send messages at
// LogLevel and above. The request goes out beside the tools/list of the
// start; the returned function waits for its answer, at most
// setLevelWait, so that the first call's messages are not missed and a
// server that never answers does not hold the start up for long.
func askForLogs(ctx context.Context, cs *mcpwire.ClientSession) (wait func()) {
	ir := cs.InitializeResult()
	if ir == nil || ir.Capabilities.Logging == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(ctx, setLevelWait)
		defer cancel()
		_ = cs.SetLoggingLevel(ctx, &mcpwire.SetLoggingLevelParams{Level: LogLevel})
	}()
	return func() { <-done }
}
