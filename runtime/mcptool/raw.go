package mcptool

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/mcpwire"
)

// The stdio connection to a local server is a0's own (an
// mcpwire.Connection over the server's pipes), with these bounds:
//
//   - the server's output is read a line (one JSON-RPC message) at a
//     time, and a line longer than a0's result limit is discarded up to
//     its newline: the call it answers fails with output_limit
//     (lineLimiter);
//   - tools/list answers with schemas nested too deep to be decoded
//     safely are taken apart before they are decoded (the tools are
//     refused), the server's notifications are dropped (a0 uses none but
//     progress and log messages), and the requests the server has in
//     flight to a0 are bounded (maxServerRequests; more are dropped
//     unanswered), so a server that floods a0 with requests cannot grow
//     a0's memory;
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
	// keepHead is how much of an over-long line is kept to find its id.
	keepHead = 64 << 10
	keepTail = 4 << 10
)

type rawKey struct{}

// rawSlot receives what a0's layer learns about one tools/list request:
// the tools whose schemas it refused. It is put in the request's context.
type rawSlot struct {
	mu      sync.Mutex
	refused map[string]string // tool name → why its schema is refused
}

func (s *rawSlot) refusal(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused[name]
}

// connState is the bookkeeping of one connection.
type connState struct {
	mu       sync.Mutex
	pending  map[mcpwire.ID]*pendingReq // a0's calls awaiting an answer
	incoming map[mcpwire.ID]bool        // the server's requests a0 handles
	dropped  int64                      // server messages dropped
}

type pendingReq struct {
	method string
	slot   *rawSlot
	stop   func() bool // unhooks the removal at the end of the call's context
}

// stdioTransport connects to a local server over its pipes.
type stdioTransport struct {
	r   *os.File
	w   *os.File
	max int
}

func newStdioTransport(stdout, stdin *os.File, maxResult int64) mcpwire.Transport {
	return &stdioTransport{r: stdout, w: stdin, max: int(maxResult)}
}

func (t *stdioTransport) Connect(context.Context) (mcpwire.Connection, error) {
	st := &connState{pending: map[mcpwire.ID]*pendingReq{}, incoming: map[mcpwire.ID]bool{}}
	lim := &lineLimiter{r: bufio.NewReaderSize(t.r, 64<<10), limit: t.max, st: st}
	return &stdioConn{st: st, lim: lim, w: &deadlineWriter{f: t.w}, out: t.r, gate: make(chan struct{}, 1)}, nil
}

// stdioConn is a0's connection to a local server (see the top of the
// file).
type stdioConn struct {
	st    *connState
	lim   *lineLimiter
	w     *deadlineWriter
	out   *os.File      // the server's stdout
	gate  chan struct{} // one write at a time, so w knows its context
	queue []mcpwire.Message

	closeOnce sync.Once
}

