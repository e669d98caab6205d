package mcpwire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Connection carries JSON-RPC messages one at a time. Read is called from
// one goroutine; Write may be called from several, and the Peer
// serialises its own writes.
type Connection interface {
	// Read returns the next message; io.EOF when the other side is gone.
	Read(ctx context.Context) (Message, error)
	// Write sends one message.
	Write(ctx context.Context, msg Message) error
	// Close ends the connection; a blocked Read returns.
	Close() error
	// SessionID is the transport's session id, or "".
	SessionID() string
}

// CallEnder is implemented by a Connection that keeps state for each call
// of the other side until it writes the answer: EndCall tells it of a call
// that is over without one (the other side cancelled it).
type CallEnder interface {
	EndCall(id ID)
}

// Transport makes a connection.
type Transport interface {
	Connect(ctx context.Context) (Connection, error)
}

// Handler answers one request of the other side. For a call, the result
// (any value json.Marshal takes, or a json.RawMessage) or the error is
// sent back: a *Error as it is, any other error as an internal error with
// its text. For a notification, the result and error are ignored.
type Handler func(ctx context.Context, req *Request) (result any, err error)

// PeerOptions configure a Peer.
type PeerOptions struct {
	// Handler answers the other side's requests; nil answers every call
	// with "method not found" and ignores notifications.
	Handler Handler
	// MaxConcurrent bounds the calls of the other side handled at once;
	// a call beyond it is answered with an error at once. 0 means 8.
	MaxConcurrent int
	// Serial names the methods handled in the reading goroutine, before
	// the next message is read (notifications always are).
	Serial func(method string) bool
}

// MessageError is the error of a Connection's Read about one message it
// could not take, after which it reads on (a JSON-RPC batch on a stdio
// connection): the Peer answers it with a JSON-RPC error of id null with
// Code and Message, as JSON-RPC 2.0 answers a message whose id cannot be
// read, and reads the next message.
type MessageError struct {
	Code    int64
	Message string
}

// Error returns the message.
func (e *MessageError) Error() string { return e.Message }

// ErrClosed is the error of a call on a peer whose connection has ended.
var ErrClosed = errors.New("mcpwire: the connection is closed")

// Peer is one end of a JSON-RPC connection: it sends calls and
// notifications, matches answers to calls, and hands the other side's
// requests to its Handler. A call whose context ends before its answer
// sends notifications/cancelled and returns the context's error; a call of
// the other side that it cancels that way is not answered.
type Peer struct {
	conn Connection
	opts PeerOptions

	ctx    context.Context // ends when the peer closes
	cancel context.CancelFunc

	// writeGate lets one message be written at a time; waiting for it
	// ends with the message's context.
	writeGate chan struct{}
	nextID    atomic.Int64

	mu       sync.Mutex
	pending  map[ID]*pendingCall
	incoming map[ID]context.CancelCauseFunc
	// orphans are the other side's errors with id null not yet laid at
	// a call's door (blame).
	orphans  []*orphanError
	err      error // why the connection ended, once it has
	done     chan struct{}
	sem      chan struct{}
	handlers sync.WaitGroup
}

// NewPeer starts reading conn and returns the peer.
func NewPeer(conn Connection, opts PeerOptions) *Peer {
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 8
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Peer{
		conn: conn, opts: opts, ctx: ctx, cancel: cancel,
		pending:   map[ID]*pendingCall{},
		incoming:  map[ID]context.CancelCauseFunc{},
		done:      make(chan struct{}),
		sem:       make(chan struct{}, opts.MaxConcurrent),
		writeGate: make(chan struct{}, 1),
	}
	go p.readLoop()
	return p
}

// Conn returns the peer's connection.
func (p *Peer) Conn() Connection { return p.conn }

// Done is closed when the connection has ended and every handler has
// returned.
func (p *Peer) Done() <-chan struct{} { return p.done }

// Err returns why the connection ended (io.EOF for the other side
// closing), or nil while it is open.
func (p *Peer) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Close ends the connection and waits for the reading goroutine and the
// handlers to finish.
func (p *Peer) Close() error {
	p.cancel()
	err := p.conn.Close()
	<-p.done
	return err
}

