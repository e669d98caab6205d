package main

// a0 mcp: a Model Context Protocol server on stdin/stdout (spec/embedding.md
// §10), built on the official Go SDK. It exposes the CLI's run, check, fmt
// and help as the MCP tools a0_run, a0_check, a0_format and a0_help.
//
// The server resolves the policy once, at start, exactly as `a0 run` does:
// the grants, the tool settings (exec configuration, fs and http scopes)
// and the policy's limits as budget ceilings are the server's, and no
// client request can change them. Every a0_run call compiles and runs its
// source as an independent run.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/format"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
)

// mcpDefaultFile is the file label of spans when a call gives no filename.
const mcpDefaultFile = "source.a0"

// mcpToolsURI is the resource listing the A0 tools with their argument
// JSON Schemas.
const mcpToolsURI = "a0://tools"

// mcpHost is the state the server fixes at start.
type mcpHost struct {
	env     *runtime.Env
	grants  runtime.Grants
	execCfg proc.Config
	ceiling runtime.Budget

	// Runs in flight: shutdown cancels them and waits until they have
	// returned, so their run-end cleanup (stopping commands and jobs)
	// completes before the process exits.
	mu      sync.Mutex
	closed  bool
	runs    sync.WaitGroup
	stopAll context.Context
	stop    context.CancelFunc
}

// begin registers a run; it returns false once the server is shutting
// down. The returned context is also cancelled by shutdown.
func (h *mcpHost) begin(ctx context.Context) (context.Context, func(), bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, nil, false
	}
	h.runs.Add(1)
	ctx, cancel := context.WithCancel(ctx)
	unhook := context.AfterFunc(h.stopAll, cancel)
	return ctx, func() { unhook(); cancel(); h.runs.Done() }, true
}

// shutdown cancels the runs in flight and waits for them to return.
func (h *mcpHost) shutdown() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.stop()
	h.runs.Wait()
}

