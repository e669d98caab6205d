package mcpserver

// The stdio connection of `a0 mcp` (spec/embedding.md §10.4): the line
// layer under the mcpwire server. It validates every line, answers a
// malformed one itself with a JSON-RPC error and carries on (a plain
// newline-delimited transport would end the session at the first line it
// cannot decode), hands the server only well-formed messages, and keeps
// the set of calls in flight, so that a request reusing the id of one is
// refused and the response of a cancelled call is dropped (MCP: the
// receiver of a cancellation does not answer the request).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/a0lang/a0/runtime/mcpwire"
)

// mcpMaxLine bounds one inbound message (16 MiB, the official Go SDK's
// default frame limit).
const mcpMaxLine = 16 << 20

// MaxRequestBytes bounds the bytes of the client's requests the server
// holds at once: the calls read and not yet answered (a0_run's source and
// input stay in memory while it runs), and the messages read ahead of the
// server. A call that would pass it is answered at once with error -32603
// (the server is busy: retry once calls have ended, or send less), never
// queued; reading goes on, so that cancellations and pings still arrive.
// MaxCalls calls of 16 MiB each would otherwise be 16 GiB.
const MaxRequestBytes = 64 << 20

// mcpSmallMessage is the size up to which a notification is taken past
// MaxRequestBytes (a cancellation must never be refused); a larger one is
// dropped there (the server acts on notifications/initialized and
// notifications/cancelled only, a few bytes each).
const mcpSmallMessage = 64 << 10

// mcpStdio is the mcpwire.Transport of `a0 mcp`: newline-delimited JSON-RPC on
// r and w.
type mcpStdio struct {
	r       io.Reader
	w       io.Writer
	maxLine int
	maxHeld int // 0: MaxRequestBytes
}

// Connect implements mcpwire.Transport.
func (t *mcpStdio) Connect(context.Context) (mcpwire.Connection, error) {
	c := newMCPConn(t.w)
	if t.maxHeld > 0 {
		c.maxHeld = t.maxHeld
	}
	maxLine := t.maxLine
	if maxLine <= 0 {
		maxLine = mcpMaxLine
	}
	c.input = newInput(t.r)
	go c.readLoop(bufio.NewReaderSize(c.input, 64<<10), maxLine)
	return c, nil
}

type mcpIncoming struct {
	msg mcpwire.Message
	err error
	// size is what msg, not a call, holds of MaxRequestBytes until the
	// server has handled it (when it reads the next message).
	size int
}

// mcpCall is a request read and not yet answered.
type mcpCall struct {
	cancelled bool // the client cancelled it: its response is not sent
	size      int  // its bytes, held of MaxRequestBytes until the answer
}

// newMCPConn returns a connection that writes to w, with its writing
// goroutine started; Close stops it.
func newMCPConn(w io.Writer) *mcpConn {
	c := &mcpConn{
		output:    newOutput(w),
		out:       make(chan mcpOutgoing),
		writeDone: make(chan struct{}),
		incoming:  make(chan mcpIncoming, 256),
		closed:    make(chan struct{}),
		readDone:  make(chan struct{}),
		calls:     map[mcpwire.ID]*mcpCall{},
		maxHeld:   MaxRequestBytes,
	}
	go c.writeLoop()
	return c
}

// mcpOutgoing is one line for the writing goroutine, and where it tells
// how the write went.
type mcpOutgoing struct {
	data []byte
	done chan error
}

