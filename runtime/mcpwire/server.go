package mcpwire

// The server side of MCP as a0 serves it (`a0 mcp`, spec/embedding.md
// §10): tools and resources, logging, progress, one session per
// connection. The behaviour follows the official Go SDK's server where a0
// relied on it (protocol negotiation, the errors of unknown tools and
// resources, the logging default), with JSON-RPC error codes where the SDK
// sent code 0.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ToolHandler answers a tools/call of one tool. An error is answered as a
// JSON-RPC error (a *Error as it is, any other as an internal error); a
// failure the model should read is a result with IsError set instead.
type ToolHandler func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error)

// ResourceHandler answers a resources/read of one resource.
type ResourceHandler func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error)

// CallToolRequest is a tools/call as a ToolHandler receives it.
type CallToolRequest struct {
	Session *ServerSession
	Params  *CallToolParamsRaw
}

// CallToolParamsRaw are the params of a tools/call with the arguments
// kept as their JSON text (nil when absent). Numbers in Meta are
// json.Number, so a progress token is sent back as it came.
type CallToolParamsRaw struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Meta      Meta            `json:"_meta,omitempty"`
}

// ProgressToken returns the call's _meta.progressToken, or nil.
func (p *CallToolParamsRaw) ProgressToken() any {
	if p == nil || p.Meta == nil {
		return nil
	}
	return p.Meta["progressToken"]
}

// ReadResourceRequest is a resources/read as a ResourceHandler receives
// it.
type ReadResourceRequest struct {
	Session *ServerSession
	Params  *ReadResourceParams
}

// MethodHandler answers one request (a call or a notification) of a
// session's client; for a notification the result is ignored.
type MethodHandler func(ctx context.Context, ss *ServerSession, req *Request) (result any, err error)

// Middleware wraps the handling of the client's requests, for example to
// watch the methods a session receives.
type Middleware func(next MethodHandler) MethodHandler

// ServerOptions configure a Server.
type ServerOptions struct {
	// Instructions are sent in the initialize answer.
	Instructions string
	// MaxConcurrent bounds the calls of one client handled at once; a
	// call beyond it is answered at once with an error. 0 means 64.
	MaxConcurrent int
}

// Server is an MCP server: its tools and resources, served to one client
// per session. Add tools and resources before the first session.
type Server struct {
	impl *Implementation
	opts ServerOptions

	mu         sync.Mutex
	tools      map[string]*serverTool
	resources  map[string]*serverResource
	middleware []Middleware
}

type serverTool struct {
	tool    *Tool
	handler ToolHandler
}

type serverResource struct {
	resource *Resource
	handler  ResourceHandler
}

// NewServer returns a server that names itself impl; opts may be nil.
func NewServer(impl *Implementation, opts *ServerOptions) *Server {
	s := &Server{impl: impl, tools: map[string]*serverTool{}, resources: map[string]*serverResource{}}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.MaxConcurrent <= 0 {
		s.opts.MaxConcurrent = 64
	}
	return s
}

// AddTool adds (or replaces) the tool t.Name, answered by h.
func (s *Server) AddTool(t *Tool, h ToolHandler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tools[t.Name] = &serverTool{tool: t, handler: h}
}

// AddResource adds (or replaces) the resource r.URI, read by h.
func (s *Server) AddResource(r *Resource, h ResourceHandler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resources[r.URI] = &serverResource{resource: r, handler: h}
}

// AddReceivingMiddleware wraps the handling of incoming requests; the
// first middleware given sees a request first.
func (s *Server) AddReceivingMiddleware(mw ...Middleware) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.middleware = append(s.middleware, mw...)
}

// Run serves one session on t until the client goes (it returns io.EOF),
// a write fails (it returns that error) or ctx ends (it returns ctx's
// error). Calls still running are cancelled, and Run returns once their
// handlers have.
func (s *Server) Run(ctx context.Context, t Transport) error {
	ss, err := s.Connect(ctx, t)
	if err != nil {
		return err
	}
	select {
	case <-ss.peer.Done():
		return ss.Wait()
	case <-ctx.Done():
		ss.Close()
		return ctx.Err()
	}
}

