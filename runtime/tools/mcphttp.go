package tools

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Client returns an HTTP client that enforces the scope on every
// connection (after DNS resolution) and every redirect, as http.get's
// does. Remote MCP servers are reached through it (spec/mcp.md §3).
func (s *HTTPScope) Client() *http.Client { return s.client() }

// CheckURL returns an error naming the rule when the scope refuses the
// URL's host: http.deny, http.allow, or (without allowPrivate) a host that
// resolves to a private or loopback address.
func (s *HTTPScope) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if err := s.checkHost(host); err != nil {
		return err
	}
	if s.AllowPrivate {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil // the connection reports it
	}
	for _, ip := range ips {
		if privateIP(ip.IP) {
			return &refusal{"private_address", host, "host " + host + " resolves to the private or loopback address " + ip.IP.String() + "; set http.allowPrivate in the policy to allow it"}
		}
	}
	return nil
}
