package mcpwire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// StreamableClientTransport is the client side of MCP's streamable HTTP
// transport, as a0 uses it: each message is POSTed to Endpoint; the
// answer to a call is a JSON body or a text/event-stream whose events
// carry the server's notifications and requests and then the answer. The
// session id the server gives (Mcp-Session-Id) is sent with every later
// request, the negotiated protocol version (MCP-Protocol-Version) with
// every request after initialize, and Close deletes the session. There is
// no standalone GET stream and no retry or resumption: a stream that ends
// without the answer fails its call.
type StreamableClientTransport struct {
	// Endpoint is the server's MCP URL.
	Endpoint string
	// HTTPClient sends the requests (nil: http.DefaultClient).
	HTTPClient *http.Client
	// MaxMessageBytes bounds one message read (a JSON body, an event's
	// data); an answer over it is discarded and its call fails with
	// ErrMessageTooLarge. 0 means DefaultMaxMessageBytes.
	MaxMessageBytes int64
	// Rewrite, when set, sees each message that comes with the answer to
	// a call before it is decoded, and returns the text to decode: ctx is
	// the call's, method its method. (a0 takes apart tools/list answers
	// nested too deep to decode.)
	Rewrite func(ctx context.Context, method string, data []byte) []byte
}

// DefaultMaxMessageBytes is the message bound of a
// StreamableClientTransport.
const DefaultMaxMessageBytes = 16 << 20

const (
	// clientDeleteWait bounds the DELETE of the session at Close.
	clientDeleteWait = 2 * time.Second
	// clientErrorBodyBytes bounds what is read of a body that is not an answer.
	clientErrorBodyBytes = 64 << 10
	clientSessionHeader  = "Mcp-Session-Id"
	clientVersionHeader  = "Mcp-Protocol-Version"
)

// ErrSessionGone is the error of a request the server refused with 404
// for the session id a0 sent: the server has ended the session.
var ErrSessionGone = errors.New("the MCP server has ended the session (HTTP 404)")

// Connect returns the connection; it makes no request.
func (t *StreamableClientTransport) Connect(context.Context) (Connection, error) {
	hc := t.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	max := t.MaxMessageBytes
	if max <= 0 {
		max = DefaultMaxMessageBytes
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &streamClientConn{url: t.Endpoint, hc: hc, max: max, rewrite: t.Rewrite, ctx: ctx, cancel: cancel,
		incoming: make(chan Message, 16), closed: make(chan struct{}), failed: make(chan struct{})}, nil
}

type streamClientConn struct {
	url     string
	hc      *http.Client
	max     int64
	rewrite func(context.Context, string, []byte) []byte

	ctx    context.Context // ends at Close: aborts every request
	cancel context.CancelFunc

	incoming chan Message
	closed   chan struct{}
	wg       sync.WaitGroup // the goroutines reading answers

	closeOnce sync.Once
	failOnce  sync.Once
	failed    chan struct{}
	failErr   error

	mu        sync.Mutex
	sessionID string
	version   string
	closing   bool // no reader starts once Close waits for them
}

func (c *streamClientConn) fail(err error) {
	c.failOnce.Do(func() {
		c.failErr = err
		close(c.failed)
	})
}

func (c *streamClientConn) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

func (c *streamClientConn) setProtocolVersion(v string) {
	c.mu.Lock()
	c.version = v
	c.mu.Unlock()
}

func (c *streamClientConn) Read(ctx context.Context) (Message, error) {
	select {
	case m := <-c.incoming:
		return m, nil
	default:
	}
	select {
	case m := <-c.incoming:
		return m, nil
	case <-c.failed:
		return nil, c.failErr
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliver hands a message to Read, unless the connection closes first.
func (c *streamClientConn) deliver(m Message) {
	select {
	case c.incoming <- m:
	case <-c.closed:
	}
}

func (c *streamClientConn) setHeaders(h http.Header) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessionID != "" {
		h.Set(clientSessionHeader, c.sessionID)
	}
	if c.version != "" {
		h.Set(clientVersionHeader, c.version)
	}
}

func (c *streamClientConn) Write(ctx context.Context, msg Message) error {
	select {
	case <-c.closed:
		return ErrClosed
	case <-c.failed:
		return c.failErr
	default:
	}
	data, err := EncodeMessage(msg)
	if err != nil {
		return err
	}
	what := "a response"
	var call *Request
	if r, ok := msg.(*Request); ok {
		what = r.Method
		if r.IsCall() {
			call = r
		}
	}
	// The request ends with the caller's context or at Close.
	rctx, cancelReq := context.WithCancel(ctx)
	stop := context.AfterFunc(c.ctx, cancelReq)
	release := func() { stop(); cancelReq() }
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, c.url, bytes.NewReader(data))
	if err != nil {
		release()
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	c.setHeaders(req.Header)
	if call == nil {
		// A notification or an answer: the server accepts it (202).
		defer release()
		resp, err := c.post(req, what)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, clientErrorBodyBytes))
		resp.Body.Close()
		return nil
	}
	// A call goes out in a goroutine of its own: its answer may take as
	// long as the call, and no other message waits for it. A failure is
	// its answer.
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		release()
		return ErrClosed
	}
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer release()
		c.exchange(rctx, req, call)
	}()
	return nil
}