// Connect starts a session on a connection of t and returns it; the
// session ends when the client goes, a write fails or Close is called.
func (s *Server) Connect(ctx context.Context, t Transport) (*ServerSession, error) {
	conn, err := t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	h := MethodHandler(s.dispatch)
	for i := len(s.middleware) - 1; i >= 0; i-- {
		h = s.middleware[i](h)
	}
	s.mu.Unlock()
	ss := &ServerSession{server: s, ready: make(chan struct{})}
	ss.conn = &serverConn{Connection: conn, ss: ss}
	ss.peer = NewPeer(ss.conn, PeerOptions{
		MaxConcurrent: s.opts.MaxConcurrent,
		// initialize is answered before the next message is read, so
		// that what follows it sees the session initialized.
		Serial: func(method string) bool { return method == MethodInitialize },
		Handler: func(ctx context.Context, req *Request) (any, error) {
			<-ss.ready
			return ss.handle(ctx, h, req)
		},
	})
	close(ss.ready)
	return ss, nil
}

// ServerSession is one client's session.
type ServerSession struct {
	server *Server
	conn   *serverConn
	peer   *Peer
	ready  chan struct{} // closed once peer is set

	mu          sync.Mutex
	init        *InitializeParams
	version     string
	initialized bool
	level       LoggingLevel
	writeErr    error // the first failed write, which ended the session
	closeOnce   sync.Once
}

// serverConn ends the session at the first write that fails, so that a
// client that has gone from the server's output (but not its input)
// does not leave calls running.
type serverConn struct {
	Connection
	ss *ServerSession
}

func (c *serverConn) Write(ctx context.Context, msg Message) error {
	err := c.Connection.Write(ctx, msg)
	// ErrClosed: the session is ending already (a write that waited for
	// a client not reading its output was given up); it is not why.
	if err != nil && ctx.Err() == nil && !errors.Is(err, ErrClosed) {
		c.ss.mu.Lock()
		if c.ss.writeErr == nil {
			c.ss.writeErr = err
		}
		c.ss.mu.Unlock()
		// Close waits for the handlers, and this may be one of them.
		c.ss.closeOnce.Do(func() {
			go func() {
				<-c.ss.ready
				c.ss.peer.Close()
			}()
		})
	}
	return err
}

// EndCall passes the end of a call without an answer on to the
// connection, when it keeps state for calls (CallEnder).
func (c *serverConn) EndCall(id ID) {
	if e, ok := c.Connection.(CallEnder); ok {
		e.EndCall(id)
	}
}

// InitializeParams returns the client's initialize params, nil before.
func (ss *ServerSession) InitializeParams() *InitializeParams {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.init
}

// ProtocolVersion returns the negotiated protocol version, "" before
// initialize.
func (ss *ServerSession) ProtocolVersion() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.version
}

// Initialized reports whether the client has sent
// notifications/initialized after initialize.
func (ss *ServerSession) Initialized() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.initialized
}

// LogLevel returns the level the client set with logging/setLevel, ""
// while it has set none.
func (ss *ServerSession) LogLevel() LoggingLevel {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.level
}

// Close ends the session: the calls in flight are cancelled, and Close
// returns once their handlers have.
func (ss *ServerSession) Close() error { return ss.peer.Close() }

// Wait waits for the session to end and returns why: io.EOF when the
// client went, the error of the write that failed, or ErrClosed after
// Close.
func (ss *ServerSession) Wait() error {
	<-ss.peer.Done()
	ss.mu.Lock()
	werr := ss.writeErr
	ss.mu.Unlock()
	if werr != nil {
		return werr
	}
	return ss.peer.Err()
}

// NotifyProgress sends notifications/progress.
func (ss *ServerSession) NotifyProgress(ctx context.Context, params *ProgressNotificationParams) error {
	return ss.peer.Notify(ctx, NotifyProgress, params)
}

// Log sends notifications/message when its level is at or above the
// client's: the level of the tools/call ctx belongs to when that call
// carried one in _meta (MetaKeyLogLevel), else the level the client set
// with logging/setLevel. Until the client sets one, nothing is sent (as
// the Go SDK does; the MCP specification leaves the default open).
func (ss *ServerSession) Log(ctx context.Context, params *LoggingMessageParams) error {
	level, ok := ctx.Value(logLevelKey{}).(LoggingLevel)
	if !ok {
		level = ss.LogLevel()
	}
	if level == "" || levelRank(params.Level) < levelRank(level) {
		return nil
	}
	return ss.peer.Notify(ctx, NotifyMessage, params)
}

