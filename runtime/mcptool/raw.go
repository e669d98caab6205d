package mcptool

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/lang/value"
)

// The stdio connection to a local server is the SDK's IOTransport over the
// server's pipes, with a0's own layer on both sides of it:
//
//   - below it, the server's output is read a line (one JSON-RPC message)
//     at a time, and a line longer than a0's result limit is discarded up
//     to its newline: the call it answers fails with output_limit
//     (lineLimiter), before the SDK's own frame limit would end the
//     connection;
//   - above it, rawConn keeps the raw JSON of each tools/call result (the
//     SDK decodes structuredContent into Go maps, which lose the member
//     order the server sent), refuses tools/list schemas nested too deep
//     to be decoded safely, drops the server's notifications (a0 uses
//     none) and bounds the requests the server has in flight to a0
//     (maxServerRequests; more are dropped unanswered), so a server that
//     floods a0 with requests cannot grow a0's memory;
//   - writes to the server's stdin follow the context of the message
//     (deadlineWriter): a server that does not read its input cannot
//     block a call past its context, and a0's answers to the server's own
//     requests wait at most respWriteWait.

const (
	// maxServerRequests is how many requests of a server a0 handles at
	// once (ping, roots/list, …); more are dropped unanswered.
	maxServerRequests = 8
	// respWriteWait bounds the write of an answer to a server's request.
	respWriteWait = time.Second
	// codeOutputLimit is the JSON-RPC error code of the answer a0 puts in
	// place of a discarded over-long line.
	codeOutputLimit = -32099
	// keepHead is how much of an over-long line is kept to find its id.
	keepHead = 64 << 10
	keepTail = 4 << 10
)

type rawKey struct{}

// rawSlot receives what a0's layer learns about one request: the raw
// result of a tools/call, whether it was over the limit, and for
// tools/list the tools whose schemas were refused. It is put in the
// request's context.
type rawSlot struct {
	mu      sync.Mutex
	raw     json.RawMessage
	over    bool
	refused map[string]string // tool name → why its schema is refused
	pages   []json.RawMessage // the raw tools/list results (each page)
}

// keep records the raw result of a tools/call (its JSON) or of a
// tools/list page (for the members the SDK does not decode).
func (s *rawSlot) keep(method string, result json.RawMessage) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch method {
	case "tools/call":
		s.raw = result
	case "tools/list":
		s.pages = append(s.pages, result)
	}
}

func (s *rawSlot) get() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw
}

func (s *rawSlot) overLimit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.over
}

// rawSchemas returns each listed tool's input and output schemas as the
// server sent them (by the server's tool name); nil when the transport
// keeps no raw answers (a remote server).
func (s *rawSlot) rawSchemas() map[string][2]json.RawMessage {
	s.mu.Lock()
	lists := s.pages
	s.mu.Unlock()
	if len(lists) == 0 {
		return nil
	}
	out := map[string][2]json.RawMessage{}
	for _, page := range lists {
		tools := topLevelMember(page, "tools")
		items, ok := arrayItems(tools)
		if !ok {
			continue
		}
		for _, it := range items {
			keys, vals, ok := objectMembers(it)
			if !ok {
				continue
			}
			var name string
			var pair [2]json.RawMessage
			for i, k := range keys {
				switch k {
				case "name":
					json.Unmarshal(vals[i], &name)
				case "inputSchema":
					pair[0] = vals[i]
				case "outputSchema":
					pair[1] = vals[i]
				}
			}
			if _, dup := out[name]; !dup {
				out[name] = pair
			}
		}
	}
	return out
}

func (s *rawSlot) refusal(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused[name]
}

// connState is shared by the layers of one connection.
type connState struct {
	mu       sync.Mutex
	pending  map[jsonrpc.ID]*pendingReq // a0's requests awaiting an answer
	over     map[jsonrpc.ID]bool        // answers discarded as over the limit
	incoming map[jsonrpc.ID]bool        // the server's requests a0 handles
	dropped  int64                      // server messages dropped
}

type pendingReq struct {
	method string
	slot   *rawSlot
}

// stdioTransport connects to a local server over its pipes.
type stdioTransport struct {
	r   io.Reader
	w   *os.File
	max int
}

func newStdioTransport(stdout io.Reader, stdin *os.File, maxResult int64) mcp.Transport {
	return &stdioTransport{r: stdout, w: stdin, max: int(maxResult)}
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	st := &connState{pending: map[jsonrpc.ID]*pendingReq{}, over: map[jsonrpc.ID]bool{}, incoming: map[jsonrpc.ID]bool{}}
	lim := &lineLimiter{r: bufio.NewReaderSize(t.r, 64<<10), limit: t.max, st: st}
	w := &deadlineWriter{f: t.w}
	it := &mcp.IOTransport{Reader: io.NopCloser(lim), Writer: w, MaxLineLength: t.max + keepHead}
	c, err := it.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rawConn{Connection: c, st: st, w: w, gate: make(chan struct{}, 1)}, nil
}

