// Package mcpserver is a0's Model Context Protocol server: it serves the
// A0 language over MCP as the tools a0_run, a0_check, a0_format, a0_help
// and a0_tools, and the resource a0://tools, on newline-delimited JSON-RPC
// (spec/embedding.md §10). `a0 mcp` is this server on stdin and stdout;
// an embedding host serves it with its own runtime.Env (its own tools)
// the same way.
//
// A Server is fixed at New: the environment, the grants, the budget
// ceilings and the result limit are the host's, and no client request can
// change them. Every a0_run call compiles and runs its source as an
// independent run.
//
// The connection answers a malformed line itself with a JSON-RPC error and
// carries on, refuses a request that reuses the id of a call in progress,
// and drops the response of a call the client cancelled. Tool results
// carry their structured content, with as text the same JSON (a0_run, up
// to its maxTextBytes argument) or a short summary, fitted to
// Options.MaxResultBytes. An a0_run call with a progress token gets
// progress notifications as its run advances, and a client that set a
// logging level gets log messages (progress.go).
//
// A host serves it with its own environment (see the package example and
// examples/mcpserve):
//
//	srv, err := mcpserver.New(mcpserver.Options{Env: env, Grants: grants, Ceiling: ceiling})
//	if err != nil { ... }
//	err = srv.Serve(ctx, os.Stdin, os.Stdout) // until stdin ends or ctx is cancelled
//	<-srv.Shutdown()                          // the runs in flight have stopped
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/format"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/help"
	"github.com/a0lang/a0/runtime/mcpwire"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/stdlib"
)

// mcpDefaultFile is the file label of spans when a call gives no filename.
const mcpDefaultFile = "source.a0"

// ToolsURI is the resource listing the A0 tools with their argument
// JSON Schemas.
const ToolsURI = "a0://tools"

// mcpHost is the state the server fixes at start.
type mcpHost struct {
	env       *runtime.Env
	grants    runtime.Grants
	ceiling   runtime.Budget
	maxResult int    // bytes one tool result may carry (--max-result-bytes)
	version   string // the implementation version the server reports
	errorHint func(e *runtime.Error, capabilities []string) string
	checkHint func(ds diag.List)
	onClose   func() // after the runs have returned, at shutdown

	// Runs in flight: shutdown cancels them and waits until they have
	// returned, so their run-end cleanup (stopping commands and jobs)
	// completes before the process exits.
	mu      sync.Mutex
	closed  bool
	runs    sync.WaitGroup
	stopAll context.Context
	stop    context.CancelCauseFunc
	// kill is tripped by the second signal: the stop sequences of every
	// run's commands then kill at once.
	kill *proc.KillSwitch

	closeOnce sync.Once

	// release hands the memory of a large run (or compilation) back to
	// the system.
	release mcpReleaser
}

// begin registers a run; it returns false once the server is shutting
// down. The returned context is also cancelled by shutdown, with its
// cause (the signal).
func (h *mcpHost) begin(ctx context.Context) (context.Context, func(), bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, nil, false
	}
	h.runs.Add(1)
	ctx, cancel := context.WithCancelCause(proc.WithKillSwitch(ctx, h.kill))
	unhook := context.AfterFunc(h.stopAll, func() { cancel(context.Cause(h.stopAll)) })
	return ctx, func() { unhook(); cancel(nil); h.runs.Done() }, true
}

// cancelRuns refuses new runs and cancels those in flight with cause.
func (h *mcpHost) cancelRuns(cause error) {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.stop(cause)
}

// shutdown cancels the runs in flight and closes when they have returned
// and the MCP servers a0 calls (which live for the session) are stopped.
func (h *mcpHost) shutdown() <-chan struct{} {
	h.cancelRuns(context.Canceled)
	done := make(chan struct{})
	go func() {
		h.runs.Wait()
		h.closeOnce.Do(func() {
			if h.onClose != nil {
				h.onClose()
			}
		})
		close(done)
	}()
	return done
}

// mcpSourceInput is the argument record of a0_run, a0_check and a0_format.
type mcpSourceInput struct {
	Source   *string `json:"source"`
	Filename string  `json:"filename"`
}