// mcp runs the server until the client closes stdin or a signal arrives,
// then cancels the runs still going and waits for their cleanup.
func (c *cli) mcp() int {
	h, d := c.newMCPHost(c.inv.Flags["unsafe-allow-all"])
	if d != nil {
		io.WriteString(c.stderr, d.JSON(diag.FormCLI)+"\n")
		if d.Code == diag.EPolicy {
			return diag.ExitCap
		}
		return diag.ExitRuntime
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	t := &mcp.IOTransport{Reader: io.NopCloser(c.stdin), Writer: nopWriteCloser{c.stdout}}
	err := h.server().Run(ctx, t)
	h.shutdown()
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) && ctx.Err() == nil {
		io.WriteString(c.stderr, (&diag.Diagnostic{Code: diag.EIO, Message: "MCP session failed: " + err.Error()}).JSON(diag.FormCLI)+"\n")
		return diag.ExitRuntime
	}
	return diag.ExitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// newMCPHost resolves the policy and builds the environment every call
// uses.
func (c *cli) newMCPHost(allowAll bool) (*mcpHost, *diag.Diagnostic) {
	grants, execCfg, ceiling, d := c.resolveRunPolicy(allowAll)
	if d != nil {
		return nil, d
	}
	env, err := newEnv()
	if err != nil {
		return nil, &diag.Diagnostic{Code: diag.ERuntime, Message: err.Error()}
	}
	h := &mcpHost{env: env, grants: grants, execCfg: execCfg, ceiling: ceiling}
	h.stopAll, h.stop = context.WithCancel(context.Background())
	return h, nil
}

// mcpSourceInput is the argument record of a0_run, a0_check and a0_format.
type mcpSourceInput struct {
	Source   *string `json:"source"`
	Filename string  `json:"filename"`
}

// mcpHelpInput is the argument record of a0_help.
type mcpHelpInput struct {
	Topic string `json:"topic"`
	Index bool   `json:"index"`
}

// JSON Schemas of the tools' inputs and outputs. The outputs are written by
// hand (not by the SDK's reflection) so that A0 values keep their JSON
// rendering: record key order and JavaScript number text.
const (
	mcpSourceSchema = `{"type":"object","properties":{` +
		`"source":{"type":"string","description":"the A0 program text"},` +
		`"filename":{"type":"string","description":"file label used in diagnostic spans (default source.a0); no file is read"}},` +
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
		`"evidence":{"type":"array","items":{"type":"object"},"description":"the assert and check records (ok, msg, span, details), also when the run failed"}},` +
		`"required":["ok","exitCode","value","diagnostics","evidence"]}`
	mcpCheckOutSchema = `{"type":"object","properties":{` +
		`"ok":{"type":"boolean","description":"true when the program has no static errors"},` +
		`"diagnostics":{"type":"array","items":` + mcpDiagSchema + `}},` +
		`"required":["ok","diagnostics"]}`
	mcpFormatOutSchema = `{"type":"object","properties":{` +
		`"ok":{"type":"boolean","description":"true when the source parsed"},` +
		`"formatted":{"type":"string","description":"the program in canonical layout; empty when it does not parse"},` +
		`"diagnostics":{"type":"array","items":` + mcpDiagSchema + `,"description":"lex and parse errors"},` +
		`"warnings":{"type":"array","items":{"type":"string"}}},` +
		`"required":["ok","formatted","diagnostics","warnings"]}`
	mcpHelpSchema = `{"type":"object","properties":{` +
		`"topic":{"type":"string","description":"syntax, types, tools, stdlib, caps, budget, flow, diagnostics or examples (a unique prefix is enough); empty for the quick reference"},` +
		`"index":{"type":"boolean","description":"with topic stdlib: list every function name"}},` +
		`"additionalProperties":false}`
)

func boolPtr(b bool) *bool { return &b }

// server builds the MCP server with its tools and resources.
func (h *mcpHost) server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "a0", Title: "A0 interpreter", Version: version}, &mcp.ServerOptions{
		Instructions: "Run, check and format programs in A0, a small scripting language for agents. " +
			"Call a0_help for the language (a0_help with no topic is the quick reference). " +
			"Every a0_run call is an independent run under this server's capability policy and budget ceilings; " +
			"a program must declare the capabilities it uses in a cap { ... } header. " +
			"The resource " + mcpToolsURI + " lists the A0 tools with the JSON Schema of their arguments.",
	})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: boolPtr(false)}
	s.AddTool(&mcp.Tool{
		Name: "a0_run",
		Description: "Check and run an A0 program under the server's policy and budget ceilings. " +
			"Returns {ok, exitCode, value, diagnostics, evidence}; isError is true when exitCode is not 0. " +
			"A0 programs cannot read standard input: put the data in the source. " + h.grantedText(),
		InputSchema:  json.RawMessage(mcpSourceSchema),
		OutputSchema: json.RawMessage(mcpRunOutSchema),
		Annotations:  &mcp.ToolAnnotations{Title: "Run an A0 program", DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(true)},
	}, guard(sourceTool(h.run)))
	s.AddTool(&mcp.Tool{
		Name:         "a0_check",
		Description:  "Statically check an A0 program (syntax, names, declared capabilities, tool modes) without running it. Returns {ok, diagnostics}.",
		InputSchema:  json.RawMessage(mcpSourceSchema),
		OutputSchema: json.RawMessage(mcpCheckOutSchema),
		Annotations:  withTitle(readOnly, "Check an A0 program"),
	}, guard(sourceTool(h.check)))
	s.AddTool(&mcp.Tool{
		Name:         "a0_format",
		Description:  "Print an A0 program in canonical layout (comments are dropped). Returns {ok, formatted, diagnostics, warnings}.",
		InputSchema:  json.RawMessage(mcpSourceSchema),
		OutputSchema: json.RawMessage(mcpFormatOutSchema),
		Annotations:  withTitle(readOnly, "Format an A0 program"),
	}, guard(sourceTool(h.format)))
	s.AddTool(&mcp.Tool{
		Name: "a0_help",
		Description: "The A0 language reference (the text of a0 help). No topic: the quick reference. Topics: " +
			strings.Join(helpTopicNames, ", ") + ". The tools topic ends with the JSON Schema of every tool's arguments.",
		InputSchema: json.RawMessage(mcpHelpSchema),
		Annotations: withTitle(readOnly, "A0 reference"),
	}, guard(h.help))
	s.AddResource(&mcp.Resource{
		URI:         mcpToolsURI,
		Name:        "a0-tools",
		Title:       "A0 tools",
		Description: "The tools A0 programs can call: name, capability, mode (read: call? or do; effect: do only) and the JSON Schema of the argument record.",
		MIMEType:    "application/json",
	}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: mcpToolsURI, MIMEType: "application/json", Text: h.toolsJSON(),
		}}}, nil
	})
	return s
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

func withTitle(a *mcp.ToolAnnotations, title string) *mcp.ToolAnnotations {
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
func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// structured returns a result whose structured content is the JSON object
// obj, repeated as text for clients that only read text content.
func structured(obj string, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		IsError:           isError,
		StructuredContent: json.RawMessage(obj),
		Content:           []mcp.Content{&mcp.TextContent{Text: obj}},
	}
}