func (c *stdioConn) Write(ctx context.Context, msg mcpwire.Message) (err error) {
	st := c.st
	var resp *mcpwire.Response
	switch m := msg.(type) {
	case *mcpwire.Request:
		if m.IsCall() {
			slot, _ := ctx.Value(rawKey{}).(*rawSlot)
			p := &pendingReq{method: m.Method, slot: slot}
			id := m.ID
			st.mu.Lock()
			st.pending[id] = p
			// A call whose context ends is over for a0 (the peer forgets
			// it and sends notifications/cancelled, which a server
			// answers by not answering): its entry goes with it.
			p.stop = context.AfterFunc(ctx, func() { st.forget(id, p) })
			st.mu.Unlock()
			defer func() {
				if err != nil {
					st.forget(id, p)
				}
			}()
		}
	case *mcpwire.Response:
		resp = m
		defer func() {
			st.mu.Lock()
			delete(st.incoming, m.ID)
			st.mu.Unlock()
		}()
	}
	data, err := mcpwire.EncodeMessage(msg)
	if err != nil {
		return err
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
	_, err = c.w.Write(append(data, '\n'))
	c.w.ctx = nil
	if err != nil && resp != nil && errors.Is(err, errNotWritten) {
		// The server does not read its input: the answer to its own
		// request is dropped, the stream is intact.
		return nil
	}
	return err
}

func (c *stdioConn) Read(context.Context) (mcpwire.Message, error) {
	st := c.st
	for {
		if len(c.queue) > 0 {
			m := c.queue[0]
			c.queue = c.queue[1:]
			return m, nil
		}
		line, repl, err := c.lim.next()
		if repl != nil {
			c.queue = repl
			continue
		}
		if line == nil {
			if err != nil {
				return nil, err
			}
			continue // dropped
		}
		msg, derr := mcpwire.DecodeMessage(line)
		if derr != nil {
			return nil, notMessage(line, derr)
		}
		switch m := msg.(type) {
		case *mcpwire.Request:
			// lineLimiter admitted it (and noted its id) or dropped it.
			if !m.IsCall() {
				if !notificationWanted(strconv.Quote(m.Method)) {
					continue
				}
				break
			}
			st.mu.Lock()
			ok := st.incoming[m.ID]
			if !ok {
				st.dropped++
			}
			st.mu.Unlock()
			if !ok {
				continue
			}
		case *mcpwire.Response:
			st.mu.Lock()
			if p := st.pending[m.ID]; p != nil {
				p.stop()
				delete(st.pending, m.ID)
			}
			st.mu.Unlock()
		}
		return msg, nil
	}
}

// notMessage is the error of a line of the server's stdout that is not
// a JSON-RPC message: it quotes the line's start, which usually tells
// what the server printed (a log line, a banner), and says where such
// output belongs.
func notMessage(line []byte, derr error) error {
	start := string(line)
	if len(start) > 80 {
		start = mcpwire.UTF8Prefix(start, 80) + "…"
	}
	return errors.New("the server wrote a line that is not a JSON-RPC message (" + strconv.Quote(start) + ": " + derr.Error() +
		"); an MCP server's stdout carries only MCP messages, its logs go to stderr")
}

// Close closes the server's stdin (the protocol's shutdown) and its
// stdout, so a blocked Read returns.
func (c *stdioConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		err = c.w.Close()
		c.out.Close()
	})
	return err
}

func (c *stdioConn) SessionID() string { return "" }

// forget removes the entry p of call id, unless it has already gone.
func (st *connState) forget(id mcpwire.ID, p *pendingReq) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.pending[id] == p {
		p.stop()
		delete(st.pending, id)
	}
}

// pendingIDs returns the ids of a0's calls awaiting an answer.
func (st *connState) pendingIDs() []mcpwire.ID {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]mcpwire.ID, 0, len(st.pending))
	for id := range st.pending {
		out = append(out, id)
	}
	return out
}

// errNotWritten is a write that gave up before writing a byte.
var errNotWritten = errors.New("the MCP server does not read its input")

// deadlineWriter writes to the server's stdin within the context stdioConn
// sets for the message. A write cut off midway leaves a partial message
// on the stream: every later write then fails, and the server is
// restarted at the next call.
type deadlineWriter struct {
	f      *os.File
	ctx    context.Context // set by stdioConn.Write under its gate
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

// lineLimiter reads the server's output a line at a time. A line
// longer than limit is discarded up to its newline and replaced by a
// JSON-RPC error answer to the call it answered (found by its id, or,
// when the id cannot be found, to every call a0 has pending), which the
// caller turns into output_limit; one that is a request or notification
// of the server is just dropped. Batches (a line that is a JSON array),
// which the protocol versions a0 speaks do not use, are dropped.
type lineLimiter struct {
	r     *bufio.Reader
	limit int
	st    *connState
	line  []byte
	err   error
}

// next returns the next line, or the answers that stand for a discarded
// one; neither when a line was dropped. The error ends the stream (a
// last line without a newline is returned first).
func (l *lineLimiter) next() (line []byte, repl []mcpwire.Message, err error) {
	if l.err != nil {
		return nil, nil, l.err
	}
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
		return nil, l.replacement(head, tail), nil
	}
	t := bytes.TrimSpace(l.line)
	if len(t) == 0 {
		return nil, nil, l.err
	}
	if t[0] == '[' {
		l.st.mu.Lock()
		l.st.dropped++
		l.st.mu.Unlock()
		return nil, nil, nil
	}
	if !l.admit(t) {
		return nil, nil, nil
	}
	if value.JSONTextDepth(t) > maxSchemaDepth+4 {
		if t = l.sanitize(t); t == nil {
			l.st.mu.Lock()
			l.st.dropped++
			l.st.mu.Unlock()
			return nil, nil, nil
		}
	}
	return t, nil, nil
}

