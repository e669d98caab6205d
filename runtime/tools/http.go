package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// HTTPGet is the http.get tool. Every request goes through a client that
// enforces the tool's HTTPScope on each connection and redirect; its zero
// value has the zero scope (any host, private addresses refused, 64 MiB
// bodies). [New] builds it with a Config.
type HTTPGet struct{ cfg *Config }

// Name implements runtime.Tool.
func (HTTPGet) Name() string { return "http.get" }

// Capability implements runtime.Tool.
func (HTTPGet) Capability() string { return "http.get" }

// Mode implements runtime.Tool.
func (HTTPGet) Mode() runtime.Mode { return runtime.ModeRead }

// AwaitedOnStop implements runtime.Awaited: the call returns once its
// context ends (a command after its stop sequence), and is waited for.
func (HTTPGet) AwaitedOnStop() bool { return true }

// Params implements runtime.Tool.
func (HTTPGet) Params() []runtime.Param {
	return []runtime.Param{
		{Name: "url", Type: runtime.TypeString, Required: true, Doc: "http, https or data: URL"},
		{Name: "headers", Type: runtime.TypeStringMap, Doc: "request headers"},
	}
}

// maxBody bounds the response body kept in memory.
const maxBody = 64 << 20

var errFetch = errors.New("fetch failed")

// Call implements runtime.Tool.
func (h HTTPGet) Call(c *runtime.Call) (value.Value, error) {
	raw := c.Args.GetOrNull("url").AsString()
	hs := c.Args.GetOrNull("headers").AsRecord()
	// The order of fetch's checks: header values as byte strings, the
	// URL, its credentials, then each header value.
	headers, err := byteStringHeaders(hs)
	if err != nil {
		return value.Value{}, err
	}
	fu, err := parseFetchURL(raw)
	if err != nil {
		// Node repeats the URL as given; its user info is masked here.
		return value.Value{}, errors.New("Failed to parse URL from " + maskUserinfo(raw))
	}
	if fu.creds {
		// As fetch refuses it, but the user info is not repeated: the
		// message reaches stderr and the trace.
		return value.Value{}, errors.New("Request cannot be constructed from a URL that includes credentials: " + fu.masked())
	}
	if err := validHeaderValues(hs, headers); err != nil {
		return value.Value{}, err
	}
	if fu.scheme == "data" {
		return dataURL("data:" + fu.opaque)
	}
	if fu.scheme != "http" && fu.scheme != "https" {
		return value.Value{}, errFetch
	}
	u, err := url.Parse(fu.target())
	if err != nil {
		// Go refuses what the URL standard sends as written (a "%" not
		// followed by two hex digits): send the path and query verbatim.
		path, query, _ := strings.Cut(fu.rest, "?")
		u = &url.URL{Scheme: fu.scheme, Host: fu.hostPort(), Opaque: path, RawQuery: query, ForceQuery: strings.Contains(fu.rest, "?")}
		if strings.HasPrefix(path, "//") {
			return value.Value{}, errFetch
		}
	}
	ctx := c.Ctx
	scope := h.cfg.httpScope()
	// Secret placeholders in header values (spec/security.md, "Secrets")
	// are checked first: a secret never goes to a host its "to" does not
	// list, whatever the http section says.
	names, sets, err := headerSecrets(c, h.cfg, u.Hostname())
	if err != nil {
		return value.Value{}, err
	}
	if err := scope.checkHost(u.Hostname()); err != nil {
		return value.Value{}, scopeRefusal(c, err)
	}
	limit := int64(maxBody)
	if scope.MaxResponseBytes > 0 {
		limit = scope.MaxResponseBytes
	}
	if scope.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, scope.Timeout)
		defer cancel()
	}
	client := scopedClient(c, scope)
	// The URL is set as built: u may carry an opaque path no string
	// form of it would parse back to.
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
	if err != nil {
		return value.Value{}, errFetch
	}
	req.URL, req.Host = u, u.Host
	req.Header.Set("Accept", "*/*")
	req.Header.Set("Accept-Language", "*")
	req.Header.Set("Sec-Fetch-Mode", "cors")
	req.Header.Set("User-Agent", "node")
	req.Header.Set("Accept-Encoding", acceptEncoding)
	req.Header.Set("Connection", "keep-alive")
	if hs != nil {
		for i, k := range hs.Keys() {
			if !dispatchableHeader(k, headers[i]) {
				return value.Value{}, errFetch
			}
		}
		// Names differ only in case: fetch joins their values with ", "
		// into one header, in the record's order.
		given := map[string]bool{}
		for i, k := range hs.Keys() {
			v := headers[i]
			if given[http.CanonicalHeaderKey(k)] {
				v = req.Header.Get(k) + ", " + v
			}
			given[http.CanonicalHeaderKey(k)] = true
			if strings.EqualFold(k, "host") {
				req.Host = v
			}
			req.Header.Set(k, v)
		}
	}
	if req.Host != u.Host {
		// A Host header names the site a shared server (a CDN, a proxy)
		// answers for: it must pass the policy's http section, and go
		// with the secrets, as the URL's host does, or a program could
		// reach a denied host through an allowed one's address.
		vhost := req.Host
		if name, _, err := net.SplitHostPort(vhost); err == nil {
			vhost = name
		}
		vhost = domainToASCII(strings.Trim(vhost, "[]"))
		if err := scope.checkHost(vhost); err != nil {
			return value.Value{}, scopeRefusal(c, err)
		}
		if _, _, err := headerSecrets(c, h.cfg, vhost); err != nil {
			return value.Value{}, err
		}
	}
	if req, err = secretHeaders(c, h.cfg, req, names, sets); err != nil {
		return value.Value{}, err
	}
	resp, err := client.Do(req)
	if err != nil {
		if rerr := scopeRefusal(c, err); rerr != nil {
			return value.Value{}, rerr
		}
		if c.Ctx.Err() != nil {
			return value.Value{}, c.Ctx.Err()
		}
		return value.Value{}, errFetch
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if ctx.Err() != nil {
			return value.Value{}, errFetch
		}
		// fetch has answered with the head; a body that breaks off
		// (the server closed early) fails its read as "terminated".
		return value.Value{}, errTerminated
	}
	if int64(len(body)) > limit {
		return value.Value{}, bodyTooLarge(limit)
	}
	if body, err = decodeBody(resp.StatusCode, resp.Header, body, limit); err != nil {
		return value.Value{}, err
	}
	if int64(len(body)) > limit {
		return value.Value{}, bodyTooLarge(limit)
	}
	// Every secret read in the run is masked in the response.
	return maskValue(secretsFor(c, h.cfg).masker(), response(resp.StatusCode, resp.Header, body)), nil
}

