package tools

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
)

// HTTPScope confines http.get (the policy's `http` section). Its zero
// value allows any public host, refuses private, loopback and link-local
// addresses, and bounds a body at 64 MiB.
type HTTPScope struct {
	// Allow lists host patterns ("example.com", "*.example.com"); nil
	// allows every host that is not denied.
	Allow []string
	// Deny lists host patterns that are always refused.
	Deny []string
	// AllowPrivate permits loopback, link-local and private addresses.
	AllowPrivate bool
	// MaxResponseBytes bounds the body (0: the tool's 64 MiB default).
	MaxResponseBytes int64
	// Timeout bounds one request (0: none of its own).
	Timeout time.Duration
}

// refusal is a scope refusal found while connecting or redirecting.
type refusal struct {
	reason, host, msg string
}

func (r *refusal) Error() string { return r.msg }

// Hint names the policy change that would allow the request (the message
// says why it was refused); callers outside this package find it through
// an interface { Hint() string }.
func (r *refusal) Hint() string {
	switch r.reason {
	case "private_address":
		return `Private and loopback addresses are refused by default; if you trust ` + r.host + `, set "http": {"allowPrivate": true} in the policy (a0 policy shows which file is in effect).`
	case "host_denied":
		return "Use another host, or remove the matching entry from the policy's http.deny."
	case "host_not_allowed":
		return `Add "` + r.host + `" to the policy's http.allow (a0 policy shows which file is in effect), or fetch from a host it lists.`
	}
	return ""
}

func hostMatches(pattern, host string) bool {
	pattern, host = strings.ToLower(pattern), strings.ToLower(strings.TrimSuffix(host, "."))
	if strings.HasPrefix(pattern, "*.") {
		return strings.HasSuffix(host, pattern[1:])
	}
	return host == pattern
}

func (s *HTTPScope) checkHost(host string) error {
	for _, d := range s.Deny {
		if hostMatches(d, host) {
			return &refusal{"host_denied", host, "host " + host + " is denied by the policy's http.deny (" + d + ")"}
		}
	}
	if s.Allow == nil {
		return nil
	}
	for _, a := range s.Allow {
		if hostMatches(a, host) {
			return nil
		}
	}
	return &refusal{"host_not_allowed", host, "host " + host + " is not in the policy's http.allow; add it there to fetch from it"}
}

// nonPublic are address blocks that are not the public internet besides
// those net.IP classifies: shared address space (RFC 6598; cloud metadata
// services such as 100.100.100.200 live there), IETF protocol
// assignments, benchmarking, reserved and broadcast.
// (Parsed at first use: a run that makes no request pays nothing.)
var nonPublic = sync.OnceValue(func() []*net.IPNet {
	var out []*net.IPNet
	for _, c := range []string{"100.64.0.0/10", "192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4"} {
		_, n, _ := net.ParseCIDR(c)
		out = append(out, n)
	}
	return out
})

// nat64, sixToFour: IPv6 prefixes that embed an IPv4 address (RFC 6052,
// RFC 3056), which is checked in its turn.
var (
	nat64     = net.IP{0, 0x64, 0xff, 0x9b, 15: 0}
	sixToFour = net.IP{0x20, 0x02, 15: 0}
)

// privateIP reports whether ip is not a public internet address:
// loopback, private, link-local, unspecified, multicast, the blocks of
// nonPublic, or an IPv6 address embedding one of those.
func privateIP(ip net.IP) bool {
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() || ip.IsMulticast() {
		return true
	}
	if v4 := ip.To4(); v4 != nil {
		for _, n := range nonPublic() {
			if n.Contains(v4) {
				return true
			}
		}
		return false
	}
	if len(ip) == net.IPv6len {
		switch {
		case ip[:12].Equal(nat64[:12]):
			return privateIP(net.IP(ip[12:16]))
		case ip[0] == sixToFour[0] && ip[1] == sixToFour[1]:
			return privateIP(net.IP(ip[2:6]))
		}
	}
	return false
}

// scopedHTTP is the per-run resource holding the run's scoped client, so
// the calls of a run share its connections; the idle ones are closed at
// run end.
type scopedHTTP struct{ client *http.Client }

// Close implements runtime.Resource.
func (h *scopedHTTP) Close(string) { h.client.CloseIdleConnections() }

// scopedClient returns the run's client for scope (a run's scope does not
// change, so one client serves every call).
func scopedClient(c *runtime.Call, scope HTTPScope) *http.Client {
	return c.Resource("a0.http.client", func() runtime.Resource {
		return &scopedHTTP{client: scope.client()}
	}).(*scopedHTTP).client
}

// client builds an HTTP client that enforces the scope on every
// connection (after DNS resolution) and every redirect.
func (s *HTTPScope) client() *http.Client {
	dialer := &net.Dialer{Timeout: 30 * time.Second}
	tr := &http.Transport{
		Proxy: nil, // a proxy would hide the real destination from the checks
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
			if err != nil {
				return nil, err
			}
			var lastErr error = &refusal{"private_address", host, "host " + host + " has no address"}
			for _, ip := range ips {
				if !s.AllowPrivate && privateIP(ip.IP) {
					lastErr = &refusal{"private_address", host, "host " + host + " resolves to the private or loopback address " + ip.IP.String() + "; set http.allowPrivate in the policy to allow it"}
					continue
				}
				c, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.IP.String(), port))
				if err == nil {
					return c, nil
				}
				lastErr = err
			}
			return nil, lastErr
		},
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        10,
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			// fetch follows 20 redirects and fails on the 21st.
			if len(via) > 20 {
				return errors.New("stopped after 20 redirects")
			}
			// fetch refuses a redirect to a URL with credentials on
			// another origin.
			if prev := via[len(via)-1].URL; req.URL.User != nil && (req.URL.Scheme != prev.Scheme || req.URL.Host != prev.Host) {
				return errors.New("redirect to a URL with credentials")
			}
			// The host as the connection will name it (Punycode, folded).
			host := domainToASCII(req.URL.Hostname())
			if err := secretRedirectAllowed(req, host); err != nil {
				return err
			}
			return s.checkHost(host)
		},
	}
}

func scopeRefusal(c *runtime.Call, err error) error {
	var r *refusal
	if !errors.As(err, &r) {
		return nil
	}
	d := value.NewRecord(4)
	d.Set("capability", value.Str("http.get"))
	d.Set("tool", value.Str(c.Tool))
	d.Set("reason", value.Str(r.reason))
	d.Set("host", value.Str(r.host))
	return &runtime.Error{Diagnostic: *diag.New(diag.ECapDenied, c.Span, "Capability 'http.get' does not allow this request: "+r.msg+".", r.Hint()), Details: value.RecordOf(d)}
}

func bodyTooLarge(limit int64) error {
	return errors.New("response body larger than " + strconv.FormatInt(limit, 10) + " bytes (the policy's http.maxResponseBytes)")
}
