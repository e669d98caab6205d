// Package mcptool makes the tools of Model Context Protocol servers A0
// tools (spec/mcp.md). A [Manager] holds the servers of a run, a REPL
// session or an embedding host: local servers it starts (lazily, at the
// first call of one of their tools, in their own process group) and
// remote ones it reaches over streamable HTTP. Each server tool becomes a
// [runtime.Tool] named "server.tool", gated by the capability of the same
// name, callable with `call?` only when the server marks it readOnlyHint,
// its arguments validated against its input schema before the call.
//
// It speaks MCP through a0's own client (runtime/mcpwire), not the
// official SDK, whose package initialisation every a0 command would pay.
package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcpwire"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
)

// Defaults.
const (
	// DefaultStartTimeout bounds starting a server and listing its tools.
	DefaultStartTimeout = 10 * time.Second
	// DefaultMaxResult bounds the JSON size of one tool result.
	DefaultMaxResult = 16 << 20
	// stopGrace is how long a local server has to exit after its stdin is
	// closed (and again after SIGTERM).
	stopGrace = 500 * time.Millisecond
	// pingWait is how long a server has to answer after a cancelled call
	// before it is stopped.
	pingWait = time.Second
	// protocolVersion is the MCP version a0 asks for; servers that know
	// only an older one negotiate it down.
	protocolVersion = mcpwire.LatestProtocolVersion
)

// ServerConfig configures one server.
type ServerConfig struct {
	// Name is the server's name, the namespace of its A0 tools: an A0
	// identifier other than fs, http and sh.
	Name string
	// Command is the argv of a local server (no shell).
	Command []string
	// Env holds variables set in a local server's environment, on top of
	// its minimal base (PATH, HOME, USER, LOGNAME, LANG, LANGUAGE, LC_*,
	// TZ, TMPDIR from the host's environment) and the variables EnvAllow
	// names.
	Env [][2]string
	// EnvAllow lists names (case-insensitive globs) of the host's
	// environment variables a local server also gets.
	EnvAllow []string
	// Sandbox, when set, confines a local server (instead of
	// Exec.Sandbox, which confines it otherwise).
	Sandbox *proc.Sandbox
	// Dir is a local server's working directory (absolute; "" for the
	// Exec configuration's WorkDir).
	Dir string
	// Tools is the allowlist of server tool names; nil allows every tool.
	Tools []string
	// Timeout bounds one call (0: only the run's time budget).
	Timeout time.Duration
	// URL is the streamable-HTTP endpoint of a remote server.
	URL string
	// HTTPClient reaches a remote server; it must enforce the host's
	// network rules (nil: http.DefaultClient).
	HTTPClient *http.Client
	// CheckURL, when set, is asked before connecting to URL; an error
	// refuses the call with E_CAP_DENIED.
	CheckURL func(url string) error
	// Exec is the exec engine configuration local servers start under:
	// its secret masks, exec.deny, its sandbox (unless Sandbox is set),
	// its sweep of escaped processes and its BaseEnv (the host's
	// environment); its env rules do not apply. The zero value means the
	// engine's defaults.
	Exec proc.Config
	// StartTimeout bounds start-up and listing (0: DefaultStartTimeout).
	StartTimeout time.Duration
	// MaxResult bounds a result's JSON size, and the size of any one
	// message of a local server (0: DefaultMaxResult).
	MaxResult int64
	// Version is the client version a0 announces.
	Version string
	// Secrets reads the secrets that placeholders "${secret:NAME}" in
	// Env values name; the values are masked in the server's results,
	// errors and stderr. Nil leaves placeholders as text.
	Secrets *SecretReader
}

func (c *ServerConfig) maxResult() int64 {
	if c.MaxResult > 0 {
		return c.MaxResult
	}
	return DefaultMaxResult
}

// FromPolicy turns the policy's `mcp` servers into server configurations
// sharing the exec configuration and, for remote servers, an HTTP client
// and URL check (nil for none). A server with its own `sandbox` is
// confined by it instead of the exec configuration's.
func FromPolicy(servers []*policy.MCPServer, exec proc.Config, client *http.Client, checkURL func(string) error) []ServerConfig {
	out := make([]ServerConfig, len(servers))
	for i, s := range servers {
		out[i] = ServerConfig{Name: s.Name, Command: s.Command, Env: s.Env, EnvAllow: s.EnvAllow, Dir: s.Cwd, Tools: s.Tools,
			Timeout: time.Duration(s.TimeoutMs) * time.Millisecond, URL: s.URL, HTTPClient: client, CheckURL: checkURL, Exec: exec}
		out[i].Sandbox = s.SandboxConfig // nil without a sandbox of its own
	}
	return out
}