// post sends req and checks the status and the session id of the answer;
// on an error the body is closed.
func (c *streamClientConn) post(req *http.Request, what string) (*http.Response, error) {
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("sending %s to the MCP server: %w", what, err)
	}
	if err := c.keepSession(resp); err != nil {
		resp.Body.Close()
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, c.statusError(what, resp)
	}
	return resp, nil
}

// exchange sends the call id and reads its answer, or makes one that
// says what went wrong.
func (c *streamClientConn) exchange(ctx context.Context, req *http.Request, call *Request) {
	what, id := call.Method, call.ID
	resp, err := c.post(req, what)
	if err != nil {
		if ctx.Err() != nil {
			return // the call is over
		}
		var we *Error
		if errors.As(err, &we) {
			c.deliver(&Response{ID: id, Error: we}) // the server's own error
			return
		}
		c.deliver(&Response{ID: id, Error: NewLocalError(CodeInternalError, err.Error(), err)})
		return
	}
	switch ct := clientMediaType(resp.Header.Get("Content-Type")); {
	case ct == "application/json":
		c.readJSON(ctx, resp, call)
	case ct == "text/event-stream":
		c.readSSE(ctx, resp, call)
	case resp.StatusCode == http.StatusAccepted:
		resp.Body.Close()
		c.deliver(clientNoAnswer(id, "the MCP server accepted "+what+" without answering it (HTTP 202; a0 opens no stream for answers sent later)"))
	default:
		resp.Body.Close()
		c.deliver(clientNoAnswer(id, fmt.Sprintf("the MCP server answered %s with content type %q, not JSON or an event stream", what, ct)))
	}
}

// keepSession keeps the session id the server gives; a different one
// later is an error.
func (c *streamClientConn) keepSession(resp *http.Response) error {
	sid := resp.Header.Get(clientSessionHeader)
	if sid == "" {
		return nil
	}
	for i := 0; i < len(sid); i++ {
		if sid[i] < 0x21 || sid[i] > 0x7e {
			return errors.New("the MCP server gave a session id with characters other than visible ASCII")
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessionID == "" {
		c.sessionID = sid
		return nil
	}
	if c.sessionID != sid {
		return fmt.Errorf("the MCP server changed its session id from %q to %q", c.sessionID, sid)
	}
	return nil
}

// statusError words a request the server refused; a JSON-RPC error in
// the body is returned as the server's error.
func (c *streamClientConn) statusError(what string, resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, clientErrorBodyBytes))
	resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound && c.SessionID() != "" {
		c.fail(ErrSessionGone)
		return ErrSessionGone
	}
	if m, err := DecodeMessage(bytes.TrimSpace(body)); err == nil {
		if r, ok := m.(*Response); ok && r.Error != nil {
			return r.Error
		}
	}
	return fmt.Errorf("the MCP server refused %s: HTTP %s", what, resp.Status)
}