// mcpRunInput is the argument record of a0_run: a source, and the
// program's inputs.
type mcpRunInput struct {
	Source       *string         `json:"source"`
	Filename     string          `json:"filename"`
	Input        json.RawMessage `json:"input"`
	MaxTextBytes json.RawMessage `json:"maxTextBytes"`
}

// DefaultMaxTextBytes is the default of a0_run's maxTextBytes: the text
// content is the result's JSON when it has at most this many bytes.
const DefaultMaxTextBytes = 64 << 10

// mcpHelpInput is the argument record of a0_help.
type mcpHelpInput struct {
	Topic string `json:"topic"`
	Index bool   `json:"index"`
}

// JSON Schemas of the tools' inputs and outputs. The outputs are written by
// hand (not by reflection over Go types) so that A0 values keep their JSON
// rendering: record key order and JavaScript number text.
const (
	mcpSourceSchema = `{"type":"object","properties":{` +
		`"source":{"type":"string","description":"the A0 program text"},` +
		`"filename":{"type":"string","description":"file label used in diagnostic spans (default source.a0); no file is read"}},` +
		`"required":["source"],"additionalProperties":false}`
	mcpRunSchema = `{"type":"object","properties":{` +
		`"source":{"type":"string","description":"the A0 program text"},` +
		`"filename":{"type":"string","description":"file label used in diagnostic spans (default source.a0); no file is read"},` +
		`"input":{"type":"object","description":"the values of the inputs the program declares in its input { name: \"type\" } header, read as input.name; checked before the run (E_INPUT)"},` +
		`"maxTextBytes":{"type":"integer","minimum":0,"default":65536,"description":"the text content is the result's full JSON (the same as the structured content) when it has at most this many bytes, and a short summary otherwise; 0: always the summary"}},` +
		`"required":["source"],"additionalProperties":false}`
	mcpDiagSchema = `{"type":"object","description":"a diagnostic in the JSON form a0 prints","properties":{` +
		`"code":{"type":"string"},"message":{"type":"string"},` +
		`"span":{"type":"object","properties":{"file":{"type":"string"},"startLine":{"type":"integer"},"startCol":{"type":"integer"},"endLine":{"type":"integer"},"endCol":{"type":"integer"}}},` +
		`"hint":{"type":"string"},"details":{"type":"object"}},"required":["code","message"]}`
	mcpRunOutSchema = `{"type":"object","properties":{` +
		`"ok":{"type":"boolean","description":"true when exitCode is 0"},` +
		`"exitCode":{"type":"integer","description":"the exit code a0 run would give: 0 ok, 2 static error, 3 capability denied, 4 runtime or tool error, 5 failed assert or check"},` +
		`"value":{"description":"the program's return value; null when the run failed"},` +
		`"diagnostics":{"type":"array","items":` + mcpDiagSchema + `,"description":"the static diagnostics, or the one runtime error"},` +
		`"evidence":{"type":"array","items":{"type":"object"},"description":"the assert and check records (ok, msg, span, details), also when the run failed"},` +
		mcpTruncSchema + `,"valuePreview":{"type":"string","description":"when the value was omitted: the start of its JSON text"}},` +
		`"required":["ok","exitCode","value","diagnostics","evidence"]}`
	mcpCheckOutSchema = `{"type":"object","properties":{` +
		`"ok":{"type":"boolean","description":"true when the program has no static errors"},` +
		`"diagnostics":{"type":"array","items":` + mcpDiagSchema + `},` + mcpTruncSchema + `},` +
		`"required":["ok","diagnostics"]}`
	mcpFormatOutSchema = `{"type":"object","properties":{` +
		`"ok":{"type":"boolean","description":"true when the source parsed"},` +
		`"formatted":{"type":"string","description":"the program in canonical layout; empty when it does not parse"},` +
		`"diagnostics":{"type":"array","items":` + mcpDiagSchema + `,"description":"lex and parse errors"},` +
		`"warnings":{"type":"array","items":{"type":"string"}},` + mcpTruncSchema + `},` +
		`"required":["ok","formatted","diagnostics","warnings"]}`
	// mcpTruncSchema are the members a result over the size limit carries.
	mcpTruncSchema = `"truncated":{"type":"boolean","description":"present and true when members were omitted to fit the server's size limit"},` +
		`"size":{"type":"integer","description":"with truncated: the size in bytes of the full result"},` +
		`"omitted":{"type":"array","items":{"type":"string"},"description":"with truncated: the members replaced by an empty value"}`
	mcpHelpSchema = `{"type":"object","properties":{` +
		`"topic":{"type":"string","description":"syntax, types, tools, stdlib, caps, budget, flow, diagnostics or examples (a unique prefix is enough); empty for the quick reference"},` +
		`"index":{"type":"boolean","description":"with topic stdlib: list every function name"}},` +
		`"additionalProperties":false}`
)