// Call sends method with params and decodes the answer's result into
// result (a pointer, a *json.RawMessage for the raw text, or nil). An
// error answer is returned as a *Error.
func (p *Peer) Call(ctx context.Context, method string, params, result any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return err
	}
	id := Int64ID(p.nextID.Add(1))
	ch := make(chan *Response, 1)
	p.mu.Lock()
	if p.err != nil {
		err := p.err
		p.mu.Unlock()
		return closedErr(err)
	}
	p.pending[id] = &pendingCall{ch: ch}
	p.mu.Unlock()
	forget := func() {
		p.mu.Lock()
		delete(p.pending, id)
		p.clearLocked(id)
		p.mu.Unlock()
	}
	if err := p.write(ctx, &Request{ID: id, Method: method, Params: raw}); err != nil {
		forget()
		return err
	}
	select {
	case resp := <-ch:
		if resp == nil {
			return closedErr(p.Err())
		}
		if resp.Error != nil {
			return resp.Error
		}
		return decodeResult(resp.Result, result)
	case <-ctx.Done():
		forget()
		// Tell the other side; the answer, if any, is dropped.
		nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), notifyWait)
		_ = p.Notify(nctx, NotifyCancelled, &CancelledParams{RequestID: id, Reason: context.Cause(ctx).Error()})
		cancel()
		return context.Cause(ctx)
	}
}

// Notify sends a notification.
func (p *Peer) Notify(ctx context.Context, method string, params any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return err
	}
	return p.write(ctx, &Request{Method: method, Params: raw})
}

func (p *Peer) write(ctx context.Context, msg Message) error {
	select {
	case p.writeGate <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-p.writeGate }()
	if err := p.Err(); err != nil {
		return closedErr(err)
	}
	if r, ok := msg.(*Request); ok && r.IsCall() {
		p.mu.Lock()
		if pc := p.pending[r.ID]; pc != nil {
			pc.sent = true
		}
		p.mu.Unlock()
	}
	err := p.conn.Write(ctx, msg)
	if err != nil && ctx.Err() == nil {
		// A write fails when the connection is going down, most often
		// because its read side failed (the other side wrote something
		// unreadable, or ended): that failure is the reason to report,
		// not "file already closed". The reader records it before it
		// closes the connection.
		t := time.NewTimer(writeFailWait)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
		if perr := p.Err(); perr != nil {
			return closedErr(perr)
		}
	}
	return err
}

// writeFailWait bounds how long a failed write waits for the reader to
// say why the connection went down.
const writeFailWait = 100 * time.Millisecond

// pendingCall is a call of this side awaiting its answer.
type pendingCall struct {
	ch   chan *Response
	sent bool // its write has begun: the other side may have read it
}

// orphanError is an error the other side sent with id null: by JSON-RPC
// 2.0, its answer to a message of ours whose id it could not read (it
// could not parse the message, or found it invalid). suspects are the
// calls sent and not answered when it came: it answers one of them (or a
// notification, which a0's are not, being always well-formed).
type orphanError struct {
	err      *Error
	suspects map[ID]bool
}

// blame takes an error with id null. Only a call can be waiting for it,
// and a call can be answered only once, so a suspect answered (or given
// up) is cleared; the error fails the call it must be about as soon as one
// is left — at once when a single call is in flight — and is dropped when
// none is. Failing every call in flight instead would fail calls the other
// side is still answering; dropping the error left its call to wait for
// its timeout.
func (p *Peer) blame(e *Error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	o := &orphanError{err: e, suspects: map[ID]bool{}}
	for id, pc := range p.pending {
		if pc.sent {
			o.suspects[id] = true
		}
	}
	if len(o.suspects) == 0 {
		return // about a notification, or a call already given up
	}
	p.orphans = append(p.orphans, o)
	p.resolveLocked()
}

// clearLocked clears id, answered or given up, of every suspicion.
func (p *Peer) clearLocked(id ID) {
	if len(p.orphans) == 0 {
		return
	}
	for _, o := range p.orphans {
		delete(o.suspects, id)
	}
	p.resolveLocked()
}