// Manager holds MCP servers and their sessions. Its methods are safe for
// concurrent use. Close stops every server it started.
type Manager struct {
	mu      sync.Mutex
	servers []*server
	closed  atomic.Bool
	cacheState
}

// NewManager returns a manager for the given servers; none is started.
func NewManager(cfgs ...ServerConfig) (*Manager, error) {
	m := &Manager{}
	for _, c := range cfgs {
		if err := m.add(&server{cfg: c}); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Manager) add(s *server) error {
	c := &s.cfg
	if !policy.IsIdentifier(c.Name) || slices.Contains(policy.ReservedNamespaces, c.Name) {
		return fmt.Errorf("a0: MCP server name %q is not an A0 identifier, or is a built-in namespace", c.Name)
	}
	if s.session == nil && (len(c.Command) == 0) == (c.URL == "") {
		return fmt.Errorf("a0: MCP server %q needs exactly one of Command and URL", c.Name)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.server(c.Name) != nil {
		return fmt.Errorf("a0: MCP server %q added twice", c.Name)
	}
	m.servers = append(m.servers, s)
	return nil
}

// AddSession registers a client session the host connected itself
// (mcpwire.NewClient over any mcpwire.Transport) as the server name;
// tools, when not nil, is its allowlist. The manager uses the session but
// does not close it.
func (m *Manager) AddSession(name string, cs *mcpwire.ClientSession, tools []string) error {
	if cs == nil {
		return errors.New("a0: AddSession needs a session")
	}
	return m.add(&server{cfg: ServerConfig{Name: name, Tools: tools}, session: cs, external: true})
}

// server returns the server named name; m.mu must be held.
func (m *Manager) server(name string) *server {
	for _, s := range m.servers {
		if s.cfg.Name == name {
			return s
		}
	}
	return nil
}

func (m *Manager) lookup(name string) *server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.server(name)
}

// Servers returns the server names in the order they were added.
func (m *Manager) Servers() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, len(m.servers))
	for i, s := range m.servers {
		out[i] = s.cfg.Name
	}
	return out
}

// HasAllowlist reports whether the named server has a tools allowlist
// (its tool names are known without listing it).
func (m *Manager) HasAllowlist(name string) bool {
	s := m.lookup(name)
	return s != nil && s.cfg.Tools != nil
}

// Tools returns the tools to register for a program: every tool of a
// server's allowlist, and each name in used ("server.tool", from the
// program's tool calls and cap header) that belongs to a server without
// an allowlist, or every tool of such a server when it has been listed
// ([Manager.List]) or the schema cache holds a usable entry of it
// ([Manager.SetSchemaCache]). Nothing is started; a tool's mode and
// schema are learnt at its first call unless the server was listed or
// cached.
func (m *Manager) Tools(used []string) []runtime.Tool {
	m.mu.Lock()
	servers := slices.Clone(m.servers)
	m.mu.Unlock()
	var out []runtime.Tool
	seen := map[string]bool{}
	addTool := func(s *server, name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, &Tool{srv: s, name: name, m: m})
		}
	}
	for _, s := range servers {
		if s.cfg.Tools != nil {
			for _, t := range s.cfg.Tools {
				addTool(s, policy.ToolName(s.cfg.Name, t))
			}
			continue
		}
		s.mu.Lock()
		listed, entries := s.listed, s.sortedEntries()
		s.mu.Unlock()
		if listed {
			for _, e := range entries {
				addTool(s, e.name)
			}
			continue
		}
		if names := m.cachedNames(s); names != nil {
			for _, n := range names {
				addTool(s, n)
			}
			continue
		}
		for _, u := range used {
			if srv, rest, ok := strings.Cut(u, "."); ok && srv == s.cfg.Name && policy.IsIdentifier(rest) {
				addTool(s, u)
			}
		}
	}
	return out
}