func clientNoAnswer(id ID, why string) *Response {
	return &Response{ID: id, Error: NewLocalError(CodeInternalError, why, ErrNoAnswer)}
}

// decode decodes a message that came with the answer to call. An error
// with id null is the answer to call: it came in the answer to the one
// request the POST carried, whose id the server could not read.
func (c *streamClientConn) decode(ctx context.Context, call *Request, data []byte) (Message, error) {
	if c.rewrite != nil {
		data = c.rewrite(ctx, call.Method, data)
	}
	m, err := DecodeMessage(data)
	if r, ok := m.(*Response); ok && !r.ID.IsValid() && r.Error != nil {
		r.ID = call.ID
	}
	return m, err
}

// readJSON reads the JSON body that answers call.
func (c *streamClientConn) readJSON(ctx context.Context, resp *http.Response, call *Request) {
	id := call.ID
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.max+1))
	if err != nil {
		if ctx.Err() == nil {
			c.deliver(clientNoAnswer(id, "reading the MCP server's answer: "+err.Error()))
		}
		return
	}
	if int64(len(body)) > c.max {
		c.deliver(TooLargeResponse(id, c.max))
		return
	}
	m, err := c.decode(ctx, call, body)
	if err != nil {
		c.deliver(clientNoAnswer(id, "the MCP server's answer is not a JSON-RPC message: "+err.Error()))
		return
	}
	c.deliver(m)
	if r, ok := m.(*Response); !ok || r.ID != id {
		c.deliver(clientNoAnswer(id, "the MCP server's JSON answer is not the answer to the call"))
	}
}

// readSSE reads the event stream that answers call: each event's data is
// a message; the stream is done at the answer.
func (c *streamClientConn) readSSE(ctx context.Context, resp *http.Response, call *Request) {
	id := call.ID
	defer resp.Body.Close()
	lines := &sseLines{r: bufio.NewReaderSize(resp.Body, 64<<10)}
	var data []byte
	var name string
	hasData := false
	skipping := false // the rest of an over-long notification's event
	fail := func(m *Response) {
		if ctx.Err() == nil {
			c.deliver(m)
		}
	}
	// tooLarge handles an event over the bound whose data begins with
	// head: a request or notification of the server answers no call and
	// is skipped (false); anything else stands for the answer (true).
	tooLarge := func(head []byte) bool {
		if sseHeadIsRequest(head) {
			skipping, data, hasData = true, data[:0], false
			return false
		}
		fail(TooLargeResponse(id, c.max))
		return true
	}
	for {
		line, err := lines.next(c.max)
		if err == errSSELineTooLong {
			if skipping {
				continue
			}
			field, head, _ := bytes.Cut(line, []byte(":"))
			if string(field) != "data" {
				fail(TooLargeResponse(id, c.max))
				return
			}
			if hasData {
				head = data
			}
			if tooLarge(bytes.TrimPrefix(head, []byte(" "))) {
				return
			}
			continue
		}
		if err != nil {
			// The stream ended (an unfinished event is dropped).
			why := "the MCP server ended its event stream without answering"
			if err != io.EOF {
				why = "reading the MCP server's event stream: " + err.Error()
			}
			fail(clientNoAnswer(id, why))
			return
		}
		if len(line) == 0 {
			// The end of an event; one without data (a priming event that
			// carries only an id) or of another name carries no message.
			if !skipping && len(data) > 0 && (name == "" || name == "message") {
				m, err := c.decode(ctx, call, data)
				if err != nil {
					fail(clientNoAnswer(id, "an event of the MCP server is not a JSON-RPC message: "+err.Error()))
					return
				}
				c.deliver(m)
				if r, ok := m.(*Response); ok && r.ID == id {
					return
				}
			}
			data, name, hasData, skipping = data[:0], "", false, false
			continue
		}
		if skipping || line[0] == ':' {
			continue // a comment
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, value...)
			hasData = true
			if int64(len(data)) > c.max && tooLarge(data) {
				return
			}
		case "event":
			name = string(value)
		}
	}
}