// mcpConn implements mcpwire.Connection over newline-delimited JSON.
//
// Every line goes out through one writing goroutine, so that a write
// never holds a caller past its context or the connection's end: a client
// that stops reading the output (its pipe full) blocks only that
// goroutine. A line handed to it is written whole (lines never
// interleave), also when its caller has given up waiting, while the
// connection lasts. Close ends the wait of a write for a client that does
// not read when the output lets it (newOutput: a file on unix, a socket;
// the line is then cut short) and returns once the goroutine has ended;
// for another writer the goroutine ends when its pending Write returns.
type mcpConn struct {
	output    *mcpOutput
	out       chan mcpOutgoing
	writeDone chan struct{} // closed when the writing goroutine has ended

	incoming  chan mcpIncoming
	closeOnce sync.Once
	closed    chan struct{}
	input     *mcpInput     // nil until Connect
	readDone  chan struct{} // closed when the reading goroutine has ended

	mu sync.Mutex
	// calls are the requests read and not yet answered.
	calls map[mcpwire.ID]*mcpCall
	// held is the bytes of the calls and of the messages read and not
	// yet handled, at most maxHeld (plus small notifications).
	held, maxHeld int
	// handled is the size of the last message Read returned that is not
	// a call: it is released at the next Read, the server having
	// handled it by then.
	handled int
}

// SessionID implements mcpwire.Connection (stdio has no session id).
func (c *mcpConn) SessionID() string { return "" }

// Read implements mcpwire.Connection.
func (c *mcpConn) Read(ctx context.Context) (mcpwire.Message, error) {
	if c.handled > 0 {
		c.release(c.handled)
		c.handled = 0
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case in := <-c.incoming:
		c.handled = in.size
		return in.msg, in.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Close implements mcpwire.Connection. It does not close the streams (stdin
// and stdout belong to the process); a Read waiting for input returns
// io.EOF, and a Write waiting for the output returns mcpwire.ErrClosed
// (the line it carries may still be written, whole, if the output drains).
//
// It interrupts the reading goroutine's wait for input and, when the
// input lets it (a file on unix, a socket), returns once that goroutine
// has ended, so that after the session nothing reads the host's stdin
// (the bytes read ahead of the last message handled are dropped with the
// session).
func (c *mcpConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.output.stop()
		var wait []chan struct{}
		if c.output.prompt {
			wait = append(wait, c.writeDone)
		}
		if c.input != nil {
			c.input.stop()
			if c.input.prompt {
				wait = append(wait, c.readDone)
			}
		}
		deadline := time.After(time.Second)
		for _, ch := range wait {
			select {
			case <-ch:
			case <-deadline:
			}
		}
	})
	return nil
}

// Write implements mcpwire.Connection. The response of a cancelled call is
// dropped; a response that cannot be encoded is replaced by an internal
// error, so that every call gets an answer.
func (c *mcpConn) Write(ctx context.Context, msg mcpwire.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var id mcpwire.ID
	if resp, ok := msg.(*mcpwire.Response); ok && resp.ID.IsValid() {
		id = resp.ID
		c.mu.Lock()
		call := c.calls[id]
		// The id is free again before the answer is on the wire, so the
		// client may reuse it as soon as it has read the answer.
		delete(c.calls, id)
		if call != nil {
			c.held -= call.size
		}
		c.mu.Unlock()
		if call != nil && call.cancelled {
			return nil
		}
	}
	data, err := mcpwire.EncodeMessage(msg)
	if err != nil {
		if !id.IsValid() {
			return err
		}
		data, err = mcpwire.EncodeMessage(&mcpwire.Response{ID: id, Error: &mcpwire.Error{
			Code: mcpwire.CodeInternalError, Message: "internal error: the response could not be encoded: " + err.Error()}})
		if err != nil {
			return err
		}
	}
	return c.writeLine(ctx, data)
}

// EndCall implements mcpwire.CallEnder: a call the client cancelled is
// over without an answer, and its id is free again.
func (c *mcpConn) EndCall(id mcpwire.ID) {
	c.mu.Lock()
	if call := c.calls[id]; call != nil {
		c.held -= call.size
		delete(c.calls, id)
	}
	c.mu.Unlock()
}

// release hands back n bytes of MaxRequestBytes.
func (c *mcpConn) release(n int) {
	c.mu.Lock()
	c.held -= n
	c.mu.Unlock()
}

// writeLine hands data, a message, to the writing goroutine and waits
// until it is written, ctx ends or the connection closes
// (mcpwire.ErrClosed).
func (c *mcpConn) writeLine(ctx context.Context, data []byte) error {
	m := mcpOutgoing{data: append(data, '\n'), done: make(chan error, 1)}
	select {
	case c.out <- m:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.closed:
		return mcpwire.ErrClosed
	}
	select {
	case err := <-m.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-c.closed:
		return mcpwire.ErrClosed
	}
}

// writeLoop writes the lines handed to it, one at a time, until the
// connection closes.
func (c *mcpConn) writeLoop() {
	defer func() {
		c.output.done()
		close(c.writeDone)
	}()
	for {
		select {
		case m := <-c.out:
			select {
			case <-c.closed:
				m.done <- mcpwire.ErrClosed
				return
			default:
			}
			_, err := c.output.Write(m.data)
			m.done <- err
		case <-c.closed:
			return
		}
	}
}

// deliver hands one message or a read error to Read; false once the
// connection is closed.
func (c *mcpConn) deliver(in mcpIncoming) bool {
	select {
	case c.incoming <- in:
		return true
	case <-c.closed:
		return false
	}
}

// readLoop reads lines until the input ends or the connection closes.
func (c *mcpConn) readLoop(r *bufio.Reader, maxLine int) {
	defer func() {
		c.input.done()
		close(c.readDone)
	}()
	for {
		line, tooLong, err := readBoundedLine(r, maxLine)
		if tooLong {
			c.reject(nil, mcpwire.CodeInvalidRequest, "Invalid request: message longer than "+strconv.Itoa(maxLine)+" bytes")
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if msg, size := c.check(line); msg != nil && !c.deliver(mcpIncoming{msg: msg, size: size}) {
				return
			}
		}
		if err != nil {
			c.deliver(mcpIncoming{err: err})
			return
		}
		select {
		case <-c.closed:
			return
		default:
		}
	}
}

// readBoundedLine reads one line without its newline. A line longer than
// max is consumed up to its end and reported as tooLong (without its
// bytes); err is the read error that ended the line, io.EOF at the end.
func readBoundedLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, e := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			line = nil
		}
		return line, tooLong, e
	}
}