// ToolInfo describes a server tool for listings (`a0 tools`).
type ToolInfo struct {
	// Name is the A0 name ("notes.get_weather").
	Name string
	// Server and Remote are the server's name and its name for the tool.
	Server, Remote string
	// Mode is ModeRead for tools marked readOnlyHint, else ModeEffect.
	Mode runtime.Mode
	// Description is the server's description of the tool.
	Description string
	// Schema is the tool's input JSON Schema as the server sent it
	// (members in its order).
	Schema json.RawMessage
	// OutputSchema is the tool's output JSON Schema (nil when the server
	// gives none): the shape of its structuredContent.
	OutputSchema json.RawMessage
	// Collision names the other server tools that map to the same A0 name
	// (such a tool cannot be called).
	Collision []string
	// NotCallable says why a0 refuses the tool's input schema (nested too
	// deep, or references that loop); such a tool cannot be called. ""
	// otherwise.
	NotCallable string
	// Unavailable names the reason a tool a0 cannot call is unavailable,
	// "requires tasks" for a tool the server runs only as a task
	// (execution.taskSupport "required"); "" otherwise. Listings show it
	// as "[unavailable: requires tasks]".
	Unavailable string
	// Builtin is the MCP method of one of a0's own resource tools
	// ("resources/read", "resources/list"); "" for a server tool.
	Builtin string
}

// List starts the named server if needed and returns its tools (those of
// its allowlist), sorted by A0 name.
func (m *Manager) List(ctx context.Context, name string) ([]ToolInfo, error) {
	s := m.lookup(name)
	if s == nil {
		return nil, fmt.Errorf("no MCP server named %q", name)
	}
	if _, err := s.ensure(ctx, m); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ToolInfo
	for _, e := range s.sortedEntries() {
		out = append(out, ToolInfo{Name: e.name, Server: name, Remote: e.remote, Mode: e.mode(), Description: e.desc,
			Schema: e.schema, OutputSchema: e.output, Collision: e.collision, NotCallable: e.refused, Unavailable: e.unavailableText(), Builtin: e.builtin})
	}
	return out, nil
}

// Close stops every server the manager started; a later call fails
// instead of starting one again. Sessions added with AddSession are left
// open.
func (m *Manager) Close() {
	m.closed.Store(true)
	m.mu.Lock()
	servers := slices.Clone(m.servers)
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.shutdown()
			s.mu.Unlock()
		}()
	}
	wg.Wait()
}

// entry is one listed server tool.
type entry struct {
	name, remote, desc string
	readOnly           bool
	schema             json.RawMessage
	output             json.RawMessage // the output schema (nil: none)
	checker            *argSchema
	collision          []string
	refused            string // why the input schema is refused ("": it is not)
	unavailable        string // a feature the tool needs that a0 does not offer (features.go)
	builtin            string // the method of one of a0's resource tools (resources.go)
}

func (e *entry) mode() runtime.Mode {
	if e.readOnly {
		return runtime.ModeRead
	}
	return runtime.ModeEffect
}

// server is one configured server and its session.
type server struct {
	cfg      ServerConfig
	external bool // session given by the host (AddSession)
	serverCacheState

	mu      sync.Mutex      // held while starting, listing and stopping
	failErr error           // the last start failure ...
	failCtx context.Context // ... and the run context it happened under
	session *mcpwire.ClientSession
	local   *localProc
	listed  bool
	entries map[string]*entry // by A0 name
	// mask is the mask set of the last local server started: secrets of
	// its environment are masked in every message that quotes the server.
	mask atomic.Pointer[proc.Masker]
}