// admit decides, before it is decoded, whether a line that is a
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
		return true // an answer, or something decoding will refuse
	}
	if idRaw == nil && notificationWanted(string(method)) {
		return true
	}
	var id mcpwire.ID
	if idRaw != nil {
		id = wireID(idRaw)
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

// wireID is the id whose JSON text is raw, read as DecodeMessage reads it
// (the zero ID when it is not one). Read through a float64, an id past
// 2^53 became another id than the one decoded: a request admitted under
// it was then dropped as unknown, and its place among maxServerRequests
// was never freed.
func wireID(raw []byte) mcpwire.ID {
	var id mcpwire.ID
	if id.UnmarshalJSON(raw) != nil {
		return mcpwire.ID{}
	}
	return id
}

// sanitize takes apart an answer to tools/list nested deeper than a0
// accepts (sanitizeToolsList) before it is decoded, which it could
// not: the tools whose schemas are refused are noted in the request's
// slot. An answer to no call a0 waits for is dropped (nil).
func (l *lineLimiter) sanitize(line []byte) []byte {
	keys, vals, ok := objectMembers(line)
	if !ok {
		return line
	}
	var id mcpwire.ID
	for i, k := range keys {
		if k == "id" {
			id = wireID(vals[i])
		}
	}
	l.st.mu.Lock()
	p := l.st.pending[id]
	l.st.mu.Unlock()
	if p == nil && !slices.Contains(keys, "method") {
		// A late answer to a call a0 has given up on: nobody reads it,
		// and it may be too deep to decode.
		return nil
	}
	if p == nil || p.method != "tools/list" {
		return line
	}
	return sanitizeAnswer(keys, vals, p.slot)
}

// sanitizeAnswer is the message of members keys and vals, a tools/list
// answer, with its result taken apart by sanitizeToolsList; the refused
// tools are noted in slot.
func sanitizeAnswer(keys []string, vals [][]byte, slot *rawSlot) []byte {
	res := slices.Index(keys, "result")
	if res < 0 {
		return joinObject(keys, vals)
	}
	var refused map[string]string
	vals[res], refused = sanitizeToolsList(vals[res])
	if slot != nil && len(refused) > 0 {
		slot.mu.Lock()
		if slot.refused == nil {
			slot.refused = map[string]string{}
		}
		for k, v := range refused {
			slot.refused[k] = v
		}
		slot.mu.Unlock()
	}
	return joinObject(keys, vals)
}

// sanitizeHTTP is sanitize for a remote server: data is a message that
// came with the answer to a request of method (its context carries the
// slot).
func sanitizeHTTP(ctx context.Context, method string, data []byte) []byte {
	if method != mcpwire.MethodListTools || value.JSONTextDepth(data) <= maxSchemaDepth+4 {
		return data
	}
	keys, vals, ok := objectMembers(data)
	if !ok {
		return data
	}
	slot, _ := ctx.Value(rawKey{}).(*rawSlot)
	return sanitizeAnswer(keys, vals, slot)
}

var tailID = lazyRegexp(`,\s*"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")\s*}\s*$`)

// replacement returns the error answers that stand for a discarded line.
func (l *lineLimiter) replacement(head, tail []byte) []mcpwire.Message {
	if topLevelMember(head, "method") != nil {
		// A notification or request of the server, not an answer: it is
		// dropped, and none of a0's calls fails for it.
		l.st.mu.Lock()
		l.st.dropped++
		l.st.mu.Unlock()
		return []mcpwire.Message{}
	}
	var ids []mcpwire.ID
	raw := topLevelMember(head, "id")
	if raw == nil {
		if m := tailID().FindSubmatch(tail); m != nil {
			raw = m[1]
		}
	}
	if raw != nil {
		if id := wireID(raw); id.IsValid() {
			ids = append(ids, id)
		}
	}
	if ids == nil {
		ids = l.st.pendingIDs()
	}
	out := []mcpwire.Message{}
	l.st.mu.Lock()
	for _, id := range ids {
		if _, ok := l.st.pending[id]; !ok {
			continue
		}
		out = append(out, mcpwire.TooLargeResponse(id, int64(l.limit)))
	}
	l.st.mu.Unlock()
	return out
}

// lazyRegexp compiles expr on first use rather than at start-up, which
// every command of the binary would pay for.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