// logLevelKey is the context key of a call's own logging level.
type logLevelKey struct{}

// loggingLevels are the syslog levels, lowest first.
var loggingLevels = [...]LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// levelRank is a level's place in loggingLevels; an unknown level ranks
// as debug.
func levelRank(l LoggingLevel) int {
	for i, v := range loggingLevels {
		if v == l {
			return i
		}
	}
	return 0
}

func validLevel(l LoggingLevel) bool {
	return slices.Contains(loggingLevels[:], l)
}

// handle runs one request through the middleware and the dispatch; a
// panic becomes an internal error.
func (ss *ServerSession) handle(ctx context.Context, h MethodHandler, req *Request) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, NewError(CodeInternalError, fmt.Sprintf("internal error: %v", p))
		}
	}()
	return h(ctx, ss, req)
}

// serverMethods are the calls the server answers.
var serverMethods = map[string]bool{
	MethodInitialize: true, MethodPing: true, MethodListTools: true, MethodCallTool: true,
	MethodListResources: true, MethodListResourceTemplates: true, MethodReadResource: true, MethodSetLevel: true,
	methodListPrompts: true,
}

// methodListPrompts is answered with no prompts, as the SDK's server did,
// for clients that ask without looking at the capabilities.
const methodListPrompts = "prompts/list"

// dispatch is the server's own handling of a request.
func (s *Server) dispatch(ctx context.Context, ss *ServerSession, req *Request) (any, error) {
	if !req.IsCall() {
		if req.Method == MethodInitialized {
			ss.mu.Lock()
			if ss.init != nil {
				ss.initialized = true
			}
			ss.mu.Unlock()
		}
		// notifications/cancelled is the Peer's; others are ignored.
		return nil, nil
	}
	if !serverMethods[req.Method] {
		return nil, methodNotFound(req.Method)
	}
	switch req.Method {
	case MethodInitialize:
		return ss.initialize(req.Params)
	case MethodPing:
		return struct{}{}, nil
	}
	if ss.InitializeParams() == nil {
		return nil, NewError(CodeInvalidRequest, "method "+strconv.Quote(req.Method)+" is invalid before initialize")
	}
	switch req.Method {
	case MethodListTools:
		if err := checkCursor(req.Params); err != nil {
			return nil, err
		}
		return &ListToolsResult{Tools: s.toolList()}, nil
	case MethodCallTool:
		return s.callTool(ctx, ss, req.Params)
	case MethodListResources:
		if err := checkCursor(req.Params); err != nil {
			return nil, err
		}
		return &ListResourcesResult{Resources: s.resourceList()}, nil
	case MethodListResourceTemplates:
		if err := checkCursor(req.Params); err != nil {
			return nil, err
		}
		return &ListResourceTemplatesResult{ResourceTemplates: []*ResourceTemplate{}}, nil
	case MethodReadResource:
		return s.readResource(ctx, ss, req.Params)
	case methodListPrompts:
		if err := checkCursor(req.Params); err != nil {
			return nil, err
		}
		return struct {
			Prompts []struct{} `json:"prompts"`
		}{[]struct{}{}}, nil
	case MethodSetLevel:
		var p SetLoggingLevelParams
		if err := decodeParams(req.Params, &p); err != nil {
			return nil, err
		}
		if !validLevel(p.Level) {
			return nil, NewError(CodeInvalidParams, "invalid logging level "+strconv.Quote(string(p.Level))+"; the levels: debug, info, notice, warning, error, critical, alert, emergency")
		}
		ss.mu.Lock()
		ss.level = p.Level
		ss.mu.Unlock()
		return struct{}{}, nil
	}
	return nil, methodNotFound(req.Method)
}

// decodeParams decodes required params; their absence or a wrong shape
// is invalid params.
func decodeParams(raw json.RawMessage, into any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return NewError(CodeInvalidParams, `invalid params: "params" must be provided`)
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(into); err != nil {
		return NewError(CodeInvalidParams, "invalid params: "+err.Error())
	}
	return nil
}

