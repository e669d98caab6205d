package mcptool

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// The SDK decodes a remote server's tools/list into its Tool type, which
// has no execution member, and its HTTP connection cannot be wrapped like
// the stdio one (rawConn). So for a remote server a0 reads the answers to
// tools/list on their way through the HTTP client: tapRoundTripper sees a
// POST whose context carries a rawSlot and whose body is a tools/list
// request, and copies each JSON-RPC result that passes (a JSON body, or
// the data of an SSE stream's events) into the slot, as the SDK reads it,
// so the slot is complete before the SDK hands the result on.

// maxTapped bounds the bytes of one answer a0 holds to read it.
const maxTapped = 16 << 20

// tapClient returns a copy of hc whose transport taps tools/list answers.
func tapClient(hc *http.Client) *http.Client {
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = tapRoundTripper{base: base}
	return &c
}

type tapRoundTripper struct{ base http.RoundTripper }

func (t tapRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	slot, _ := req.Context().Value(rawKey{}).(*rawSlot)
	if slot == nil || req.Method != http.MethodPost || req.GetBody == nil {
		return t.base.RoundTrip(req)
	}
	body, err := req.GetBody()
	if err != nil {
		return t.base.RoundTrip(req)
	}
	var msg struct {
		Method string `json:"method"`
	}
	b, _ := io.ReadAll(io.LimitReader(body, 1<<20))
	body.Close()
	if json.Unmarshal(b, &msg) != nil || msg.Method != "tools/list" {
		return t.base.RoundTrip(req)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	resp.Body = &tapBody{ReadCloser: resp.Body, slot: slot, sse: sse}
	return resp, nil
}

// tapBody passes a response body through, keeping the results it
// carries: for SSE, each event's data when the event ends; for JSON, the
// whole body at its end.
type tapBody struct {
	io.ReadCloser
	slot *rawSlot
	sse  bool
	buf  bytes.Buffer // JSON: the body so far; SSE: the current line
	data bytes.Buffer // SSE: the current event's data
	over bool
}

func (b *tapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if !b.over {
		if b.sse {
			b.sseBytes(p[:n])
		} else {
			b.buf.Write(p[:n])
		}
		if b.buf.Len()+b.data.Len() > maxTapped {
			b.over = true
			b.buf.Reset()
			b.data.Reset()
		}
	}
	if err == io.EOF && !b.over {
		if b.sse {
			b.sseBytes([]byte("\n\n"))
		} else {
			b.keep(b.buf.Bytes())
		}
	}
	return n, err
}

func (b *tapBody) sseBytes(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.buf.Write(p)
			return
		}
		b.buf.Write(p[:i])
		p = p[i+1:]
		line := bytes.TrimSuffix(b.buf.Bytes(), []byte("\r"))
		switch {
		case len(line) == 0: // the end of an event
			if b.data.Len() > 0 {
				b.keep(b.data.Bytes())
				b.data.Reset()
			}
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(line[5:], []byte(" "))
			if b.data.Len() > 0 {
				b.data.WriteByte('\n')
			}
			b.data.Write(d)
		}
		b.buf.Reset()
	}
}

// keep stores the result of a JSON-RPC response (a tools/list page).
func (b *tapBody) keep(msg []byte) {
	var r struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(msg, &r) == nil && len(r.Result) > 0 {
		b.slot.keep("tools/list", append(json.RawMessage(nil), r.Result...))
	}
}
