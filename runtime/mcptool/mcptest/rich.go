package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Rich content: tools whose results carry an image (a real 2×2 PNG), audio,
// a resource link, embedded resources and annotations; resources the
// client can read (text and binary); and a tool that the server runs only
// as a task (research: execution.taskSupport "required", which the SDK's
// Tool type cannot express, so taskTransport writes it into tools/list).

// ReadmeText is the text of the resource test://notes/readme.
const ReadmeText = "The notes server keeps short notes.\n"

// PNG returns the bytes of the 2×2 PNG the image tool and the resource
// test://notes/logo.png carry.
func PNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	img.Set(1, 1, color.RGBA{0, 0, 255, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// Audio is the content of the audio tool's result (a few bytes standing
// for a WAV file; a0 does not look inside).
var Audio = []byte("RIFF\x24\x00\x00\x00WAVEfmt ")

func addRich(s *mcp.Server, add func(*mcp.Tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error))) {
	ann := &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.5}
	add(&mcp.Tool{Name: "image", Description: "A small PNG.", Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: PNG(), MIMEType: "image/png", Annotations: ann}}}, nil
		})
	add(&mcp.Tool{Name: "audio", Description: "A short sound.", Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: Audio, MIMEType: "audio/wav"}}}, nil
		})
	add(&mcp.Tool{Name: "link", Description: "A link to the readme resource.", Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "see the readme"},
				&mcp.ResourceLink{URI: "test://notes/readme", Name: "readme", MIMEType: "text/plain", Description: "What the server does."}}}, nil
		})
	add(&mcp.Tool{Name: "embedded", Description: "Embedded resources, text and binary.", Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://notes/readme", MIMEType: "text/plain", Text: ReadmeText}},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://notes/logo.png", MIMEType: "image/png", Blob: PNG()}, Annotations: ann},
			}}, nil
		})
	add(&mcp.Tool{Name: "annotated", Description: "Text with annotations.", Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "for the user", Annotations: ann}}}, nil
		})
	add(&mcp.Tool{Name: "research", Description: "A long job the server runs only as a task.", Annotations: readOnly},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("researched"), nil
		})
	add(&mcp.Tool{Name: "create_entities", Description: "Store entities (a schema with a list of records).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},` +
			`"entityType":{"enum":["person","place"]},"observations":{"type":"array","items":{"type":"string"}}},"required":["name","entityType"]}}},"required":["entities"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("stored"), nil
		})
	s.AddResource(&mcp.Resource{URI: "test://notes/readme", Name: "readme", MIMEType: "text/plain", Description: "What the server does."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			logCall("resources/read")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: ReadmeText}}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://notes/note/{id}", Name: "note", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			logCall("resources/read")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "note " + strings.TrimPrefix(req.Params.URI, "test://notes/note/")}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "test://notes/logo.png", Name: "logo", MIMEType: "image/png"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			logCall("resources/read")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: PNG()}}}, nil
		})
}

// taskOnly are the tools taskTransport marks execution.taskSupport
// "required" in tools/list.
var taskOnly = map[string]bool{"research": true}

// taskTransport is the server's transport with taskOnly's tools marked as
// task-only in each tools/list result.
type taskTransport struct{ mcp.Transport }

func (t taskTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &taskConn{Connection: c}, nil
}

type taskConn struct{ mcp.Connection }

func (c *taskConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > 0 {
		r.Result = markTaskOnly(r.Result)
	}
	return c.Connection.Write(ctx, msg)
}

// markTaskOnly marks taskOnly's tools in a tools/list result; any other
// result is returned as it is. The other tools' JSON is kept byte for
// byte (their schemas' member order is what signatures show).
func markTaskOnly(result json.RawMessage) json.RawMessage {
	var res map[string]json.RawMessage
	if json.Unmarshal(result, &res) != nil || res["tools"] == nil {
		return result
	}
	var tools []json.RawMessage
	if json.Unmarshal(res["tools"], &tools) != nil {
		return result
	}
	changed := false
	for i, raw := range tools {
		var t struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &t) != nil || !taskOnly[t.Name] {
			continue
		}
		b := bytes.TrimRight(raw, " \t\r\n")
		if len(b) < 2 || b[len(b)-1] != '}' {
			continue
		}
		tools[i] = append(append([]byte{}, b[:len(b)-1]...), []byte(`,"execution":{"taskSupport":"required"}}`)...)
		changed = true
	}
	if !changed {
		return result
	}
	res["tools"], _ = json.Marshal(tools)
	out, _ := json.Marshal(res)
	return out
}

// TaskOnlyHTTP wraps a streamable-HTTP handler of the test server so that
// its tools/list answers (a JSON body, or the events of an SSE stream)
// mark taskOnly's tools as task-only, as taskTransport does over stdio.
func TaskOnlyHTTP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &bufWriter{header: http.Header{}, code: http.StatusOK}
		h.ServeHTTP(rec, r)
		patch := func(msg []byte) []byte {
			var m map[string]json.RawMessage
			if json.Unmarshal(msg, &m) != nil || m["result"] == nil {
				return msg
			}
			m["result"] = markTaskOnly(m["result"])
			out, _ := json.Marshal(m)
			return out
		}
		body := rec.buf.Bytes()
		if strings.HasPrefix(rec.header.Get("Content-Type"), "text/event-stream") {
			lines := bytes.Split(body, []byte("\n"))
			for i, l := range lines {
				if d, ok := bytes.CutPrefix(l, []byte("data: ")); ok {
					lines[i] = append([]byte("data: "), patch(d)...)
				}
			}
			body = bytes.Join(lines, []byte("\n"))
		} else if len(body) > 0 {
			body = patch(body)
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.code)
		w.Write(body)
	})
}

type bufWriter struct {
	header http.Header
	code   int
	buf    bytes.Buffer
}

func (b *bufWriter) Header() http.Header         { return b.header }
func (b *bufWriter) Write(p []byte) (int, error) { return b.buf.Write(p) }
func (b *bufWriter) WriteHeader(code int)        { b.code = code }
func (b *bufWriter) Flush()                      {}