// MaxCalls bounds the calls of one session in flight at once (each is a
// run with its own goroutine); a call beyond it is answered at once with
// error -32603 "too many requests in flight".
const MaxCalls = 1024

func boolPtr(b bool) *bool { return &b }

// server builds the MCP server with its tools and resources.
func (h *mcpHost) server() *mcpwire.Server {
	s := mcpwire.NewServer(&mcpwire.Implementation{Name: "a0", Title: "A0 interpreter", Version: h.version}, &mcpwire.ServerOptions{
		MaxConcurrent: MaxCalls,
		Instructions: "Run, check and format programs in A0, a small scripting language for agents. " +
			"Call a0_help for the language (a0_help with no topic is the quick reference). " +
			"Every a0_run call is an independent run under this server's capability policy and budget ceilings; " +
			"a program must declare the capabilities it uses in a cap { ... } header. " +
			"The resource " + ToolsURI + " indexes the tools A0 programs can call, by server; " + ToolsURI + "/<server> and the tool a0_tools give their A0 signatures.",
	})
	readOnly := &mcpwire.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: boolPtr(false)}
	s.AddTool(&mcpwire.Tool{
		Name: "a0_run",
		Description: "Check and run an A0 program under the server's policy and budget ceilings. " +
			"Returns {ok, exitCode, value, diagnostics, evidence} as structured content; the text content is the same JSON when it has at most maxTextBytes (default 65536) bytes, else a short summary; isError is true when exitCode is not 0. " +
			"With a progress token, the run reports progress (each tool call, and every second) and the progress of the MCP servers it calls. " +
			"A result over the server's size limit (" + strconv.Itoa(h.maxResult) + " bytes) omits its value (truncated: true, size, valuePreview). " +
			"A0 programs cannot read standard input: put the data in the source, or pass it in \"input\" to a program that declares input { name: \"type\", ... } and reads input.name. " + h.grantedText(),
		InputSchema:  json.RawMessage(mcpRunSchema),
		OutputSchema: json.RawMessage(mcpRunOutSchema),
		Annotations:  &mcpwire.ToolAnnotations{Title: "Run an A0 program", DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(true)},
	}, guard(func(ctx context.Context, req *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
		return h.runTool(ctx, req)
	}))
	s.AddTool(&mcpwire.Tool{
		Name:         "a0_check",
		Description:  "Statically check an A0 program (syntax, names, declared capabilities, tool modes) without running it. Returns {ok, diagnostics}.",
		InputSchema:  json.RawMessage(mcpSourceSchema),
		OutputSchema: json.RawMessage(mcpCheckOutSchema),
		Annotations:  withTitle(readOnly, "Check an A0 program"),
	}, guard(sourceTool(h.check)))
	s.AddTool(&mcpwire.Tool{
		Name:         "a0_format",
		Description:  "Print an A0 program in canonical layout, comments kept. Returns {ok, formatted, diagnostics, warnings}.",
		InputSchema:  json.RawMessage(mcpSourceSchema),
		OutputSchema: json.RawMessage(mcpFormatOutSchema),
		Annotations:  withTitle(readOnly, "Format an A0 program"),
	}, guard(sourceTool(h.format)))
	s.AddTool(&mcpwire.Tool{
		Name: "a0_help",
		Description: "The A0 language reference (the text of a0 help). No topic: the quick reference. Topics: " +
			strings.Join(help.Topics(), ", ") + ". The tools topic ends with the A0 signature of every tool (a0_tools gives one server, one tool in full, or a search).",
		InputSchema: json.RawMessage(mcpHelpSchema),
		Annotations: withTitle(readOnly, "A0 reference"),
	}, guard(h.help))
	s.AddResource(&mcpwire.Resource{
		URI:         ToolsURI,
		Name:        "a0-tools",
		Title:       "A0 tools",
		Description: "An index of the tools A0 programs can call, by server (the built-in fs, http and sh, and each MCP server): tool count, a one-line description, the tool names and the URI of the server's signatures.",
		MIMEType:    "application/json",
	}, func(context.Context, *mcpwire.ReadResourceRequest) (*mcpwire.ReadResourceResult, error) {
		return &mcpwire.ReadResourceResult{Contents: []*mcpwire.ResourceContents{{
			URI: ToolsURI, MIMEType: "application/json", Text: h.toolsIndexJSON(),
		}}}, nil
	})
	h.addToolViews(s)
	return s
}