// rawConn is a0's layer above the SDK's connection (see the top of the
// file).
type rawConn struct {
	mcp.Connection
	st   *connState
	w    *deadlineWriter
	gate chan struct{} // one write at a time, so w knows its context
}

func (c *rawConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	st := c.st
	var resp *jsonrpc.Response
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.ID.IsValid() && (m.Method == "tools/call" || m.Method == "tools/list") {
			slot, _ := ctx.Value(rawKey{}).(*rawSlot)
			st.mu.Lock()
			st.pending[m.ID] = &pendingReq{method: m.Method, slot: slot}
			st.mu.Unlock()
		}
	case *jsonrpc.Response:
		resp = m
		defer func() {
			st.mu.Lock()
			if st.incoming[m.ID] {
				delete(st.incoming, m.ID)
			}
			st.mu.Unlock()
		}()
	}
	select {
	case c.gate <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.gate }()
	wctx := ctx
	if resp != nil {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, respWriteWait)
		defer cancel()
	}
	c.w.ctx = wctx
	err := c.Connection.Write(ctx, msg)
	c.w.ctx = nil
	if err != nil && resp != nil && errors.Is(err, errNotWritten) {
		// The server does not read its input: the answer to its own
		// request is dropped, the stream is intact.
		return nil
	}
	return err
}

func (c *rawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	st := c.st
	for {
		msg, err := c.Connection.Read(ctx)
		if err != nil {
			return msg, err
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			// lineLimiter admitted it (and noted its id) or dropped it;
			// anything else is dropped here.
			if !m.ID.IsValid() && notificationWanted(`"`+m.Method+`"`) {
				break
			}
			st.mu.Lock()
			ok := m.ID.IsValid() && st.incoming[m.ID]
			if !ok {
				st.dropped++
			}
			st.mu.Unlock()
			if !ok {
				continue
			}
		case *jsonrpc.Response:
			st.mu.Lock()
			p := st.pending[m.ID]
			delete(st.pending, m.ID)
			over := st.over[m.ID]
			delete(st.over, m.ID)
			st.mu.Unlock()
			if p == nil {
				break
			}
			if over {
				if p.slot != nil {
					p.slot.mu.Lock()
					p.slot.over = true
					p.slot.mu.Unlock()
				}
				break
			}
			if m.Error != nil || m.Result == nil {
				break
			}
			p.slot.keep(p.method, m.Result)
		}
		return msg, nil
	}
}

// pendingCalls returns the ids of a0's requests awaiting an answer.
func (st *connState) pendingIDs() []jsonrpc.ID {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]jsonrpc.ID, 0, len(st.pending))
	for id := range st.pending {
		out = append(out, id)
	}
	return out
}

// errNotWritten is a write that gave up before writing a byte.
var errNotWritten = errors.New("the MCP server does not read its input")

// deadlineWriter writes to the server's stdin within the context rawConn
// sets for the message. A write cut off midway leaves a partial message
// on the stream: every later write then fails, and the server is
// restarted at the next call.
type deadlineWriter struct {
	f      *os.File
	ctx    context.Context // set by rawConn.Write under its gate
	broken atomic.Bool
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	if w.broken.Load() {
		return 0, errors.New("the connection to the MCP server is broken (a message was cut off)")
	}
	ctx := w.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	var mu sync.Mutex
	finished := false
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !finished {
			w.f.SetWriteDeadline(time.Unix(1, 0))
		}
	})
	n, err := w.f.Write(p)
	stop()
	mu.Lock()
	finished = true
	w.f.SetWriteDeadline(time.Time{})
	mu.Unlock()
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		if n == 0 {
			return 0, errNotWritten
		}
		w.broken.Store(true)
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
	return n, err
}

func (w *deadlineWriter) Close() error { return w.f.Close() }

// lineLimiter passes the server's output on a line at a time. A line
// longer than limit is discarded up to its newline and replaced by a
// JSON-RPC error answer to the request it answered (found by its id, or,
// when the id cannot be found, to every request a0 has pending), which
// rawConn turns into output_limit. Batches (a line that is a JSON array),
// which the protocol version a0 speaks does not have, are dropped.
type lineLimiter struct {
	r     *bufio.Reader
	limit int
	st    *connState
	line  []byte
	out   []byte
	err   error
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	for len(l.out) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		l.next()
	}
	n := copy(p, l.out)
	l.out = l.out[n:]
	return n, nil
}

