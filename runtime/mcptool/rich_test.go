package mcptool_test

import (
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/lang/value"
	a0 "github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/mcptool/mcptest"
	"github.com/a0lang/a0/runtime/tools"
)

// TestRichContent runs programs against the test server over stdio: an
// image decoded with base64.decode, audio, an embedded resource, text with
// annotations.
func TestRichContent(t *testing.T) {
	dir := t.TempDir()
	m, err := mcptool.NewManager(localRich(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	grants := grantsOf(t, `["notes.*"]`, `[]`)
	for _, tc := range []struct{ name, src, want string }{
		{"image", `cap { notes.image: true }
let img = call? notes.image {}
return { type: img.type, mimeType: img.mimeType, hex: base64.decode { in: img.data, as: "hex" }, annotations: img.annotations }`,
			`{"type":"image","mimeType":"image/png","hex":"` + hex.EncodeToString(mcptest.PNG()) + `","annotations":{"audience":["user"],"priority":0.5}}`},
		{"audio", `cap { notes.audio: true }
let a = call? notes.audio {}
return { mimeType: a.mimeType, hex: base64.decode { in: a.data, as: "hex" } }`,
			`{"mimeType":"audio/wav","hex":"` + hex.EncodeToString(mcptest.Audio) + `"}`},
		{"embedded", `cap { notes.embedded: true }
let r = call? notes.embedded {}
let text = get { in: r, path: "[0]" }
let blob = get { in: r, path: "[1]" }
return { text: text, blobHex: len { in: base64.decode { in: blob.blob, as: "hex" } }, blobMime: blob.mimeType, prio: blob.annotations.priority }`,
			`{"text":{"type":"resource","uri":"test://notes/readme","mimeType":"text/plain","text":"The notes server keeps short notes.\n"},"blobHex":` +
				value.FormatNumber(float64(2*len(mcptest.PNG()))) + `,"blobMime":"image/png","prio":0.5}`},
		{"annotated", `cap { notes.annotated: true }
return call? notes.annotated {}`, `{"type":"text","text":"for the user","annotations":{"audience":["user"],"priority":0.5}}`},
		{"link", `cap { notes.link: true }
return call? notes.link {}`, `["see the readme",{"type":"resource_link","uri":"test://notes/readme","name":"readme","mimeType":"text/plain","description":"What the server does."}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := runWith(t, m, grants, tc.src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := value.JSON(v); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestResourceLinkFollowed follows a resource link of a result with the
// gated resources_read tool, which the policy must grant.
func TestResourceLinkFollowed(t *testing.T) {
	dir := t.TempDir()
	m, err := mcptool.NewManager(localRich(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	src := `cap { notes.link: true, notes.resources_read: true }
let r = call? notes.link {}
let link = get { in: r, path: "[1]" }
let doc = call? notes.resources_read { uri: link.uri }
let logo = call? notes.resources_read { uri: "test://notes/logo.png" }
let c = get { in: logo, path: "contents[0]" }
return { doc: doc, logo: { uri: c.uri, mimeType: c.mimeType, hex: base64.decode { in: c.blob, as: "hex" } } }`
	v, err := runWith(t, m, grantsOf(t, `["notes.link","notes.resources_read"]`, `[]`), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"doc":{"contents":[{"uri":"test://notes/readme","mimeType":"text/plain","text":"The notes server keeps short notes.\n"}]},` +
		`"logo":{"uri":"test://notes/logo.png","mimeType":"image/png","hex":"` + hex.EncodeToString(mcptest.PNG()) + `"}}`
	if got := value.JSON(v); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Not granted: refused before the server is asked.
	_, err = runWith(t, m, grantsOf(t, `["notes.link"]`, `[]`), src, nil)
	if errCode(err) != "E_CAP_DENIED" {
		t.Errorf("without the grant: %v", err)
	}
	// resources_list.
	v, err = runWith(t, m, grantsOf(t, `["notes.resources_list"]`, `[]`), `cap { notes.resources_list: true }
return call? notes.resources_list {}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"resources":[{"uri":"test://notes/logo.png","name":"logo","mimeType":"image/png","description":null},` +
		`{"uri":"test://notes/readme","name":"readme","mimeType":"text/plain","description":"What the server does."}],` +
		`"templates":[{"uriTemplate":"test://notes/note/{id}","name":"note","mimeType":"text/plain","description":null}],"truncated":false}`
	if got := value.JSON(v); got != want {
		t.Errorf("resources_list: got  %s\nwant %s", got, want)
	}
	// A template's URI, filled in, is read like any other.
	v, err = runWith(t, m, grants(t), `cap { notes.resources_read: true }
return call? notes.resources_read { uri: "test://notes/note/7" }`, nil)
	if err != nil || value.JSON(v) != `{"contents":[{"uri":"test://notes/note/7","mimeType":"text/plain","text":"note 7"}]}` {
		t.Errorf("template: %s %v", value.JSON(v), err)
	}
	// A wrong argument is E_TOOL_ARGS; an unknown URI the server's error.
	_, err = runWith(t, m, grants(t), `cap { notes.resources_read: true }
return call? notes.resources_read { url: "x" }`, nil)
	if errCode(err) != "E_TOOL_ARGS" {
		t.Errorf("wrong argument: %v", err)
	}
	_, err = runWith(t, m, grants(t), `cap { notes.resources_read: true }
return call? notes.resources_read { uri: "test://nope" }`, nil)
	if errCode(err) != "E_TOOL" {
		t.Errorf("unknown uri: %v", err)
	}
	// The listing shows a0's resource tools.
	infos, err := m.List(t.Context(), "notes")
	if err != nil {
		t.Fatal(err)
	}
	var builtin []string
	for _, in := range infos {
		if in.Builtin != "" {
			builtin = append(builtin, in.Name+" "+in.Builtin+" "+in.Mode.String())
		}
	}
	if want := []string{"notes.resources_list resources/list read", "notes.resources_read resources/read read"}; !slices.Equal(builtin, want) {
		t.Errorf("listed %q, want %q", builtin, want)
	}
}

// localRich is the test server with its rich-content tools and resources.
func localRich(t *testing.T, dir string, args ...string) mcptool.ServerConfig {
	c := local(t, dir, args...)
	c.Env = append(c.Env, [2]string{"MCP_RICH", "1"})
	return c
}

func grants(t *testing.T) a0.Grants { return grantsOf(t, `["notes.*"]`, `[]`) }

// TestTaskOnlyToolRefused: a tool the server runs only as a task is listed
// as unavailable and refused before the server sees the call.
func TestTaskOnlyToolRefused(t *testing.T) {
	dir := t.TempDir()
	m, err := mcptool.NewManager(localRich(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, err = runWith(t, m, grants(t), `cap { notes.research: true }
return call? notes.research {}`, nil)
	var e *a0.Error
	if !errors.As(err, &e) || e.Code != "E_TOOL" {
		t.Fatalf("got %v", err)
	}
	if r := e.Details.AsRecord(); r == nil || value.JSON(e.Details) != `{"tool":"notes.research","server":"notes","reason":"unsupported_feature","feature":"tasks"}` {
		t.Errorf("details %s", value.JSON(e.Details))
	}
	if e.Hint == "" {
		t.Error("no hint")
	}
	if slices.Contains(calls(dir), "research") {
		t.Error("the server received the call")
	}
	// try catches it like any E_TOOL.
	v, err := runWith(t, m, grants(t), `cap { notes.research: true }
return try { return call? notes.research {} } catch { e } { return e.details.reason }`, nil)
	if err != nil || value.JSON(v) != `"unsupported_feature"` {
		t.Errorf("try: %v %v", value.JSON(v), err)
	}
	infos, err := m.List(t.Context(), "notes")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		want := ""
		if in.Name == "notes.research" {
			want = "requires tasks"
		}
		if in.Unavailable != want {
			t.Errorf("%s: Unavailable %q, want %q", in.Name, in.Unavailable, want)
		}
	}
}

// TestServerStartTraced: the first call of a server's tool traces
// mcp_server_start with its duration; later calls do not.
func TestServerStartTraced(t *testing.T) {
	dir := t.TempDir()
	m, err := mcptool.NewManager(localRich(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	tr := &sink{}
	if _, err := runWith(t, m, grants(t), `cap { notes.echo: true }
let a = call? notes.echo {}
return call? notes.echo {}`, tr); err != nil {
		t.Fatal(err)
	}
	var starts []a0.TraceEvent
	for _, ev := range tr.evs {
		if ev.Event == "mcp_server_start" {
			starts = append(starts, ev)
		}
	}
	if len(starts) != 1 {
		t.Fatalf("%d mcp_server_start events", len(starts))
	}
	r := starts[0].Data.AsRecord()
	if got := value.JSON(value.RecordOf(r)); r == nil || !slices.Equal(r.Keys(), []string{"server", "transport", "ms", "ok", "tools"}) ||
		r.GetOrNull("server").AsString() != "notes" || !r.GetOrNull("ok").AsBool() || r.GetOrNull("ms").AsNumber() < 0 {
		t.Errorf("event %s", got)
	}
	// A server that cannot start: ok false and the error.
	m2, _ := mcptool.NewManager(local(t, dir, "exit"))
	defer m2.Close()
	tr2 := &sink{}
	_, err = runWith(t, m2, grants(t), `cap { notes.echo: true }
return call? notes.echo {}`, tr2)
	if errCode(err) != "E_TOOL" {
		t.Fatalf("got %v", err)
	}
	found := false
	for _, ev := range tr2.evs {
		if ev.Event == "mcp_server_start" {
			found = true
			r := ev.Data.AsRecord()
			if r.GetOrNull("ok").AsBool() || r.GetOrNull("error").Kind() != value.String {
				t.Errorf("failed start: %s", value.JSON(ev.Data))
			}
		}
	}
	if !found {
		t.Error("no mcp_server_start for the failed start")
	}
}

// TestArgErrorsPlain: over stdio, an argument error names the list index
// and writes values as JSON; the server does not see the call.
func TestArgErrorsPlain(t *testing.T) {
	dir := t.TempDir()
	m, err := mcptool.NewManager(localRich(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, tc := range []struct{ args, want string }{
		{`{ entities: [{ name: "a", entityType: "person" }, { name: "b", entityType: "place" }, { name: 3, entityType: "place" }] }`,
			`Invalid arguments for tool 'notes.create_entities': entities[2].name: type: 3 has type "integer", want "string"`},
		{`{ entities: [{ name: "a", entityType: { entityType: "t" } }] }`,
			`Invalid arguments for tool 'notes.create_entities': entities[0].entityType: enum: {"entityType":"t"} is not one of ["person","place"]`},
		{`{ entities: [{ name: "a", entityType: "person", observations: ["x", ["New York", "Chicago"]] }] }`,
			`Invalid arguments for tool 'notes.create_entities': entities[0].observations[1]: type: ["New York","Chicago"] has type "array", want "string"`},
		{`{ entities: [{ name: "a", entityType: "person" }, { name: "b" }] }`,
			`Invalid arguments for tool 'notes.create_entities': entities[1].entityType: required: the argument is missing`},
	} {
		_, err := runWith(t, m, grants(t), "cap { notes.create_entities: true }\nreturn do notes.create_entities "+tc.args, nil)
		var e *a0.Error
		if !errors.As(err, &e) || e.Code != "E_TOOL_ARGS" {
			t.Fatalf("%s: got %v", tc.args, err)
		}
		if e.Message != tc.want {
			t.Errorf("got  %s\nwant %s", e.Message, tc.want)
		}
		if f := e.Details.AsRecord().GetOrNull("field"); f.AsString() != "entities" {
			t.Errorf("field %s", value.JSON(f))
		}
	}
	if slices.Contains(calls(dir), "create_entities") {
		t.Error("the server received a call")
	}
}

// TestRemoteRich: over streamable HTTP (JSON answers and SSE streams), the
// task-only tool is found from the tools/list answers as they pass, rich
// content and the resource tools work as over stdio.
func TestRemoteRich(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MCP_CALL_LOG", filepath.Join(dir, "calls.log"))
	t.Setenv("MCP_RICH", "1")
	for _, jsonResp := range []bool{true, false} {
		t.Run("json="+strconv.FormatBool(jsonResp), func(t *testing.T) {
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.New() },
				&mcp.StreamableHTTPOptions{JSONResponse: jsonResp})
			srv := httptest.NewServer(mcptest.TaskOnlyHTTP(h))
			defer srv.Close()
			scope := tools.HTTPScope{AllowPrivate: true}
			m, err := mcptool.NewManager(mcptool.ServerConfig{Name: "notes", URL: srv.URL, HTTPClient: scope.Client(), CheckURL: scope.CheckURL})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			_, err = runWith(t, m, grants(t), `cap { notes.research: true }
return call? notes.research {}`, nil)
			var e *a0.Error
			if !errors.As(err, &e) || e.Code != "E_TOOL" || e.Details.AsRecord().GetOrNull("reason").AsString() != "unsupported_feature" {
				t.Errorf("research: %v", err)
			}
			v, err := runWith(t, m, grants(t), `cap { notes.image: true, notes.link: true, notes.resources_read: true }
let img = call? notes.image {}
let r = call? notes.link {}
let link = get { in: r, path: "[1]" }
let doc = call? notes.resources_read { uri: link.uri }
return { hex: base64.decode { in: img.data, as: "hex" }, text: get { in: doc, path: "contents[0].text" } }`, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"hex":"` + hex.EncodeToString(mcptest.PNG()) + `","text":"The notes server keeps short notes.\n"}`; value.JSON(v) != want {
				t.Errorf("got %s", value.JSON(v))
			}
		})
	}
	if slices.Contains(calls(dir), "research") {
		t.Error("the server received the task-only call")
	}
}