func (s *server) sortedEntries() []*entry {
	out := make([]*entry, 0, len(s.entries))
	for _, e := range s.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// failure is a server that could not start, crashed or broke the
// protocol: E_TOOL naming the server.
func (s *server) failure(what string, err error) error {
	d := value.NewRecord(1)
	d.Set("server", value.Str(s.cfg.Name))
	return &runtime.ToolError{Msg: s.maskText("MCP server '" + s.cfg.Name + "' " + what + ": " + err.Error()), Reason: "mcp_server", Extra: d}
}

// maskText masks the secrets of the local server's environment in text.
func (s *server) maskText(text string) string {
	if m := s.mask.Load(); m != nil {
		return m.String(text)
	}
	return text
}

// ensure returns a live session, starting the server and listing its
// tools when needed. A local server that has exited is started again.
func (s *server) ensure(ctx context.Context, m *Manager) (cs *mcpwire.ClientSession, err error) {
	return s.ensureTraced(ctx, m, nil)
}

// ensureTraced is ensure that, when it starts the server, reports the
// start to emit (nil: not reported) as an mcp_server_start event.
func (s *server) ensureTraced(ctx context.Context, m *Manager, emit func(string, value.Value)) (cs *mcpwire.ClientSession, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// A start that just failed under this context (in Prepare) is not
	// tried again by the Call that follows: its error is reported once.
	if s.failErr != nil && s.failCtx == ctx {
		err = s.failErr
		s.failErr, s.failCtx = nil, nil
		return nil, err
	}
	s.failErr, s.failCtx = nil, nil
	defer func() {
		if err != nil && ctx.Err() == nil {
			s.failErr, s.failCtx = err, ctx
		}
	}()
	if s.session != nil && (s.local == nil || !s.local.exited()) {
		if !s.listed {
			if err := s.list(ctx); err != nil {
				return nil, err
			}
		}
		return s.session, nil
	}
	if s.external {
		return nil, s.failure("is closed", errors.New("the host's session ended"))
	}
	s.shutdown()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if m != nil && m.closed.Load() {
		return nil, s.failure("cannot start", errors.New("the session is over"))
	}
	if emit != nil {
		began := time.Now()
		defer func() { emit("mcp_server_start", s.startEvent(time.Since(began), err)) }()
	}
	st := s.cfg.StartTimeout
	if st <= 0 {
		st = DefaultStartTimeout
	}
	sctx, cancel := context.WithTimeout(ctx, st)
	defer cancel()
	var t mcpwire.Transport
	if s.cfg.URL != "" {
		if s.cfg.CheckURL != nil {
			if err := s.cfg.CheckURL(s.cfg.URL); err != nil {
				hint := "Change the server's url in the policy's \"mcp\" section, or the policy's http rules."
				if h, ok := err.(interface{ Hint() string }); ok && h.Hint() != "" {
					hint = h.Hint()
				}
				return nil, &runtime.Error{Diagnostic: diag.Diagnostic{Code: diag.ECapDenied, Message: "MCP server '" + s.cfg.Name + "' may not be reached: " + err.Error() + ".", Hint: hint},
					Details: details("server", s.cfg.Name, "url", s.cfg.URL, "reason", "url_refused")}
			}
		}
		hc := s.cfg.HTTPClient
		if hc == nil {
			hc = http.DefaultClient
		}
		t = &mcpwire.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: hc, MaxMessageBytes: s.cfg.maxResult(), Rewrite: sanitizeHTTP}
	} else {
		lp, lt, err := spawn(&s.cfg)
		if err != nil {
			return nil, s.failure("could not start", errors.New(startError(err)))
		}
		s.local, t = lp, lt
		s.mask.Store(lp.masker)
	}
	client := mcpwire.NewClient(&mcpwire.Implementation{Name: "a0", Version: s.cfg.Version}, clientOptions())
	cs, err = client.Connect(sctx, t, &mcpwire.ClientSessionOptions{ProtocolVersion: protocolVersion, MaxConcurrent: maxServerRequests})
	if err != nil {
		if ctx.Err() != nil {
			s.kill()
			return nil, ctx.Err()
		}
		err = s.explain(sctx, err)
		s.shutdown()
		return nil, s.failure("could not start", err)
	}
	s.session = cs
	logsAsked := askForLogs(sctx, cs)
	err = s.list(sctx)
	logsAsked()
	if err != nil {
		if ctx.Err() != nil {
			s.kill()
			return nil, ctx.Err()
		}
		s.shutdown()
		return nil, err
	}
	m.record(s, cs) // the schema cache (cache.go)
	return cs, nil
}

// explain adds the exit status and stderr of a local server, or the
// timeout, to a transport error.
func (s *server) explain(ctx context.Context, err error) error {
	msg := err.Error()
	if ctx.Err() == context.DeadlineExceeded {
		msg = "no answer to the MCP handshake in time"
	} else if s.local != nil && (errors.Is(err, io.EOF) || errors.Is(err, mcpwire.ErrClosed)) {
		msg = "the server process ended"
	}
	if s.local != nil {
		if d := s.local.describe(); d != "" {
			msg += " (" + d + ")"
		}
	}
	return errors.New(msg)
}