// checkCursor refuses a list cursor: the server lists everything on one
// page, so it never hands one out.
func checkCursor(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var p ListParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return NewError(CodeInvalidParams, "invalid params: "+err.Error())
	}
	if p.Cursor != "" {
		return NewError(CodeInvalidParams, "invalid cursor")
	}
	return nil
}

func (ss *ServerSession) initialize(raw json.RawMessage) (any, error) {
	var p InitializeParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	s := ss.server
	ss.mu.Lock()
	if ss.init != nil {
		ss.mu.Unlock()
		return nil, NewError(CodeInvalidRequest, `duplicate "initialize" received`)
	}
	ss.init = &p
	ss.version = LatestProtocolVersion
	if slices.Contains(SupportedProtocolVersions, p.ProtocolVersion) {
		ss.version = p.ProtocolVersion
	}
	version := ss.version
	ss.mu.Unlock()
	caps := ServerCapabilities{Logging: &struct{}{}}
	s.mu.Lock()
	if len(s.tools) > 0 {
		caps.Tools = &ToolCapabilities{}
	}
	if len(s.resources) > 0 {
		caps.Resources = &ResourceCapabilities{}
	}
	s.mu.Unlock()
	return &InitializeResult{ProtocolVersion: version, Capabilities: caps, ServerInfo: s.impl, Instructions: s.opts.Instructions}, nil
}

// toolList is the tools by name.
func (s *Server) toolList() []*Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Tool, 0, len(s.tools))
	for _, t := range s.tools {
		out = append(out, t.tool)
	}
	slices.SortFunc(out, func(a, b *Tool) int { return cmpString(a.Name, b.Name) })
	return out
}

// resourceList is the resources by URI.
func (s *Server) resourceList() []*Resource {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Resource, 0, len(s.resources))
	for _, r := range s.resources {
		out = append(out, r.resource)
	}
	slices.SortFunc(out, func(a, b *Resource) int { return cmpString(a.URI, b.URI) })
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (s *Server) callTool(ctx context.Context, ss *ServerSession, raw json.RawMessage) (any, error) {
	p := new(CallToolParamsRaw)
	if err := decodeParams(raw, p); err != nil {
		return nil, err
	}
	if string(p.Arguments) == "null" {
		p.Arguments = nil
	}
	s.mu.Lock()
	st := s.tools[p.Name]
	var names []string
	if st == nil {
		for n := range s.tools {
			names = append(names, n)
		}
	}
	s.mu.Unlock()
	if st == nil {
		// The names the server has, so the client can correct the call.
		slices.Sort(names)
		return nil, NewError(CodeInvalidParams, "unknown tool "+strconv.Quote(p.Name)+"; this server's tools: "+strings.Join(names, ", "))
	}
	if l, ok := p.Meta[MetaKeyLogLevel].(string); ok && validLevel(LoggingLevel(l)) {
		ctx = context.WithValue(ctx, logLevelKey{}, LoggingLevel(l))
	}
	res, err := st.handler(ctx, &CallToolRequest{Session: ss, Params: p})
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, NewError(CodeInternalError, "internal error: the tool "+strconv.Quote(p.Name)+" gave no result")
	}
	return res, nil
}

func (s *Server) readResource(ctx context.Context, ss *ServerSession, raw json.RawMessage) (any, error) {
	p := new(ReadResourceParams)
	if err := decodeParams(raw, p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	sr := s.resources[p.URI]
	s.mu.Unlock()
	if sr == nil {
		data, _ := json.Marshal(map[string]string{"uri": p.URI})
		return nil, &Error{Code: CodeInvalidParams, Message: "Resource not found", Data: data}
	}
	res, err := sr.handler(ctx, &ReadResourceRequest{Session: ss, Params: p})
	if err != nil {
		return nil, err
	}
	if res == nil || res.Contents == nil {
		return nil, NewError(CodeInternalError, "internal error: reading resource "+p.URI+" gave no contents")
	}
	for _, c := range res.Contents {
		if c.URI == "" {
			c.URI = p.URI
		}
		if c.MIMEType == "" {
			c.MIMEType = sr.resource.MIMEType
		}
	}
	return res, nil
}