// hintStatic lets the host add hints to a call's static diagnostics.
func (h *mcpHost) hintStatic(ds diag.List) {
	if h.checkHint != nil && len(ds) > 0 {
		h.checkHint(ds)
	}
}

// grantedText names the capabilities the server's policy grants, so an
// agent knows before it writes a program.
func (h *mcpHost) grantedText() string {
	r, ok := h.grants.(*policy.Resolved)
	if !ok {
		return ""
	}
	allowed := r.EffectiveAllow()
	if len(allowed) == 0 {
		return "This server's policy grants no capabilities: programs may compute but not call tools."
	}
	return "Capabilities this server's policy grants: " + strings.Join(allowed, ", ") + "."
}

func withTitle(a *mcpwire.ToolAnnotations, title string) *mcpwire.ToolAnnotations {
	c := *a
	c.Title = title
	return &c
}

// decodeArgs decodes a call's arguments strictly: unknown members are an
// error, as the input schemas say.
func decodeArgs(raw json.RawMessage, into any) error {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("invalid arguments: %s", plainArgError(err, into))
	}
	return nil
}

// errorResult is a tool-level failure the model can read and correct.
func errorResult(msg string) *mcpwire.CallToolResult {
	return &mcpwire.CallToolResult{IsError: true, Content: []mcpwire.Content{&mcpwire.TextContent{Text: msg}}}
}

// guard turns a panic in a tool handler into an error result. Handlers run
// on the server's goroutines, outside any recover of the host, so without it one
// bad request would take the whole server down.
func guard(f mcpwire.ToolHandler) mcpwire.ToolHandler {
	return func(ctx context.Context, req *mcpwire.CallToolRequest) (res *mcpwire.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = errorResult(fmt.Sprintf("internal error: %v", p)), nil
			}
		}()
		return f(ctx, req)
	}
}

// sourceTool adapts a handler of {source, filename} to an MCP tool handler.
func sourceTool(f func(ctx context.Context, file, src string) *mcpwire.CallToolResult) mcpwire.ToolHandler {
	return func(ctx context.Context, req *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
		var in mcpSourceInput
		if err := decodeArgs(req.Params.Arguments, &in); err != nil {
			return errorResult(err.Error()), nil
		}
		if in.Source == nil {
			return errorResult("invalid arguments: missing required property \"source\""), nil
		}
		file := in.Filename
		if file == "" {
			file = mcpDefaultFile
		}
		return f(ctx, file, *in.Source), nil
	}
}

// jsonObject writes a JSON object from ordered key / pre-rendered value
// pairs.
func jsonObject(kv ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		diag.AppendQuoted(&b, kv[i])
		b.WriteByte(':')
		b.WriteString(kv[i+1])
	}
	b.WriteByte('}')
	return b.String()
}

func jsonBool(b bool) string { return strconv.FormatBool(b) }

// jsonArray joins pre-rendered JSON values into an array.
func jsonArray(items []string) string { return "[" + strings.Join(items, ",") + "]" }

// staticDiags renders static diagnostics as a0 check prints them.
func staticDiags(ds diag.List) string {
	if len(ds) == 0 {
		return "[]"
	}
	return ds.JSONArray()
}

// runOptions are the options of every a0_run call: the same grants and
// ceilings as `a0 run` under the policy the server resolved at start (the
// tools' exec, fs and http settings are in the Env's tools).
// Like `a0 run`, the time budget counts from when the call arrived
// (compiling included).
func (h *mcpHost) runOptions(start time.Time) runtime.RunOptions {
	return runtime.RunOptions{Grants: h.grants, Ceiling: h.ceiling, Start: start}
}