// list reads the server's tools (s.mu held), every page of tools/list,
// at most the server's result limit in all. A tool whose input schema
// a0 refuses (schemaProblem) is listed as not callable.
func (s *server) list(ctx context.Context) error {
	entries := map[string]*entry{}
	slot := &rawSlot{}
	ctx = context.WithValue(ctx, rawKey{}, slot)
	var pages []json.RawMessage
	var size int64
	cursor := ""
	seen := map[string]bool{}
	for {
		var raw json.RawMessage
		if err := s.session.Call(ctx, mcpwire.MethodListTools, &mcpwire.ListParams{Cursor: cursor}, &raw); err != nil {
			return s.failure("could not list its tools", s.explain(ctx, err))
		}
		if size += int64(len(raw)); size > s.cfg.maxResult() {
			return s.failure("could not list its tools", errors.New("the listing is larger than a0's limit of "+strconv.FormatInt(s.cfg.maxResult(), 10)+" bytes"))
		}
		var page mcpwire.ListToolsResult
		if err := json.Unmarshal(raw, &page); err != nil {
			return s.failure("could not list its tools", errors.New("its tools/list answer cannot be read: "+err.Error()))
		}
		pages = append(pages, raw)
		for _, t := range page.Tools {
			if t == nil {
				continue
			}
			s.listed1(entries, t, slot)
		}
		if page.NextCursor == "" {
			break
		}
		if seen[page.NextCursor] {
			return s.failure("could not list its tools", errors.New("its tools/list pages repeat the cursor "+strconv.Quote(mcpwire.UTF8Prefix(page.NextCursor, 200))))
		}
		seen[page.NextCursor] = true
		cursor = page.NextCursor
	}
	unavailable := unavailableTools(pages)
	for _, e := range entries {
		if f := unavailable[e.remote]; f != "" {
			e.unavailable = f
		}
	}
	s.addResourceTools(entries)
	s.entries, s.listed = entries, true
	return nil
}

// listed1 adds one listed tool to entries (s.mu held).
func (s *server) listed1(entries map[string]*entry, t *mcpwire.Tool, slot *rawSlot) {
	if s.cfg.Tools != nil && !slices.Contains(s.cfg.Tools, t.Name) {
		return
	}
	name := policy.ToolName(s.cfg.Name, t.Name)
	e := &entry{name: name, remote: t.Name, desc: s.maskText(t.Description), readOnly: t.Annotations != nil && t.Annotations.ReadOnlyHint}
	if old, dup := entries[name]; dup {
		old.collision = append(old.collision, t.Name)
		if len(old.collision) == 1 {
			old.collision = append([]string{old.remote}, old.collision...)
		}
		return
	}
	if present(t.OutputSchema) && value.JSONTextDepth([]byte(t.OutputSchema)) <= maxSchemaDepth {
		e.output = t.OutputSchema
	}
	if why := slot.refusal(t.Name); why != "" {
		e.refused = why
	} else if present(t.InputSchema) {
		e.schema = t.InputSchema
		why, unsure := schemaProblem(e.schema)
		switch {
		case why != "":
			e.refused = why
		case !unsure:
			e.checker = compileSchema(e.schema)
		}
	}
	entries[name] = e
}

// present reports whether a schema member was sent (and is not null).
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

// shutdown closes the session and stops a local server (s.mu held).
func (s *server) shutdown() {
	if s.external {
		return
	}
	cs, lp := s.session, s.local
	s.session, s.local, s.listed, s.entries = nil, nil, false, nil
	if cs != nil {
		done := make(chan struct{})
		go func() { cs.Close(); close(done) }()
		if lp == nil {
			select {
			case <-done:
			case <-time.After(2 * time.Second):
			}
		}
	}
	if lp != nil {
		lp.stop(stopGrace)
	}
}

// kill stops a local server at once (its start was cancelled); s.mu held.
func (s *server) kill() {
	lp := s.local
	s.local = nil
	s.shutdown()
	if lp != nil {
		lp.stop(0)
	}
}

// entry returns the listed tool name (nil when unknown or not listed).
func (s *server) entry(name string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.listed {
		return nil
	}
	return s.entries[name]
}

// masker returns the mask set of the local server behind session cs.
func (s *server) masker(cs *mcpwire.ClientSession) *proc.Masker {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.local == nil || s.session != cs {
		return nil
	}
	return s.local.masker
}

// afterCancel runs after a cancelled call (the client has sent
// notifications/cancelled): a server that does not answer a ping within
// pingWait is stopped.
func (s *server) afterCancel(cs *mcpwire.ClientSession) {
	ctx, cancel := context.WithTimeout(context.Background(), pingWait)
	defer cancel()
	if err := cs.Ping(ctx); err != nil {
		s.mu.Lock()
		if s.session == cs {
			s.shutdown()
		}
		s.mu.Unlock()
	}
}

// broken stops a server whose connection failed and returns the error.
func (s *server) broken(cs *mcpwire.ClientSession, err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg := err.Error()
	if s.local != nil && s.session == cs {
		if s.local.exited() || errors.Is(err, io.EOF) || errors.Is(err, mcpwire.ErrClosed) || strings.Contains(msg, "EOF") {
			msg = "the server process ended"
		}
		if d := s.local.describe(); d != "" {
			msg += " (" + d + ")"
		}
	}
	if s.session == cs {
		s.shutdown()
	}
	return s.failure("failed during the call", errors.New(msg))
}