// next reads one line into l.out (or sets l.err).
func (l *lineLimiter) next() {
	if cap(l.line) > 1<<20 {
		l.line = nil // a large line's buffer is not kept
	}
	l.line = l.line[:0]
	var head, tail []byte
	size, over := 0, false
	for {
		chunk, err := l.r.ReadSlice('\n')
		size += len(chunk)
		if !over && size > l.limit+1 {
			over = true
			head = append([]byte(nil), l.line[:min(len(l.line), keepHead)]...)
			if len(head) < keepHead {
				head = append(head, chunk[:min(len(chunk), keepHead-len(head))]...)
			}
			l.line = nil // release the memory
		}
		if over {
			tail = append(tail, chunk...)
			if len(tail) > keepTail {
				tail = append(tail[:0], tail[len(tail)-keepTail:]...)
			}
		} else {
			l.line = append(l.line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			l.err = err
		}
		break
	}
	if over {
		l.out = l.replacement(head, tail)
		return
	}
	if t := bytes.TrimLeft(l.line, " \t\r"); len(t) > 0 && t[0] == '[' {
		l.st.mu.Lock()
		l.st.dropped++
		l.st.mu.Unlock()
		return
	}
	if !l.admit(l.line) {
		return
	}
	if value.JSONTextDepth(l.line) > maxSchemaDepth+4 {
		l.line = l.sanitize(l.line)
	}
	l.out = l.line
}

// admit decides, before the SDK decodes it, whether a line that is a
// request or a notification of the server is passed on: notifications
// are dropped, except progress and log messages (notify.go), and so is a request when the server already
// has maxServerRequests in flight, or its id is in use. An admitted
// request's id is noted in l.st.incoming until a0 answers it.
func (l *lineLimiter) admit(line []byte) bool {
	keys, vals, _ := objectMembers(line)
	var idRaw, method []byte
	isCall := false
	for i, k := range keys {
		switch k {
		case "method":
			isCall = true
			method = vals[i]
		case "id":
			idRaw = vals[i]
		}
	}
	if !isCall {
		return true // an answer, or something the SDK will refuse
	}
	if idRaw == nil && notificationWanted(string(method)) {
		return true
	}
	var id jsonrpc.ID
	if idRaw != nil {
		var v any
		if json.Unmarshal(idRaw, &v) == nil {
			id, _ = jsonrpc.MakeID(v)
		}
	}
	l.st.mu.Lock()
	defer l.st.mu.Unlock()
	if !id.IsValid() || l.st.incoming[id] || len(l.st.incoming) >= maxServerRequests {
		l.st.dropped++
		return false
	}
	l.st.incoming[id] = true
	return true
}

// sanitize takes apart an answer to tools/list nested deeper than a0
// accepts (sanitizeToolsList) before the SDK decodes it, which it could
// not: the tools whose schemas are refused are noted in the request's
// slot.
func (l *lineLimiter) sanitize(line []byte) []byte {
	keys, vals, ok := objectMembers(line)
	if !ok {
		return line
	}
	var id jsonrpc.ID
	res := -1
	for i, k := range keys {
		switch k {
		case "id":
			var v any
			if json.Unmarshal(vals[i], &v) == nil {
				id, _ = jsonrpc.MakeID(v)
			}
		case "result":
			res = i
		}
	}
	l.st.mu.Lock()
	p := l.st.pending[id]
	l.st.mu.Unlock()
	if res < 0 || p == nil || p.method != "tools/list" {
		return line
	}
	var refused map[string]string
	vals[res], refused = sanitizeToolsList(vals[res])
	if p.slot != nil && len(refused) > 0 {
		p.slot.mu.Lock()
		if p.slot.refused == nil {
			p.slot.refused = map[string]string{}
		}
		for k, v := range refused {
			p.slot.refused[k] = v
		}
		p.slot.mu.Unlock()
	}
	return append(joinObject(keys, vals), '\n')
}

var tailID = lazyRegexp(`,\s*"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")\s*}\s*$`)

// replacement returns the error answers that stand for a discarded line.
func (l *lineLimiter) replacement(head, tail []byte) []byte {
	var ids []jsonrpc.ID
	raw := topLevelMember(head, "id")
	if raw == nil {
		if m := tailID().FindSubmatch(tail); m != nil {
			raw = m[1]
		}
	}
	if raw != nil {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			if id, err := jsonrpc.MakeID(v); err == nil && id.IsValid() {
				ids = append(ids, id)
			}
		}
	}
	if ids == nil {
		ids = l.st.pendingIDs()
	}
	var b []byte
	msg := strconv.Quote("a message of the MCP server is larger than a0's limit of " + strconv.Itoa(l.limit) + " bytes; it was discarded")
	l.st.mu.Lock()
	for _, id := range ids {
		if _, ok := l.st.pending[id]; !ok {
			continue
		}
		l.st.over[id] = true
		idRaw, _ := json.Marshal(id.Raw())
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		b = append(b, idRaw...)
		b = append(b, `,"error":{"code":`+strconv.Itoa(codeOutputLimit)+`,"message":`+msg+`}}`+"\n"...)
	}
	l.st.mu.Unlock()
	return b
}
