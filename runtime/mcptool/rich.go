package mcptool

import (
	"context"
	"errors"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// Rich content (spec/mcp.md §7): the content items of a tools/call result
// that are not plain text become records of a fixed shape, so that a
// program can rely on their members:
//
//	text with annotations  { type: "text", text, annotations }
//	image, audio           { type, mimeType, data, annotations? }
//	resource_link          { type: "resource_link", uri, name, mimeType, description, title?, size?, annotations? }
//	resource (embedded)    { type: "resource", uri, mimeType, text | blob, annotations? }
//
// data and blob stay standard base64, as the server sent them, which
// base64.decode reads (as: "base64" or "hex" for bytes that are not
// text). mimeType and description are null when the server left them
// out; annotations, title and size are present only when the server sent
// them. _meta is dropped. An item of any other type is kept as sent.

// plainText returns the text of a text item without annotations.
func plainText(it value.Value) (string, bool) {
	r := it.AsRecord()
	if r == nil {
		return "", false
	}
	if ty, _ := r.Get("type"); ty.Kind() != value.String || ty.AsString() != "text" {
		return "", false
	}
	if a, ok := r.Get("annotations"); ok && !a.IsNull() {
		return "", false
	}
	if tx, ok := r.Get("text"); ok && tx.Kind() == value.String {
		return tx.AsString(), true
	}
	return "", false
}

// richItem returns the A0 value of one content item.
func richItem(it value.Value) value.Value {
	if s, ok := plainText(it); ok {
		return value.Str(s)
	}
	r := it.AsRecord()
	if r == nil {
		return it
	}
	ty, _ := r.Get("type")
	if ty.Kind() != value.String {
		return it
	}
	str := func(rr *value.Record, k string) value.Value {
		if v, ok := rr.Get(k); ok && v.Kind() == value.String {
			return v
		}
		return value.NullValue
	}
	var out *value.Record
	switch ty.AsString() {
	case "text":
		tx, ok := r.Get("text")
		if !ok || tx.Kind() != value.String {
			return it
		}
		out = value.NewRecord(3)
		out.Set("type", ty)
		out.Set("text", tx)
	case "image", "audio":
		out = value.NewRecord(4)
		out.Set("type", ty)
		out.Set("mimeType", str(r, "mimeType"))
		out.Set("data", str(r, "data"))
	case "resource_link":
		out = value.NewRecord(8)
		out.Set("type", ty)
		out.Set("uri", str(r, "uri"))
		out.Set("name", str(r, "name"))
		out.Set("mimeType", str(r, "mimeType"))
		out.Set("description", str(r, "description"))
		if t, ok := r.Get("title"); ok && t.Kind() == value.String {
			out.Set("title", t)
		}
		if n, ok := r.Get("size"); ok && n.Kind() == value.Number {
			out.Set("size", n)
		}
	case "resource":
		res, _ := r.Get("resource")
		rr := res.AsRecord()
		if rr == nil {
			return it
		}
		out = resourceContents(rr, true)
	default:
		return it
	}
	if a, ok := r.Get("annotations"); ok && !a.IsNull() {
		out.Set("annotations", a)
	}
	return value.RecordOf(out)
}

// resourceContents is one item of a resource's contents (embedded in a
// result, or read with resources/read): { uri, mimeType, text } or
// { uri, mimeType, blob }, with type "resource" first for an embedded
// one.
func resourceContents(rr *value.Record, embedded bool) *value.Record {
	out := value.NewRecord(5)
	if embedded {
		out.Set("type", value.Str("resource"))
	}
	for _, k := range []string{"uri", "mimeType"} {
		if v, ok := rr.Get(k); ok && v.Kind() == value.String {
			out.Set(k, v)
		} else {
			out.Set(k, value.NullValue)
		}
	}
	if b, ok := rr.Get("blob"); ok && b.Kind() == value.String {
		out.Set("blob", b)
	} else if t, ok := rr.Get("text"); ok && t.Kind() == value.String {
		out.Set("text", t)
	} else {
		out.Set("text", value.Str(""))
	}
	return out
}

// startEvent is the data of the mcp_server_start trace event: the server,
// how long starting and listing it took, whether it worked, the number of
// tools it listed, or the error.
func (s *server) startEvent(d time.Duration, err error) value.Value {
	r := value.NewRecord(5)
	r.Set("server", value.Str(s.cfg.Name))
	transport := "stdio"
	if s.cfg.URL != "" {
		transport = "http"
	}
	r.Set("transport", value.Str(transport))
	r.Set("ms", value.Int(int(d.Milliseconds())))
	r.Set("ok", value.BoolOf(err == nil))
	if err == nil {
		r.Set("tools", value.Int(len(s.entries)))
	} else {
		msg := err.Error()
		var te *runtime.ToolError
		var re *runtime.Error
		switch {
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			msg = "the run ended before the server was ready"
		case errors.As(err, &te):
			msg = te.Msg
		case errors.As(err, &re):
			msg = re.Message
		}
		r.Set("error", value.Str(s.maskText(msg)))
	}
	return value.RecordOf(r)
}
