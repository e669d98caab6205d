// Package mcpwire is a0's own implementation of the part of the Model
// Context Protocol that a0 speaks: JSON-RPC 2.0 messages, the MCP types a0
// sends and reads, a peer that matches answers to calls, and the client
// and server sessions built on it (spec/mcp.md).
//
// a0 used the official Go SDK until its package initialisation, run by
// every a0 command whether it spoke MCP or not, came to a third of the
// CLI's start-up time. This package links nothing beyond the standard
// library, and none of its variables need work at start-up. The SDK is
// still used by a0's tests, as the other end of the wire.
package mcpwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// ID is a JSON-RPC request id: a string, an integer, or absent (the zero
// ID, which marks a notification). IDs are comparable and serve as map
// keys.
type ID struct {
	v any // nil, int64 or string
}

// Int64ID returns the integer id i.
func Int64ID(i int64) ID { return ID{i} }

// MakeID returns the id of a decoded JSON value: nil, a string, an
// integral number (float64, int64, int or json.Number).
func MakeID(v any) (ID, error) {
	switch v := v.(type) {
	case nil:
		return ID{}, nil
	case string:
		return ID{v}, nil
	case int64:
		return ID{v}, nil
	case int:
		return ID{int64(v)}, nil
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return ID{}, fmt.Errorf("a JSON-RPC id must be an integer, not %v", v)
		}
		return ID{int64(v)}, nil
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return ID{i}, nil
		}
		// An integer written as 1.0 or 1e3 is the same id (and one that
		// other layers, reading it as a float64, take).
		f, err := v.Float64()
		if err != nil {
			return ID{}, fmt.Errorf("a JSON-RPC id must be an integer, not %s", v)
		}
		return MakeID(f)
	}
	return ID{}, fmt.Errorf("a JSON-RPC id must be a string or an integer, not %T", v)
}

// IsValid reports whether the id is present.
func (id ID) IsValid() bool { return id.v != nil }

// Raw returns the id's value: nil, int64 or string.
func (id ID) Raw() any { return id.v }

// String returns the id as it appears on the wire.
func (id ID) String() string {
	switch v := id.v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case string:
		return strconv.Quote(v)
	}
	return "null"
}

// MarshalJSON writes the id.
func (id ID) MarshalJSON() ([]byte, error) {
	if s, ok := id.v.(string); ok {
		return json.Marshal(s)
	}
	return []byte(id.String()), nil
}

// UnmarshalJSON reads an id: null, a string or an integer.
func (id *ID) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*id = ID{s}
		return nil
	}
	if string(data) == "null" {
		*id = ID{}
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(data, &n); err != nil {
		return errors.New("a JSON-RPC id must be a string or an integer")
	}
	v, err := MakeID(n)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// Message is a JSON-RPC message: a *Request (a call or a notification) or
// a *Response.
type Message interface {
	isMessage()
}

// Request is a call (with an ID) or a notification (without one).
type Request struct {
	ID     ID
	Method string
	Params json.RawMessage
}

// IsCall reports whether the request expects an answer.
func (r *Request) IsCall() bool { return r.ID.IsValid() }

// Response answers a call: Result on success, Error on failure.
type Response struct {
	ID     ID
	Result json.RawMessage
	Error  *Error
}

func (*Request) isMessage()  {}
func (*Response) isMessage() {}

// Error is a JSON-RPC error object. It is also the error a call returns
// when the other side answered with one.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`

	// cause is set on an error a0 made itself in place of the other
	// side's answer (NewLocalError); it is never sent.
	cause error
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause of an error a0 made itself, nil for one the
// other side sent.
func (e *Error) Unwrap() error { return e.cause }

// NewLocalError returns an error object that stands for an answer the
// other side did not give or a0 could not take (too large, unreadable):
// its Unwrap is cause, so it is told apart from the other side's errors.
func NewLocalError(code int64, message string, cause error) *Error {
	return &Error{Code: code, Message: message, cause: cause}
}

// methodNotFound is the answer to a method this side does not handle; the
// name is quoted and clipped, so a peer that sends a huge one does not get
// it back whole.
func methodNotFound(method string) *Error {
	return NewError(CodeMethodNotFound, "method not found: "+strconv.Quote(clip(method)))
}

// clip is a text an error quotes from the other side: at most 200 bytes,
// cut on a character boundary.
func clip(s string) string {
	if len(s) <= 200 {
		return s
	}
	return UTF8Prefix(s, 200) + "…"
}

// UTF8Prefix is the longest prefix of s of at most n bytes that does not
// cut a character: how a0 shortens text it quotes from an MCP peer.
func UTF8Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// NewError returns an error object with code and message.
func NewError(code int64, message string) *Error { return &Error{Code: code, Message: message} }

// wire is the JSON form of every message.
type wire struct {
	Version string          `json:"jsonrpc"`
	ID      *ID             `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// EncodeMessage returns the JSON of msg. A response without an error
// carries its result ("null" when Result is empty).
func EncodeMessage(msg Message) ([]byte, error) {
	var w wire
	w.Version = "2.0"
	switch m := msg.(type) {
	case *Request:
		if m.Method == "" {
			return nil, errors.New("mcpwire: a request needs a method")
		}
		if m.ID.IsValid() {
			id := m.ID
			w.ID = &id
		}
		w.Method, w.Params = m.Method, m.Params
	case *Response:
		id := m.ID
		w.ID = &id
		if m.Error != nil {
			w.Error = m.Error
		} else if len(m.Result) == 0 {
			w.Result = json.RawMessage("null")
		} else {
			w.Result = m.Result
		}
		if !m.ID.IsValid() {
			// An error about a message whose id could not be read.
			return json.Marshal(struct {
				Version string          `json:"jsonrpc"`
				ID      *ID             `json:"id"`
				Result  json.RawMessage `json:"result,omitempty"`
				Error   *Error          `json:"error,omitempty"`
			}{"2.0", nil, w.Result, w.Error})
		}
	default:
		return nil, fmt.Errorf("mcpwire: cannot encode %T", msg)
	}
	return json.Marshal(&w)
}

// DecodeMessage reads one JSON-RPC message. It refuses a message that is
// not a JSON object, lacks "jsonrpc": "2.0", or is neither a request
// (it has a method) nor a response (it has an id and a result or an
// error).
func DecodeMessage(data []byte) (Message, error) {
	var w struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   *Error          `json:"error"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	if w.Version != "2.0" {
		return nil, errors.New(`the message lacks "jsonrpc": "2.0"`)
	}
	var id ID
	if len(w.ID) > 0 {
		if err := id.UnmarshalJSON(w.ID); err != nil {
			return nil, err
		}
	}
	if w.Method != "" {
		return &Request{ID: id, Method: w.Method, Params: w.Params}, nil
	}
	if w.Result == nil && w.Error == nil {
		return nil, errors.New("the message is neither a request nor a response")
	}
	if !id.IsValid() && w.Error == nil {
		return nil, errors.New("a response needs an id")
	}
	return &Response{ID: id, Result: w.Result, Error: w.Error}, nil
}