// resolveLocked fails the calls the orphan errors can be told to be
// about: one left alone as the suspect of an error, and all of them when
// the errors are as many as the calls they may be about (each answers a
// different message).
func (p *Peer) resolveLocked() {
	for {
		union := map[ID]bool{}
		i := 0
		for _, o := range p.orphans {
			if len(o.suspects) > 0 {
				p.orphans[i] = o
				i++
			}
			for id := range o.suspects {
				union[id] = true
			}
		}
		clear(p.orphans[i:])
		p.orphans = p.orphans[:i]
		if len(p.orphans) == 0 {
			return
		}
		if len(p.orphans) >= len(union) {
			k := 0
			for id := range union {
				p.failLocked(id, p.orphans[k].err)
				k++
			}
			p.orphans = nil
			return
		}
		var lone *orphanError
		for _, o := range p.orphans {
			if len(o.suspects) == 1 {
				lone = o
				break
			}
		}
		if lone == nil {
			return
		}
		for id := range lone.suspects {
			p.failLocked(id, lone.err)
			for _, o := range p.orphans {
				delete(o.suspects, id)
			}
		}
		lone.suspects = nil
	}
}

// failLocked answers the pending call id with the other side's error e.
func (p *Peer) failLocked(id ID, e *Error) {
	if pc := p.pending[id]; pc != nil {
		delete(p.pending, id)
		pc.ch <- &Response{ID: id, Error: e}
	}
}

func (p *Peer) readLoop() {
	var err error
	for {
		var msg Message
		msg, err = p.conn.Read(p.ctx)
		if err != nil {
			var me *MessageError
			if errors.As(err, &me) && p.ctx.Err() == nil {
				p.answer(ID{}, nil, NewError(me.Code, me.Message))
				continue
			}
			break
		}
		switch m := msg.(type) {
		case *Response:
			if !m.ID.IsValid() {
				if m.Error != nil {
					p.blame(m.Error)
				}
				continue
			}
			p.mu.Lock()
			pc := p.pending[m.ID]
			delete(p.pending, m.ID)
			if pc != nil {
				pc.ch <- m
			}
			p.clearLocked(m.ID)
			p.mu.Unlock()
		case *Request:
			p.handle(m)
		}
	}
	if p.ctx.Err() != nil && !errors.Is(err, io.EOF) {
		err = ErrClosed
	}
	p.mu.Lock()
	p.err = err
	pending := p.pending
	p.pending = map[ID]*pendingCall{}
	p.orphans = nil
	p.mu.Unlock()
	for _, pc := range pending {
		close(pc.ch)
	}
	p.cancel()
	// A connection that can no longer be read is of no use: closing it
	// tells the other side (its reads end) and frees a handler blocked in
	// a write.
	p.conn.Close()
	p.handlers.Wait()
	close(p.done)
}

// handle runs the handler for one request of the other side.
func (p *Peer) handle(req *Request) {
	if !req.IsCall() {
		if req.Method == NotifyCancelled {
			var c CancelledParams
			if json.Unmarshal(req.Params, &c) == nil {
				p.mu.Lock()
				cancel := p.incoming[c.RequestID]
				p.mu.Unlock()
				if cancel != nil {
					cancel(errCancelledByPeer)
				}
			}
		}
		if p.opts.Handler != nil {
			_, _ = p.opts.Handler(p.ctx, req)
		}
		return
	}
	if p.opts.Handler == nil {
		p.answer(req.ID, nil, methodNotFound(req.Method))
		return
	}
	if p.opts.Serial != nil && p.opts.Serial(req.Method) {
		res, err := p.opts.Handler(p.ctx, req)
		p.answer(req.ID, res, err)
		return
	}
	select {
	case p.sem <- struct{}{}:
	default:
		p.answer(req.ID, nil, NewError(CodeInternalError, "too many requests in flight"))
		return
	}
	ctx, cancel := context.WithCancelCause(p.ctx)
	p.mu.Lock()
	if _, dup := p.incoming[req.ID]; dup {
		p.mu.Unlock()
		cancel(nil)
		<-p.sem
		p.answer(req.ID, nil, NewError(CodeInvalidRequest, "a request with id "+req.ID.String()+" is already in flight"))
		return
	}
	p.incoming[req.ID] = cancel
	p.mu.Unlock()
	p.handlers.Add(1)
	go func() {
		defer p.handlers.Done()
		res, err := p.opts.Handler(ctx, req)
		p.mu.Lock()
		delete(p.incoming, req.ID)
		p.mu.Unlock()
		// MCP: the receiver of notifications/cancelled does not answer
		// the request it names.
		withdrawn := context.Cause(ctx) == errCancelledByPeer
		cancel(nil)
		<-p.sem
		if !withdrawn {
			p.answer(req.ID, res, err)
		} else if e, ok := p.conn.(CallEnder); ok {
			e.EndCall(req.ID)
		}
	}()
}