// Tool is an MCP server tool as an A0 tool.
type Tool struct {
	srv  *server
	name string
	m    *Manager
}

// Name implements runtime.Tool: "server.tool".
func (t *Tool) Name() string { return t.name }

// Capability implements runtime.Tool: the tool's A0 name.
func (t *Tool) Capability() string { return t.name }

// Server returns the server's name (shown in tool_start and tool_end).
func (t *Tool) Server() string { return t.srv.cfg.Name }

// Mode implements runtime.Tool: ModeRead for a tool the server marks
// readOnlyHint, else ModeEffect; ModeRead until the server was listed
// (Prepare lists it before every call is checked).
func (t *Tool) Mode() runtime.Mode {
	if e := t.srv.entry(t.name); e != nil {
		return e.mode()
	}
	if ro, ok := t.cachedMode(); ok && !ro && !t.srv.isListed() {
		return runtime.ModeEffect
	}
	return runtime.ModeRead
}

// Params implements runtime.Tool; arguments are checked against the
// server's input schema instead (CheckArgs).
func (t *Tool) Params() []runtime.Param { return nil }

// Description returns the server's description (empty until listed).
func (t *Tool) Description() string {
	if e := t.srv.entry(t.name); e != nil {
		return e.desc
	}
	return ""
}

// Schema returns the tool's input schema (an object schema until listed).
func (t *Tool) Schema() json.RawMessage {
	if e := t.srv.entry(t.name); e != nil && e.schema != nil {
		return e.schema
	}
	return json.RawMessage(`{"type":"object"}`)
}

// OutputSchema returns the tool's output schema (nil until listed, or
// when the server gives none).
func (t *Tool) OutputSchema() json.RawMessage {
	if e := t.srv.entry(t.name); e != nil {
		return e.output
	}
	return nil
}

// ServerDescription returns the first line of what the tool's server
// says about itself at initialization (its title, else its
// instructions, else its name and version), control characters escaped;
// "" when it has not started.
func (t *Tool) ServerDescription() string {
	s := t.srv
	s.mu.Lock()
	cs := s.session
	s.mu.Unlock()
	if cs == nil {
		return ""
	}
	ir := cs.InitializeResult()
	if ir == nil {
		return ""
	}
	if ir.ServerInfo != nil && ir.ServerInfo.Title != "" {
		return OneLine(s.maskText(ir.ServerInfo.Title))
	}
	if d := OneLine(s.maskText(ir.Instructions)); d != "" || ir.ServerInfo == nil {
		return d
	}
	return OneLine(s.maskText(strings.TrimSpace(ir.ServerInfo.Name + " " + ir.ServerInfo.Version)))
}

// NotCallable says why the tool cannot be called (a refused input
// schema, several server tools mapping to its name); "" when it can, or
// until listed.
func (t *Tool) NotCallable() string {
	e := t.srv.entry(t.name)
	switch {
	case e == nil:
		return ""
	case len(e.collision) > 0:
		return "the server tools " + strings.Join(e.collision, ", ") + " map to this name"
	case e.refused == "":
		return e.unavailableText()
	}
	return e.refused
}

// Remote returns the server's own name for the tool ("" until listed).
func (t *Tool) Remote() string {
	if e := t.srv.entry(t.name); e != nil {
		return e.remote
	}
	return ""
}

// Prepare implements runtime.Preparer: it starts the server and lists its
// tools if needed. A start failure is left for Call to report (E_TOOL); a
// tool the server does not have is E_UNKNOWN_TOOL, a name two server tools
// map to is E_TOOL.
func (t *Tool) Prepare(ctx context.Context) error {
	return t.PrepareTraced(ctx, nil)
}