// mcpProbe is the shape of a JSON-RPC message; each member keeps its raw
// text so that presence, null and type can be told apart.
type mcpProbe struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// check validates one line. It returns the message to hand to the server, or
// nil after answering the line with an error itself (or dropping it); for
// a message that is not a call, size is what it holds of MaxRequestBytes
// until it is handled (a call's is released at its answer).
func (c *mcpConn) check(line []byte) (msg mcpwire.Message, size int) {
	msg = c.checkLine(line)
	if msg == nil {
		return nil, 0
	}
	n := len(line)
	c.mu.Lock()
	defer c.mu.Unlock()
	if req, ok := msg.(*mcpwire.Request); ok && req.IsCall() {
		c.calls[req.ID].size = n
		c.held += n
		return msg, 0
	}
	if n > mcpSmallMessage && c.held+n > c.maxHeld {
		return nil, 0 // a large notification or response, which the server would ignore
	}
	c.held += n
	return msg, n
}

// checkLine is check without the accounting of MaxRequestBytes but for
// the refusal of a call that would pass it.
func (c *mcpConn) checkLine(line []byte) mcpwire.Message {
	if !json.Valid(line) {
		c.reject(nil, mcpwire.CodeParseError, "Parse error: the line is not valid JSON")
		return nil
	}
	switch line[0] {
	case '{':
	case '[':
		c.reject(nil, mcpwire.CodeInvalidRequest, "Invalid request: JSON-RPC batches are not supported (MCP removed them in protocol 2025-06-18); send one message per line")
		return nil
	default:
		c.reject(nil, mcpwire.CodeInvalidRequest, "Invalid request: a message must be a JSON object")
		return nil
	}
	var p mcpProbe
	if err := json.Unmarshal(line, &p); err != nil {
		// Valid JSON the decoder still refuses (nesting past its limit).
		c.reject(nil, mcpwire.CodeParseError, "Parse error: "+err.Error())
		return nil
	}
	id, idErr := probeID(p.ID)
	if idErr != "" {
		c.reject(nil, mcpwire.CodeInvalidRequest, "Invalid request: "+idErr)
		return nil
	}
	invalid := func(why string) mcpwire.Message {
		c.reject(id, mcpwire.CodeInvalidRequest, "Invalid request: "+why)
		return nil
	}
	if string(p.JSONRPC) != `"2.0"` {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if len(p.Method) > 0 {
		if p.Method[0] != '"' {
			return invalid(`"method" must be a string`)
		}
		if len(p.Params) > 0 && p.Params[0] != '{' && p.Params[0] != '[' {
			return invalid(`"params" must be an object`)
		}
		if len(p.Result) > 0 || len(p.Error) > 0 {
			return invalid(`a request has no "result" or "error"`)
		}
	} else {
		if id == nil {
			return invalid(`a message needs a "method" (a request or notification) or an "id" with "result" or "error" (a response)`)
		}
		if (len(p.Result) > 0) == (len(p.Error) > 0) {
			return invalid(`a message without "method" is a response and needs exactly one of "result" and "error"`)
		}
	}
	msg, err := mcpwire.DecodeMessage(line)
	if err != nil {
		return invalid(err.Error())
	}
	req, ok := msg.(*mcpwire.Request)
	if !ok {
		return msg
	}
	if req.IsCall() {
		c.mu.Lock()
		_, busy := c.calls[req.ID]
		held, over := c.held, c.held+len(line) > c.maxHeld
		if !busy && !over {
			c.calls[req.ID] = &mcpCall{}
		}
		c.mu.Unlock()
		if busy {
			return invalid("id " + string(p.ID) + " is already in use by a request in progress")
		}
		if over {
			c.reject(id, mcpwire.CodeInternalError, "Server busy: the requests in progress hold "+mib(held)+
				" and this one ("+mib(len(line))+") would pass the server's bound of "+mib(c.maxHeld)+
				" for requests held at once; it was not handled. Retry when calls in progress have ended, or send a smaller request")
			return nil
		}
	} else if req.Method == "notifications/cancelled" {
		var params struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &params) == nil {
			if cid, _ := probeID(params.RequestID); cid != nil {
				c.mu.Lock()
				if call := c.calls[*cid]; call != nil {
					call.cancelled = true
				}
				c.mu.Unlock()
			}
		}
	}
	return msg
}

