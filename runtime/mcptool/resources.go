package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcpwire"
	"github.com/a0lang/a0/runtime/policy"
)

// Resource tools (spec/mcp.md §7.1): a server that declares the resources
// capability gets two read tools of a0's own, SERVER.resources_read
// (resources/read, so that a resource link in a result can be followed)
// and SERVER.resources_list (resources/list). They are gated, granted and
// traced like the server's tools; a server tool that maps to the same A0
// name wins, and a tools allowlist must name them to offer them.

// maxListedResources bounds the resources that resources_list returns.
const maxListedResources = 1000

// resourceTool is one of a0's resource tools.
type resourceTool struct {
	remote, method, desc, schema string
}

var resourceTools = []resourceTool{
	{remote: "resources_read", method: "resources/read",
		desc:   "Read a resource of this MCP server by its URI (a resource link's uri); a0's own tool (resources/read). Returns { contents: [{ uri, mimeType, text } or { uri, mimeType, blob }] }, blob in base64.",
		schema: `{"type":"object","properties":{"uri":{"type":"string","description":"the URI of the resource"}},"required":["uri"],"additionalProperties":false}`},
	{remote: "resources_list", method: "resources/list",
		desc:   "List the resources of this MCP server; a0's own tool (resources/list). Returns { resources: [{ uri, name, mimeType, description }], templates: [{ uriTemplate, name, mimeType, description }], truncated }.",
		schema: `{"type":"object","properties":{},"additionalProperties":false}`},
}

// addResourceTools adds a0's resource tools to the listed entries when the
// server declares resources (s.mu held, session live).
func (s *server) addResourceTools(entries map[string]*entry) {
	ir := s.session.InitializeResult()
	if ir == nil || ir.Capabilities.Resources == nil {
		return
	}
	for _, rt := range resourceTools {
		if s.cfg.Tools != nil && !slices.Contains(s.cfg.Tools, rt.remote) {
			continue
		}
		name := policy.ToolName(s.cfg.Name, rt.remote)
		if _, taken := entries[name]; taken {
			continue // the server's own tool of that name wins
		}
		raw := json.RawMessage(rt.schema)
		entries[name] = &entry{name: name, remote: rt.remote, desc: rt.desc, readOnly: true, schema: raw,
			checker: compileSchema(raw), builtin: rt.method}
	}
}

// callResource runs one of a0's resource tools.
func (t *Tool) callResource(c *runtime.Call, cs *mcpwire.ClientSession, e *entry) (value.Value, error) {
	s := t.srv
	ctx, cancel := withTimeout(c.Ctx, s.cfg.Timeout)
	defer cancel()
	out := value.NewRecord(3)
	switch e.builtin {
	case "resources/read":
		uri := ""
		if v, ok := c.Args.Get("uri"); ok && v.Kind() == value.String {
			uri = v.AsString()
		}
		res, err := cs.ReadResource(ctx, &mcpwire.ReadResourceParams{URI: uri})
		if err != nil {
			return value.Value{}, t.resourceFailed(ctx, c, cs, err)
		}
		raw, _ := json.Marshal(res)
		if err := s.checkSize(raw); err != nil {
			return value.Value{}, err
		}
		rv, _ := value.ParseJSON(string(raw))
		var items []value.Value
		if r := rv.AsRecord(); r != nil {
			if l, ok := r.Get("contents"); ok && l.Kind() == value.ListKind {
				for _, it := range l.AsList() {
					if ir := it.AsRecord(); ir != nil {
						items = append(items, value.RecordOf(resourceContents(ir, false)))
					}
				}
			}
		}
		if items == nil {
			items = []value.Value{}
		}
		out.Set("contents", value.ListOf(items))
	case "resources/list":
		items := []value.Value{}
		truncated := false
		var size int
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				return value.Value{}, t.resourceFailed(ctx, c, cs, err)
			}
			if len(items) == maxListedResources {
				truncated = true
				break
			}
			it := value.NewRecord(6)
			it.Set("uri", value.Str(r.URI))
			it.Set("name", value.Str(r.Name))
			if r.Title != "" {
				it.Set("title", value.Str(r.Title))
			}
			it.Set("mimeType", strOrNull(r.MIMEType))
			it.Set("description", strOrNull(r.Description))
			if r.Size != nil && *r.Size > 0 {
				it.Set("size", value.Num(float64(*r.Size)))
			}
			size += len(r.URI) + len(r.Name) + len(r.Description) + 64
			if int64(size) > s.cfg.maxResult() {
				return value.Value{}, s.overLimit()
			}
			items = append(items, value.RecordOf(it))
		}
		// Resource templates (URIs with {placeholders}, which
		// resources_read takes once filled in): a server that has none,
		// or does not know the method, just has none.
		templates := []value.Value{}
		for rt, err := range cs.ResourceTemplates(ctx, nil) {
			if err != nil || len(templates) == maxListedResources {
				break
			}
			it := value.NewRecord(4)
			it.Set("uriTemplate", value.Str(rt.URITemplate))
			it.Set("name", value.Str(rt.Name))
			it.Set("mimeType", strOrNull(rt.MIMEType))
			it.Set("description", strOrNull(rt.Description))
			size += len(rt.URITemplate) + len(rt.Name) + len(rt.Description) + 64
			if int64(size) > s.cfg.maxResult() {
				return value.Value{}, s.overLimit()
			}
			templates = append(templates, value.RecordOf(it))
		}
		out.Set("resources", value.ListOf(items))
		out.Set("templates", value.ListOf(templates))
		out.Set("truncated", value.BoolOf(truncated))
	}
	rv := value.RecordOf(out)
	if m := s.masker(cs); m != nil {
		rv = value.MapStrings(rv, m.String, true)
	}
	return rv, nil
}

// resourceFailed is failed for a resource request; an answer over the
// limit is output_limit.
func (t *Tool) resourceFailed(ctx context.Context, c *runtime.Call, cs *mcpwire.ClientSession, err error) error {
	if errors.Is(err, mcpwire.ErrMessageTooLarge) {
		return t.srv.overLimit()
	}
	return t.failed(ctx, c, cs, err)
}

func strOrNull(s string) value.Value {
	if s == "" {
		return value.NullValue
	}
	return value.Str(s)
}

// checkSize refuses a result larger than the server's limit.
func (s *server) checkSize(raw []byte) error {
	if int64(len(raw)) > s.cfg.maxResult() {
		return s.overLimit()
	}
	return nil
}

func (s *server) overLimit() error {
	return &runtime.ToolError{Msg: "the result of MCP server '" + s.cfg.Name + "' is larger than a0's limit of " + strconv.FormatInt(s.cfg.maxResult(), 10) + " bytes; it was discarded",
		Reason: "output_limit", Extra: rec("server", s.cfg.Name, "limit", strconv.FormatInt(s.cfg.maxResult(), 10))}
}