// PrepareTraced implements runtime.TracingPreparer: Prepare, tracing the
// server's start (mcp_server_start) when it starts it.
func (t *Tool) PrepareTraced(ctx context.Context, emit func(string, value.Value)) error {
	if _, err := t.srv.ensureTraced(ctx, t.m, emit); err != nil {
		if e, ok := err.(*runtime.Error); ok {
			return e
		}
		return nil
	}
	e := t.srv.entry(t.name)
	if e == nil {
		return &runtime.Error{Diagnostic: diag.Diagnostic{Code: diag.EUnknownTool, Message: "Unknown tool '" + t.name + "': the MCP server '" + t.srv.cfg.Name + "' has no such tool" + t.allowText() + ".",
			Hint: "Run 'a0 tools' to list the tools of the configured MCP servers."}, Details: details("tool", t.name, "server", t.srv.cfg.Name)}
	}
	if len(e.collision) > 0 {
		return &runtime.Error{Diagnostic: diag.Diagnostic{Code: diag.ETool, Message: "Tool '" + t.name + "' is ambiguous: the MCP server '" + t.srv.cfg.Name + "' has the tools " + quoteList(e.collision) + ", which all map to this name.",
			Hint: "List only one of them in the policy's mcp." + t.srv.cfg.Name + ".tools, or rename them on the server."}, Details: details("tool", t.name, "server", t.srv.cfg.Name, "reason", "name_collision")}
	}
	if e.unavailable != "" {
		return e.unavailableError(t.srv.cfg.Name)
	}
	if e.refused != "" {
		return &runtime.Error{Diagnostic: diag.Diagnostic{Code: diag.ETool, Message: "Tool '" + t.name + "' cannot be called: " + e.refused + ".",
			Hint: "Fix the tool's inputSchema on the MCP server '" + t.srv.cfg.Name + "'; a0 refuses schemas nested more than " + strconv.Itoa(maxSchemaDepth) + " levels deep and references that loop without reaching a property or an item."},
			Details: details("tool", t.name, "server", t.srv.cfg.Name, "reason", "schema_refused")}
	}
	return nil
}

func (t *Tool) allowText() string {
	if t.srv.cfg.Tools != nil {
		return " (among those its tools allowlist names)"
	}
	return ""
}

func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}

// CheckArgs implements runtime.ArgChecker with the tool's input schema.
func (t *Tool) CheckArgs(args *value.Record) []string {
	if e := t.srv.entry(t.name); e != nil && e.checker != nil {
		return e.checker.check(args)
	}
	return nil
}

// Call implements runtime.Tool: it sends tools/call and turns the result
// into an A0 value (spec/mcp.md §7).
func (t *Tool) Call(c *runtime.Call) (value.Value, error) {
	s := t.srv
	cs, err := s.ensureTraced(c.Ctx, t.m, func(ev string, d value.Value) { _ = c.Emit(ev, d) })
	if err != nil {
		if c.Ctx.Err() != nil {
			return value.Value{}, c.Ctx.Err()
		}
		return value.Value{}, err
	}
	e := s.entry(t.name)
	if e == nil {
		return value.Value{}, &runtime.Error{Diagnostic: *diag.New(diag.EUnknownTool, c.Span, "Unknown tool '"+t.name+"'.", "")}
	}
	// A result is not a write: mark the call as accounted for, so that a
	// "bytes" member in a result is not charged to maxBytesWritten.
	_ = c.ReserveWrite(0)
	if e.builtin != "" {
		return t.callResource(c, cs, e)
	}
	if e.unavailable != "" {
		return value.Value{}, e.unavailableError(s.cfg.Name)
	}
	// The arguments go out as A0 writes them, members in program order.
	args := json.RawMessage(value.JSON(value.RecordOf(c.Args)))
	ctx, cancel := withTimeout(c.Ctx, s.cfg.Timeout)
	defer cancel()
	params := &mcpwire.CallToolParams{Name: e.remote, Arguments: args}
	defer routes.open(params, cs, c, s, t.name)()
	// The result is kept as the server wrote it (structuredContent's
	// members in its order, content items of any type).
	var raw json.RawMessage
	err = cs.Call(ctx, mcpwire.MethodCallTool, params, &raw)
	if err != nil && errors.Is(err, mcpwire.ErrMessageTooLarge) {
		return value.Value{}, s.overLimit()
	}
	if err != nil {
		return value.Value{}, t.failed(ctx, c, cs, err)
	}
	if int64(len(raw)) > s.cfg.maxResult() {
		return value.Value{}, s.overLimit()
	}
	rv, perr := value.ParseJSON(string(raw))
	if perr != nil || rv.AsRecord() == nil {
		why := "its JSON is a " + rv.TypeName()
		if perr != nil {
			why = perr.Error()
		}
		return value.Value{}, s.failure("sent a result that is not an object", errors.New(why))
	}
	if m := s.masker(cs); m != nil {
		// Secret values of a local server's environment are masked in its
		// results as in its stderr (and as in sh.exec's output): in each
		// string of the decoded result, so a secret that JSON escapes
		// (quotes, backslashes, non-ASCII) is masked too.
		rv = value.MapStrings(rv, m.String, true) // keys too
	}
	out, isErr := Convert(rv.AsRecord())
	if isErr {
		msg := value.ToText(out)
		if out.Kind() != value.String {
			msg = value.JSON(out)
		}
		return value.Value{}, &runtime.ToolError{Msg: msg, Reason: "tool_error", Extra: rec("server", s.cfg.Name)}
	}
	return out, nil
}