// guard turns a panic in a tool handler into an error result. Handlers run
// on the SDK's goroutines, outside realMain's recover, so without it one
// bad request would take the whole server down.
func guard(f mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = errorResult(fmt.Sprintf("internal error: %v", p)), nil
			}
		}()
		return f(ctx, req)
	}
}

// sourceTool adapts a handler of {source, filename} to an MCP tool handler.
func sourceTool(f func(ctx context.Context, file, src string) *mcp.CallToolResult) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
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

// runOptions are the options of every a0_run call: the same grants,
// ceilings and tool values (exec configuration, fs and http scopes) as
// `a0 run` under the policy the server resolved at start.
// Like `a0 run`, the time budget counts from when the call arrived
// (compiling included).
func (h *mcpHost) runOptions(start time.Time) runtime.RunOptions {
	return runtime.RunOptions{Grants: h.grants, Ceiling: h.ceiling, Values: toolValues(h.grants, h.execCfg), Start: start}
}

func (h *mcpHost) run(ctx context.Context, file, src string) *mcp.CallToolResult {
	start := time.Now()
	prog, ds := h.env.Compile(file, src)
	if len(ds) > 0 {
		return structured(jsonObject("ok", "false", "exitCode", strconv.Itoa(diag.ExitStatic), "value", "null",
			"diagnostics", staticDiags(ds), "evidence", "[]"), true)
	}
	ctx, done, started := h.begin(ctx)
	if !started {
		return errorResult("the server is shutting down")
	}
	defer done()
	res, err := prog.Run(ctx, h.runOptions(start))
	evidence := []string{}
	if res != nil {
		for _, ev := range res.Evidence {
			evidence = append(evidence, value.JSON(ev))
		}
	}
	code := runtime.ExitCode(res, err)
	val, diags := "null", []string{}
	if err != nil {
		e, form := runError(err)
		if hint := grantHint(e, h.grants, prog.Capabilities()); hint != "" {
			e.Hint = hint
		}
		diags = append(diags, e.Diagnostic().JSON(form))
	} else {
		val = value.JSON(res.Value)
	}
	ok := code == diag.ExitOK
	return structured(jsonObject("ok", jsonBool(ok), "exitCode", strconv.Itoa(code), "value", val,
		"diagnostics", jsonArray(diags), "evidence", jsonArray(evidence)), !ok)
}

func (h *mcpHost) check(_ context.Context, file, src string) *mcp.CallToolResult {
	_, ds := h.env.Compile(file, src)
	return structured(jsonObject("ok", jsonBool(len(ds) == 0), "diagnostics", staticDiags(ds)), false)
}

func (h *mcpHost) format(_ context.Context, file, src string) *mcp.CallToolResult {
	p, ds := parser.Parse(file, src, parser.Options{})
	if len(ds) > 0 {
		return structured(jsonObject("ok", "false", "formatted", `""`, "diagnostics", staticDiags(ds), "warnings", "[]"), true)
	}
	warnings := "[]"
	if format.HasComment(src) {
		warnings = `["formatting removes comments from the output"]`
	}
	return structured(jsonObject("ok", "true", "formatted", diag.QuoteJSON(format.Program(p)), "diagnostics", "[]", "warnings", warnings), false)
}

func (h *mcpHost) help(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in mcpHelpInput
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return errorResult(err.Error()), nil
	}
	text, errText, code := helpTopic(in.Topic, in.Index)
	if code != 0 {
		return errorResult(errText), nil
	}
	if name, _ := helpResolveTopic(in.Topic); name == "tools" && in.Topic != "" && !in.Index {
		text += "\nARGUMENT SCHEMAS  (JSON Schema of each tool's argument record)\n" + h.toolsJSON() + "\n"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
}

// toolsJSON lists the environment's tools with their argument schemas.
func (h *mcpHost) toolsJSON() string {
	type toolInfo struct {
		Name       string          `json:"name"`
		Capability string          `json:"capability"`
		Mode       string          `json:"mode"`
		Schema     json.RawMessage `json:"schema"`
	}
	var list []toolInfo
	for _, t := range h.env.Tools() {
		list = append(list, toolInfo{t.Name(), t.Capability(), t.Mode().String(), runtime.ToolSchema(t)})
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return fmt.Sprintf("[] (error: %v)", err)
	}
	return string(b)
}