func response(status int, h http.Header, body []byte) value.Value {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, strings.ToLower(k))
	}
	sort.Strings(names)
	hr := value.NewRecord(len(names))
	for _, n := range names {
		vals := h.Values(n)
		if n == "set-cookie" && len(vals) > 0 {
			hr.Set(n, value.Str(vals[len(vals)-1]))
			continue
		}
		hr.Set(n, value.Str(strings.Join(vals, ", ")))
	}
	text := value.DecodeBytes(body)
	text = strings.TrimPrefix(text, "\uFEFF")
	r := value.NewRecord(3)
	r.Set("status", value.Int(status))
	r.Set("headers", value.RecordOf(hr))
	r.Set("body", value.Str(text))
	return value.RecordOf(r)
}

// dispatchableHeader is false for the request headers Node's HTTP client
// refuses to send (Upgrade, Expect, Connection other than close or
// keep-alive): fetch then fails as for a network error, connecting nowhere.
func dispatchableHeader(name, v string) bool {
	switch strings.ToLower(name) {
	case "upgrade", "expect", "keep-alive", "transfer-encoding":
		return false
	case "connection":
		v = strings.ToLower(v)
		return v == "close" || v == "keep-alive"
	}
	return true
}

// byteStringHeaders turns each header value into the bytes fetch sends:
// one byte per UTF-16 unit, so a character above U+00FF is refused with
// the message of fetch's ByteString conversion (é goes as the byte E9).
func byteStringHeaders(hs *value.Record) ([]string, error) {
	if hs == nil {
		return nil, nil
	}
	out := make([]string, hs.Len())
	for i := range out {
		units := value.Units(hs.At(i).AsString())
		b := make([]byte, len(units))
		for j, u := range units {
			if u > 0xff {
				//lint:ignore ST1005 this is fetch's wording, which the reference reports verbatim
				return nil, fmt.Errorf("Cannot convert argument to a ByteString because the character at index %d has a value of %d which is greater than 255.", j, u)
			}
			b[j] = byte(u)
		}
		out[i] = string(b)
	}
	return out, nil
}

// validHeaderValues applies fetch's header value rule: leading and
// trailing tabs, spaces, CRs and LFs are dropped, and what is left must
// hold no CR, LF or NUL. Node's message repeats the value; a0 shows it
// masked, as the trace does, since header values carry credentials.
func validHeaderValues(hs *value.Record, headers []string) error {
	for i, v := range headers {
		v = strings.Trim(v, "\t\n\r ")
		headers[i] = v
		if strings.ContainsAny(v, "\r\n\x00") {
			//lint:ignore ST1005 this is fetch's wording, which the reference reports verbatim
			return fmt.Errorf("Headers.append: \"[masked:%s]\" is an invalid header value.", hs.Keys()[i])
		}
	}
	return nil
}

// RedactArgs implements runtime.Redactor: header values (credentials such
// as Authorization) never reach the trace; the URL's user info is hidden.
func (HTTPGet) RedactArgs(c *runtime.Call, args *value.Record) (value.Value, []string) {
	out := value.NewRecord(args.Len())
	for i, k := range args.Keys() {
		v := args.At(i)
		switch k {
		case "headers":
			if hs := v.AsRecord(); hs != nil {
				r := value.NewRecord(hs.Len())
				for _, name := range hs.Keys() {
					r.Set(name, value.Str("[masked:"+name+"]"))
				}
				v = value.RecordOf(r)
			}
		case "url":
			if fu, err := parseFetchURL(v.AsString()); err == nil && fu.userinfo {
				v = value.Str(fu.masked())
			} else if err != nil {
				v = value.Str(maskUserinfo(v.AsString()))
			} else if u, err := url.Parse(v.AsString()); err == nil && u.User != nil {
				u.User = url.User("[masked]")
				v = value.Str(u.String())
			}
		}
		out.Set(k, v)
	}
	return value.RecordOf(out), nil
}