var errSSELineTooLong = errors.New("line too long")

// sseKeepHead is how much of an over-long line sseLines.next keeps.
const sseKeepHead = 4 << 10

// sseHeadIsRequest reports whether head, the start of a message cut
// short, shows a "method" member at its top level: the message is a
// request or notification, not an answer.
func sseHeadIsRequest(head []byte) bool {
	d := json.NewDecoder(bytes.NewReader(head))
	depth := 0
	key := true // at depth 1, the next string is a member name
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if t, ok := tok.(json.Delim); ok {
			if t == '{' || t == '[' {
				if depth == 0 && t != '{' {
					return false
				}
				depth++
			} else {
				depth--
			}
			key = depth == 1
			continue
		}
		if depth == 1 && key {
			if tok == "method" {
				return true
			}
			key = false
			continue
		}
		key = depth == 1
	}
}

// sseLines reads the lines of an event stream, which end with \r\n, \n
// or \r alone (the event-stream format allows all three).
type sseLines struct {
	r      *bufio.Reader
	skipLF bool // the last line ended with \r: a \n first is its end too
}

// next returns the next line without its end, at most max bytes (a
// longer one is read to its end and errSSELineTooLong returned with its
// first sseKeepHead bytes). It
// does not wait for the byte after a \r, so an event whose lines end
// with \r alone is dispatched when its blank line arrives.
func (s *sseLines) next(max int64) ([]byte, error) {
	var line []byte
	over := false
	for {
		if _, err := s.r.Peek(1); err != nil {
			return nil, err
		}
		buf, _ := s.r.Peek(s.r.Buffered())
		if s.skipLF {
			s.skipLF = false
			if buf[0] == '\n' {
				s.r.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(buf, "\r\n")
		n := i
		if i < 0 {
			n = len(buf)
		}
		if !over && int64(len(line)+n) > max {
			// The rest of the line is read and dropped; its start is
			// kept, to tell what it was.
			over = true
			line = line[:min(len(line), sseKeepHead)]
			line = append(line, buf[:min(n, sseKeepHead-len(line))]...)
		} else if !over {
			line = append(line, buf[:n]...)
		}
		if i < 0 {
			s.r.Discard(n)
			continue
		}
		s.skipLF = buf[i] == '\r'
		s.r.Discard(i + 1)
		if over {
			return line, errSSELineTooLong
		}
		return line, nil
	}
}

// Close deletes the server's session (when it gave one and has not ended
// it), aborts the requests in flight and waits for their readers.
func (c *streamClientConn) Close() error {
	c.closeOnce.Do(func() {
		if sid := c.SessionID(); sid != "" && !errors.Is(c.failure(), ErrSessionGone) {
			ctx, cancel := context.WithTimeout(context.Background(), clientDeleteWait)
			req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil)
			if err == nil {
				c.setHeaders(req.Header)
				if resp, err := c.hc.Do(req); err == nil {
					io.Copy(io.Discard, io.LimitReader(resp.Body, clientErrorBodyBytes))
					resp.Body.Close()
				}
			}
			cancel()
		}
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		c.cancel()
		close(c.closed)
		c.wg.Wait()
	})
	return nil
}

func (c *streamClientConn) failure() error {
	select {
	case <-c.failed:
		return c.failErr
	default:
		return nil
	}
}

// clientMediaType is the media type of a Content-Type, without parameters.
func clientMediaType(v string) string {
	t, _, _ := strings.Cut(v, ";")
	return strings.ToLower(strings.TrimSpace(t))
}