// errCancelledByPeer is the cause of a handler's context ended by the
// other side's notifications/cancelled.
var errCancelledByPeer = errors.New("mcpwire: the request was cancelled by the other side")

// answer sends the response to a call; a failure to send is the
// connection's, and the reading goroutine learns of it.
func (p *Peer) answer(id ID, res any, err error) {
	resp := &Response{ID: id}
	if err != nil {
		var we *Error
		if !errors.As(err, &we) {
			we = NewError(CodeInternalError, err.Error())
		}
		resp.Error = we
	} else {
		raw, merr := marshalParams(res)
		if merr != nil {
			resp.Error = NewError(CodeInternalError, "the result could not be encoded: "+merr.Error())
		} else if raw == nil {
			raw = json.RawMessage("{}")
		}
		resp.Result = raw
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(p.ctx), answerWait)
	defer cancel()
	_ = p.write(ctx, resp)
}

func marshalParams(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	}
	return json.Marshal(v)
}

func decodeResult(raw json.RawMessage, into any) error {
	switch r := into.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*r = append(json.RawMessage(nil), raw...)
		return nil
	}
	return json.Unmarshal(raw, into)
}

func closedErr(err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		return ErrClosed
	}
	return err
}

// IOTransport is newline-delimited JSON-RPC over a reader and a writer
// (the stdio transport of MCP): one message per line.
type IOTransport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// MaxLineLength bounds a line; a longer one ends the connection.
	// 0 means DefaultMaxLineLength.
	MaxLineLength int
}

// DefaultMaxLineLength is the line bound of an IOTransport.
const DefaultMaxLineLength = 1 << 20

// Connect returns the connection; it makes no I/O.
func (t *IOTransport) Connect(context.Context) (Connection, error) {
	max := t.MaxLineLength
	if max <= 0 {
		max = DefaultMaxLineLength
	}
	return &ioConn{r: bufio.NewReaderSize(t.Reader, 64<<10), rc: t.Reader, w: t.Writer, max: max}, nil
}

type ioConn struct {
	r   *bufio.Reader
	rc  io.ReadCloser
	w   io.WriteCloser
	max int

	mu     sync.Mutex
	closed bool
}

// errBatch is the answer to a JSON-RPC batch (a JSON array as one
// message): MCP 2025-06-18 removed batches, and a0 sends none.
var errBatch = &MessageError{Code: CodeInvalidRequest,
	Message: "Invalid request: JSON-RPC batches are not supported (MCP removed them in protocol 2025-06-18); send one message per line"}

// ErrLineTooLong is the error of a Read whose line passes MaxLineLength.
var ErrLineTooLong = errors.New("mcpwire: a message is longer than the line limit")

func (c *ioConn) Read(context.Context) (Message, error) {
	for {
		var line []byte
		for {
			chunk, err := c.r.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > c.max+1 {
				return nil, ErrLineTooLong
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if err == io.EOF && len(bytes.TrimSpace(line)) > 0 {
					break
				}
				return nil, err
			}
			break
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if line[0] == '[' && json.Valid(line) {
			return nil, errBatch
		}
		return DecodeMessage(line)
	}
}

func (c *ioConn) Write(_ context.Context, msg Message) error {
	data, err := EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.w.Write(append(data, '\n'))
	return err
}

func (c *ioConn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	err := c.w.Close()
	if rerr := c.rc.Close(); err == nil {
		err = rerr
	}
	return err
}

func (c *ioConn) SessionID() string { return "" }

const (
	// notifyWait bounds the write of notifications/cancelled after a
	// call's context has ended.
	notifyWait = time.Second
	// answerWait bounds the write of an answer to the other side's call.
	answerWait = 5 * time.Second
)
