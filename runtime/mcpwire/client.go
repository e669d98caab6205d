package mcpwire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The client side of MCP: a Client connects to a server over a Transport,
// runs the handshake (initialize, then notifications/initialized) and
// returns a ClientSession, whose methods send the requests a0 makes. The
// server's own requests are answered as the official SDK's client answers
// them when it has no handlers: ping with {}, roots/list with no roots,
// anything else with "method not found"; a0 declares the roots capability
// (as the SDK does) and no other.

// Errors a0 makes in place of an answer (NewLocalError causes).
var (
	// ErrMessageTooLarge: the answer was longer than the transport's
	// bound and was discarded.
	ErrMessageTooLarge = errors.New("mcpwire: the message is larger than the limit")
	// ErrNoAnswer: the server ended the answer's stream without it, or
	// sent something that is not a JSON-RPC message instead.
	ErrNoAnswer = errors.New("mcpwire: the server gave no usable answer")
)

// CodeMessageTooLarge is the code of the error that stands for an answer
// discarded as too large (its cause is ErrMessageTooLarge).
const CodeMessageTooLarge = -32099

// TooLargeResponse returns the answer that stands for the answer to id
// discarded because it was longer than limit bytes.
func TooLargeResponse(id ID, limit int64) *Response {
	return &Response{ID: id, Error: NewLocalError(CodeMessageTooLarge,
		"a message of the MCP server is larger than a0's limit of "+strconv.FormatInt(limit, 10)+" bytes; it was discarded", ErrMessageTooLarge)}
}

// clientMaxPages bounds the pages a listing follows (a server whose cursors
// never end cannot keep a0 listing).
const clientMaxPages = 1000

// ProgressNotificationClientRequest is a server's notifications/progress.
type ProgressNotificationClientRequest struct {
	Session *ClientSession
	Params  *ProgressNotificationParams
}

// LoggingMessageRequest is a server's notifications/message.
type LoggingMessageRequest struct {
	Session *ClientSession
	Params  *LoggingMessageParams
}

// ClientOptions configure a Client.
type ClientOptions struct {
	// ProgressNotificationHandler receives the server's
	// notifications/progress (in the session's reading goroutine).
	ProgressNotificationHandler func(context.Context, *ProgressNotificationClientRequest)
	// LoggingMessageHandler receives the server's notifications/message.
	LoggingMessageHandler func(context.Context, *LoggingMessageRequest)
}

// Client is an MCP client: its implementation name and its options.
type Client struct {
	impl Implementation
	opts ClientOptions
}

// NewClient returns a client that announces impl.
func NewClient(impl *Implementation, opts *ClientOptions) *Client {
	c := &Client{}
	if impl != nil {
		c.impl = *impl
	}
	if opts != nil {
		c.opts = *opts
	}
	return c
}

// ClientSessionOptions configure one session.
type ClientSessionOptions struct {
	// ProtocolVersion is the version asked for at initialize ("" for
	// LatestProtocolVersion). The server may answer with any of
	// SupportedProtocolVersions.
	ProtocolVersion string
	// MaxConcurrent bounds the server's requests handled at once (0: the
	// Peer's default).
	MaxConcurrent int
}

// ClientSession is an initialized connection to a server. Its methods
// are safe for concurrent use.
type ClientSession struct {
	client *Client
	peer   *Peer
	init   *InitializeResult

	closeOnce sync.Once
	closeErr  error
}

// protocolVersionSetter is a connection that sends the negotiated
// version with its messages (the streamable HTTP transport).
type protocolVersionSetter interface {
	setProtocolVersion(v string)
}