// failed turns the error of a request to the server (ctx: the request's
// context, bounded by the server's timeout) into the call's error.
func (t *Tool) failed(ctx context.Context, c *runtime.Call, cs *mcpwire.ClientSession, err error) error {
	s := t.srv
	if ctx.Err() != nil {
		// The client sent notifications/cancelled. A server that then
		// does not answer a ping is stopped; at run end the manager
		// stops every server anyway.
		if c.Ctx.Err() != nil {
			go s.afterCancel(cs)
			return c.Ctx.Err()
		}
		s.afterCancel(cs)
		return &runtime.ToolError{Msg: "MCP server '" + s.cfg.Name + "' did not answer within its timeoutMs of " +
			strconv.FormatInt(s.cfg.Timeout.Milliseconds(), 10) + " ms; the call was cancelled", Reason: "timeout", Extra: rec("server", s.cfg.Name)}
	}
	var we *mcpwire.Error
	// An error a0 made itself (no answer, a broken stream) is a broken
	// connection, not the server's answer.
	if errors.As(err, &we) && we.Unwrap() == nil {
		return &runtime.ToolError{Msg: "MCP server '" + s.cfg.Name + "' refused the call: " + s.maskText(errorText(we)), Reason: "mcp_error",
			Extra: rec("server", s.cfg.Name)}
	}
	return s.broken(cs, err)
}

// maxErrorText bounds the server's error message a0 shows.
const maxErrorText = 4 << 10

// errorText is the message of a server's JSON-RPC error as a0 shows it:
// at most maxErrorText bytes (a server's message may be as long as its
// line), and its code when it gave no message.
func errorText(we *mcpwire.Error) string {
	msg := strings.TrimSpace(we.Message)
	if msg == "" {
		return "error " + strconv.FormatInt(we.Code, 10) + " without a message"
	}
	if len(msg) > maxErrorText {
		msg = mcpwire.UTF8Prefix(msg, maxErrorText) + "… (" + strconv.Itoa(len(msg)) + " bytes)"
	}
	return msg
}

// Convert turns a tools/call result record into the A0 value of the call:
// structuredContent when present (and not null); otherwise a single item
// is its value, no item is null, and several items are a list of their
// values: a text item without annotations is its text, the other items
// are records of the shapes of spec/mcp.md §7 (richItem). isErr
// reports the result's isError, in which case the value is the error text
// (the text items joined by newlines).
func Convert(res *value.Record) (v value.Value, isErr bool) {
	if b, ok := res.Get("isError"); ok && b.Kind() == value.Bool && b.AsBool() {
		isErr = true
	}
	var items []value.Value
	if c, ok := res.Get("content"); ok && c.Kind() == value.ListKind {
		items = c.AsList()
	}
	text := func(it value.Value) (string, bool) {
		r := it.AsRecord()
		if r == nil {
			return "", false
		}
		if ty, _ := r.Get("type"); ty.Kind() == value.String && ty.AsString() == "text" {
			if tx, ok := r.Get("text"); ok && tx.Kind() == value.String {
				return tx.AsString(), true
			}
		}
		return "", false
	}
	if isErr {
		var parts []string
		for _, it := range items {
			if s, ok := text(it); ok {
				parts = append(parts, s)
			}
		}
		if len(parts) == 0 {
			return value.Str("the tool reported an error without a message"), true
		}
		return value.Str(strings.Join(parts, "\n")), true
	}
	if sc, ok := res.Get("structuredContent"); ok && !sc.IsNull() {
		return sc, false
	}
	switch len(items) {
	case 0:
		return value.NullValue, false
	case 1:
		return richItem(items[0]), false
	}
	out := make([]value.Value, len(items))
	for i, it := range items {
		out[i] = richItem(it)
	}
	return value.ListOf(out), false
}

func details(kv ...string) value.Value { return value.RecordOf(rec(kv...)) }

func rec(kv ...string) *value.Record {
	r := value.NewRecord(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		r.Set(kv[i], value.Str(kv[i+1]))
	}
	return r
}