// runTool is the a0_run handler: sourceTool's decoding plus "input" and
// "maxTextBytes".
func (h *mcpHost) runTool(ctx context.Context, req *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
	var in mcpRunInput
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return errorResult(err.Error()), nil
	}
	if in.Source == nil {
		return errorResult("invalid arguments: missing required property \"source\""), nil
	}
	maxText, msg := maxTextBytes(in.MaxTextBytes)
	if msg != "" {
		return errorResult("invalid arguments: " + msg), nil
	}
	file := in.Filename
	if file == "" {
		file = mcpDefaultFile
	}
	rc := runCall{maxText: maxText}
	var input map[string]any
	if len(in.Input) > 0 && string(in.Input) != "null" {
		input = map[string]any{}
		if d := runtime.InputObject(string(in.Input), "input", input); d != nil {
			defer h.release.callEnded()
			return h.runResult(rc, diag.ExitStatic, "null", jsonArray([]string{d.JSON(diag.FormRuntime)}), nil, string(d.Code)+": "+d.Message), nil
		}
	}
	rc.rep = newRunReporter(ctx, req)
	return h.run(ctx, rc, file, *in.Source, input), nil
}

// maxTextBytes reads a0_run's maxTextBytes: absent or null is the
// default, anything but a non-negative integer is refused (msg).
func maxTextBytes(raw json.RawMessage) (n int, msg string) {
	if len(raw) == 0 || string(raw) == "null" {
		return DefaultMaxTextBytes, ""
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f < 0 || f != math.Trunc(f) {
		return 0, "\"maxTextBytes\" must be a non-negative integer, not " + clip(string(raw), 40)
	}
	return int(min(f, math.MaxInt32)), ""
}

// runCall is what one a0_run call asks besides its program: the text
// bound, and the reporter of its progress and logs (nil: neither).
type runCall struct {
	maxText int
	rep     *runReporter
}

func (h *mcpHost) run(ctx context.Context, rc runCall, file, src string, input map[string]any) *mcpwire.CallToolResult {
	start := time.Now()
	defer h.release.callEnded()
	rc.rep.start()
	// The last notifications go out before the response.
	defer rc.rep.stop()
	prog, ds := h.env.CompileWith(file, src, runtime.CompileOptions{ToolSchemas: true})
	if len(ds) > 0 {
		h.hintStatic(ds)
		rc.rep.static(ds)
		return h.runResult(rc, diag.ExitStatic, "null", staticDiags(ds), nil, staticSummary(ds))
	}
	ctx, done, started := h.begin(ctx)
	if !started {
		return errorResult("the server is shutting down")
	}
	defer done()
	opts := h.runOptions(start)
	opts.Input = input
	if rc.rep != nil {
		opts.Observe = rc.rep
	}
	res, err := prog.Run(ctx, opts)
	evidence := []string{}
	if res != nil {
		for _, ev := range res.Evidence {
			evidence = append(evidence, value.JSON(ev))
		}
	}
	code := runtime.ExitCode(res, err)
	if err != nil {
		e, form := runtime.ErrorOf(err)
		if h.errorHint != nil {
			if hint := h.errorHint(e, prog.Capabilities()); hint != "" {
				e.Hint = hint
			}
		}
		d := e.Report()
		summary := string(d.Code) + ": " + d.Message
		if d.Hint != "" {
			// Clients that read only the text still learn the fix.
			summary += " Hint: " + d.Hint
		}
		return h.runResult(rc, code, "null", jsonArray([]string{d.JSON(form)}), evidence, summary)
	}
	return h.runResult(rc, code, value.JSON(res.Value), "[]", evidence, "")
}

// runResult is the result of a0_run: {ok, exitCode, value, diagnostics,
// evidence}, fitted to the limits (the value goes first, then the
// evidence). The text is the same JSON when it fits rc.maxText, else a
// summary: the exit code, the error or the start of the value, and the
// evidence count.
func (h *mcpHost) runResult(rc runCall, code int, val, diags string, evidence []string, errText string) *mcpwire.CallToolResult {
	ok := code == diag.ExitOK
	fields := []mcpField{
		{key: "ok", val: jsonBool(ok)},
		{key: "exitCode", val: strconv.Itoa(code)},
		{key: "value", val: val, omit: "null", preview: true},
		{key: "diagnostics", val: diags},
		{key: "evidence", val: jsonArray(evidence), omit: "[]"},
	}
	var b strings.Builder
	b.WriteString("exit " + strconv.Itoa(code))
	if ok {
		b.WriteString(" (ok)")
	}
	if errText != "" {
		b.WriteString(": " + clip(errText, h.summaryBytes()))
	} else {
		b.WriteString("; value: " + clip(val, h.summaryBytes()))
	}
	if len(evidence) > 0 {
		b.WriteString("; " + strconv.Itoa(len(evidence)) + " evidence records")
	}
	b.WriteString(".")
	return h.resultText(fields, b.String(), !ok, rc.maxText)
}

// staticSummary names the first static diagnostic and how many there are.
func staticSummary(ds diag.List) string {
	if len(ds) == 0 {
		return ""
	}
	d := ds[0]
	text := string(d.Code) + " at " + d.Span.File + ":" + strconv.Itoa(d.Span.Start.Line) + ":" + strconv.Itoa(d.Span.Start.Col) + ": " + d.Message
	if len(ds) > 1 {
		text += " (and " + strconv.Itoa(len(ds)-1) + " more)"
	}
	return text
}

func (h *mcpHost) check(_ context.Context, file, src string) *mcpwire.CallToolResult {
	defer h.release.callEnded()
	_, ds := h.env.CompileWith(file, src, runtime.CompileOptions{Literals: true})
	h.hintStatic(ds)
	summary := "ok: no static errors."
	if len(ds) > 0 {
		summary = strconv.Itoa(len(ds)) + " static errors; first: " + clip(staticSummary(ds), h.summaryBytes()) + "."
	}
	return h.result([]mcpField{
		{key: "ok", val: jsonBool(len(ds) == 0)},
		{key: "diagnostics", val: staticDiags(ds), omit: "[]"},
	}, summary, false)
}

func (h *mcpHost) format(_ context.Context, file, src string) *mcpwire.CallToolResult {
	defer h.release.callEnded()
	p, ds := parser.Parse(file, src, parser.Options{Signatures: stdlib.Params})
	if len(ds) > 0 {
		return h.result([]mcpField{
			{key: "ok", val: "false"},
			{key: "formatted", val: `""`},
			{key: "diagnostics", val: staticDiags(ds), omit: "[]"},
			{key: "warnings", val: "[]"},
		}, "the source does not parse: "+clip(staticSummary(ds), h.summaryBytes())+".", true)
	}
	out := format.Program(p)
	fields := []mcpField{
		{key: "ok", val: "true"},
		{key: "formatted", val: diag.QuoteJSON(out), omit: `""`},
		{key: "diagnostics", val: "[]"},
		{key: "warnings", val: "[]"},
	}
	summary := "formatted: " + strconv.Itoa(strings.Count(out, "\n")) + " lines in canonical layout."
	return h.result(fields, summary, false)
}

func (h *mcpHost) help(_ context.Context, req *mcpwire.CallToolRequest) (*mcpwire.CallToolResult, error) {
	var in mcpHelpInput
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return errorResult(err.Error()), nil
	}
	text, errText, code := help.Topic(in.Topic, in.Index)
	if code != 0 {
		return errorResult(errText), nil
	}
	if name, _ := help.Resolve(in.Topic); name == "tools" && in.Topic != "" && !in.Index {
		text += "\nTOOL SIGNATURES  (a0_tools: one server, one tool in full with its JSON Schemas, or a search)\n" + h.allSignaturesText()
	}
	if room := h.maxResult - mcpEnvelope; len(diag.QuoteJSON(text)) > room {
		note := "\n… (truncated: the text has " + strconv.Itoa(len(text)) + " bytes, over the server's limit of " + strconv.Itoa(h.maxResult) + ")\n"
		// Quoting grows the text (newlines, quotes): cut by the quoted size.
		cut := max(room-len(note)-2, 0)
		for cut > 0 && len(diag.QuoteJSON(mcpwire.UTF8Prefix(text, cut)))+len(note) > room {
			cut -= max(cut/16, 1)
		}
		text = mcpwire.UTF8Prefix(text, cut) + note
	}
	return &mcpwire.CallToolResult{Content: []mcpwire.Content{&mcpwire.TextContent{Text: text}}}, nil
}