// Connect connects over t and runs the handshake. It fails when the
// server answers with a protocol version a0 does not speak. ctx bounds the
// handshake only; when it ends first, the connection is closed (the
// initialize request is not cancelled: the protocol forbids it).
func (c *Client) Connect(ctx context.Context, t Transport, opts *ClientSessionOptions) (*ClientSession, error) {
	version := LatestProtocolVersion
	var peerOpts PeerOptions
	if opts != nil {
		if opts.ProtocolVersion != "" {
			version = opts.ProtocolVersion
		}
		peerOpts.MaxConcurrent = opts.MaxConcurrent
	}
	conn, err := t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	cs := &ClientSession{client: c}
	peerOpts.Handler = cs.handle
	cs.peer = NewPeer(conn, peerOpts)

	params := &InitializeParams{ProtocolVersion: version, ClientInfo: &c.impl}
	params.Capabilities.Roots = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: true}
	var res InitializeResult
	done := make(chan error, 1)
	go func() { done <- cs.peer.Call(context.WithoutCancel(ctx), MethodInitialize, params, &res) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		cs.peer.Close()
		<-done
		return nil, ctx.Err()
	}
	if err != nil {
		cs.peer.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if !slices.Contains(SupportedProtocolVersions, res.ProtocolVersion) {
		cs.peer.Close()
		return nil, fmt.Errorf("the server answered initialize with protocol version %q; a0 speaks %s", res.ProtocolVersion, strings.Join(SupportedProtocolVersions, ", "))
	}
	cs.init = &res
	if s, ok := conn.(protocolVersionSetter); ok {
		s.setProtocolVersion(res.ProtocolVersion)
	}
	if err := cs.peer.Notify(ctx, MethodInitialized, json.RawMessage("{}")); err != nil {
		cs.peer.Close()
		return nil, fmt.Errorf("notifications/initialized: %w", err)
	}
	return cs, nil
}

// handle answers the server's requests and routes its notifications.
func (cs *ClientSession) handle(ctx context.Context, req *Request) (any, error) {
	switch req.Method {
	case MethodPing:
		return json.RawMessage("{}"), nil
	case MethodListRoots:
		return json.RawMessage(`{"roots":[]}`), nil
	case NotifyProgress:
		if h := cs.client.opts.ProgressNotificationHandler; h != nil {
			var p ProgressNotificationParams
			if json.Unmarshal(req.Params, &p) == nil {
				h(ctx, &ProgressNotificationClientRequest{Session: cs, Params: &p})
			}
		}
		return nil, nil
	case NotifyMessage:
		if h := cs.client.opts.LoggingMessageHandler; h != nil {
			var p LoggingMessageParams
			if json.Unmarshal(req.Params, &p) == nil {
				h(ctx, &LoggingMessageRequest{Session: cs, Params: &p})
			}
		}
		return nil, nil
	}
	if !req.IsCall() {
		return nil, nil
	}
	return nil, methodNotFound(req.Method)
}

// InitializeResult returns the server's answer to initialize.
func (cs *ClientSession) InitializeResult() *InitializeResult { return cs.init }

// ID returns the transport's session id ("" for stdio).
func (cs *ClientSession) ID() string { return cs.peer.Conn().SessionID() }

// Call sends any request and decodes its result into result (a pointer,
// a *json.RawMessage for the raw text, or nil). An error answer of the
// server is a *Error whose Unwrap is nil.
func (cs *ClientSession) Call(ctx context.Context, method string, params, result any) error {
	return cs.peer.Call(ctx, method, params, result)
}

// Ping sends ping.
func (cs *ClientSession) Ping(ctx context.Context) error {
	return cs.peer.Call(ctx, MethodPing, nil, nil)
}