// mib writes n bytes in MiB, one decimal.
func mib(n int) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// probeID decodes a request id: a string or an integer. It returns nil
// when raw is empty (no id), and a reason when the id is not valid.
func probeID(raw json.RawMessage) (*mcpwire.ID, string) {
	if len(raw) == 0 {
		return nil, ""
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, `"id" is not valid JSON`
	}
	switch v := v.(type) {
	case string:
		id, _ := mcpwire.MakeID(v)
		return &id, ""
	case json.Number:
		n, err := strconv.ParseFloat(string(v), 64)
		if err != nil || n != math.Trunc(n) || math.Abs(n) > 1<<53 {
			return nil, `"id" must be a string or an integer`
		}
		id, _ := mcpwire.MakeID(n)
		return &id, ""
	case nil:
		return nil, `"id" must not be null`
	}
	return nil, `"id" must be a string or an integer`
}

// reject answers a malformed line with a JSON-RPC error (id null when the
// line carries no usable id).
func (c *mcpConn) reject(id *mcpwire.ID, code int64, message string) {
	var rawID any
	if id != nil {
		rawID = id.Raw()
	}
	data, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *mcpwire.Error `json:"error"`
	}{"2.0", rawID, &mcpwire.Error{Code: code, Message: message}})
	if err != nil {
		return
	}
	// A failed write means stdout is gone; the server's next write fails
	// the same way and ends the session.
	_ = c.writeLine(context.Background(), data)
}