// ListTools returns one page of tools/list.
func (cs *ClientSession) ListTools(ctx context.Context, params *ListParams) (*ListToolsResult, error) {
	var res ListToolsResult
	if err := cs.peer.Call(ctx, MethodListTools, clientListParams(params), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Tools yields every tool, following the pages; iteration stops at the
// first error, which is yielded.
func (cs *ClientSession) Tools(ctx context.Context, params *ListParams) iter.Seq2[*Tool, error] {
	return clientPaginate(params, func(p *ListParams) ([]*Tool, string, error) {
		res, err := cs.ListTools(ctx, p)
		if err != nil {
			return nil, "", err
		}
		return res.Tools, res.NextCursor, nil
	})
}

// CallTool sends tools/call.
func (cs *ClientSession) CallTool(ctx context.Context, params *CallToolParams) (*CallToolResult, error) {
	var res CallToolResult
	if err := cs.peer.Call(ctx, MethodCallTool, params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ListResources returns one page of resources/list.
func (cs *ClientSession) ListResources(ctx context.Context, params *ListParams) (*ListResourcesResult, error) {
	var res ListResourcesResult
	if err := cs.peer.Call(ctx, MethodListResources, clientListParams(params), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Resources yields every resource, following the pages.
func (cs *ClientSession) Resources(ctx context.Context, params *ListParams) iter.Seq2[*Resource, error] {
	return clientPaginate(params, func(p *ListParams) ([]*Resource, string, error) {
		res, err := cs.ListResources(ctx, p)
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	})
}

// ListResourceTemplates returns one page of resources/templates/list.
func (cs *ClientSession) ListResourceTemplates(ctx context.Context, params *ListParams) (*ListResourceTemplatesResult, error) {
	var res ListResourceTemplatesResult
	if err := cs.peer.Call(ctx, MethodListResourceTemplates, clientListParams(params), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ResourceTemplates yields every resource template, following the pages.
func (cs *ClientSession) ResourceTemplates(ctx context.Context, params *ListParams) iter.Seq2[*ResourceTemplate, error] {
	return clientPaginate(params, func(p *ListParams) ([]*ResourceTemplate, string, error) {
		res, err := cs.ListResourceTemplates(ctx, p)
		if err != nil {
			return nil, "", err
		}
		return res.ResourceTemplates, res.NextCursor, nil
	})
}

// ReadResource sends resources/read.
func (cs *ClientSession) ReadResource(ctx context.Context, params *ReadResourceParams) (*ReadResourceResult, error) {
	var res ReadResourceResult
	if err := cs.peer.Call(ctx, MethodReadResource, params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// SetLoggingLevel sends logging/setLevel.
func (cs *ClientSession) SetLoggingLevel(ctx context.Context, params *SetLoggingLevelParams) error {
	return cs.peer.Call(ctx, MethodSetLevel, params, nil)
}

// Close ends the session (for streamable HTTP, it deletes the server's
// session) and waits for its goroutines.
func (cs *ClientSession) Close() error {
	cs.closeOnce.Do(func() { cs.closeErr = cs.peer.Close() })
	return cs.closeErr
}

// Wait waits until the connection ends and returns why (nil when it was
// closed or the server ended it cleanly).
func (cs *ClientSession) Wait() error {
	<-cs.peer.Done()
	if err := cs.peer.Err(); err != nil && !errors.Is(err, ErrClosed) && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

func clientListParams(p *ListParams) *ListParams {
	if p == nil {
		return &ListParams{}
	}
	return p
}

// clientPaginate yields the items of each page, following nextCursor until it
// is empty; a cursor seen before, or more than clientMaxPages pages, is an
// error.
func clientPaginate[T any](params *ListParams, page func(*ListParams) ([]*T, string, error)) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		p := *clientListParams(params)
		// The cursors seen are kept by hash: a cursor may be as long as a
		// message (16 MiB), and a thousand of them must not be kept.
		seed := maphash.MakeSeed()
		seen := map[uint64]bool{}
		for n := 0; ; n++ {
			if n == clientMaxPages {
				yield(nil, fmt.Errorf("the server's listing has more than %d pages", clientMaxPages))
				return
			}
			items, next, err := page(&p)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, it := range items {
				if it == nil {
					continue
				}
				if !yield(it, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			h := maphash.String(seed, next)
			if seen[h] {
				yield(nil, fmt.Errorf("the server's listing repeats the cursor %q", clip(next)))
				return
			}
			seen[h] = true
			p.Cursor = next
		}
	}
}
