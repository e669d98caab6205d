package tools

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// FuzzFetchURL: the URL reader of http.get never panics, and where a URL
// parses, the host the policy is checked against is the host the request
// goes to: Go's reading of the target URL (what net/http dials) names the
// same host and port as ours, the target parses again to itself, and the
// host is ASCII (so http.allow/http.deny compare it as written there).
func FuzzFetchURL(f *testing.F) {
	for _, s := range []string{
		"http://example.com/a?b#c", "https://user:pw@host:8443/p", "http:host", " http://127.1 ",
		"http://0x7f.1/", "http://[::1]:80/", "http://ｅｖｉｌ．test/", "http://a%2eb/", "https://xn--bcher-kva.ch/",
		"http://%zz/", "HTTP://EXAMPLE.COM:80", "http://a@b@c/", `http:\\host\path`, "data:,hi", "ftp://h/",
		"http://host/%zz?q=%", "http://1.2.3.4.5/", "http://[v1.x]/", "http://h:65536/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		_ = maskUserinfo(raw)
		fu, err := parseFetchURL(raw)
		if err != nil || fu.opaque != "" || fu.host == "" {
			return
		}
		_ = fu.masked()
		for i := 0; i < len(fu.host); i++ {
			if c := fu.host[i]; c >= 0x80 || c >= 'A' && c <= 'Z' {
				t.Fatalf("%q: host %q is not lower-case ASCII", raw, fu.host)
			}
		}
		again, err := parseFetchURL(fu.target())
		if err != nil || again.host != fu.host || again.port != fu.port || again.rest != fu.rest || again.creds {
			t.Fatalf("%q: target %q reads back as %+v (%v), want host %q port %q rest %q", raw, fu.target(), again, err, fu.host, fu.port, fu.rest)
		}
		if u, err := url.Parse(fu.target()); err == nil {
			if u.Hostname() != strings.Trim(fu.host, "[]") || u.Port() != fu.port {
				t.Fatalf("%q: net/url reads host %q port %q, http.get checked %q port %q", raw, u.Hostname(), u.Port(), fu.host, fu.port)
			}
		}
		if d := domainToASCII(fu.host); d != fu.host {
			t.Fatalf("%q: host %q folds again to %q", raw, fu.host, d)
		}
	})
}

// FuzzResponseDecoding: the decoding of a response body (any
// Content-Encoding chain, any bytes) and of a data: URL never panics, and
// a decoded body never exceeds the limit by more than the one byte that
// tells the caller it was over.
func FuzzResponseDecoding(f *testing.F) {
	f.Add("gzip", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"), int64(64), "data:,a%20b")
	f.Add("deflate, gzip", []byte("x\x9c\x03\x00\x00\x00\x00\x01"), int64(8), "data:text/plain;base64,aGk=")
	f.Add("x-gzip,identity", []byte{}, int64(0), "data:;charset=x,")
	f.Fuzz(func(t *testing.T, ce string, body []byte, limit int64, data string) {
		if limit < 0 || limit > 1<<20 {
			return
		}
		h := http.Header{}
		h.Set("Content-Encoding", ce)
		out, err := decodeBody(200, h, body, limit)
		if err == nil && int64(len(out)) > limit+1 && !bytes.Equal(out, body) {
			t.Fatalf("decoded %d bytes past a limit of %d", len(out), limit)
		}
		_, _ = dataURL("data:" + data)
	})
}

// TestDecodeBodyCodingChain: a Content-Encoding chain longer than five
// codings is refused before anything is decoded.
func TestDecodeBodyCodingChain(t *testing.T) {
	h := http.Header{}
	h.Set("Content-Encoding", strings.Repeat("gzip, ", 5)+"gzip")
	if _, err := decodeBody(200, h, []byte("\x1f\x8b"), 100); err != errTooManyCodings {
		t.Fatalf("six codings: %v, want errTooManyCodings", err)
	}
	// Codings on several header lines form one list, as fetch reads
	// them (headers.get joins the lines): six of them are refused too.
	h.Del("Content-Encoding")
	for i := 0; i < 6; i++ {
		h.Add("Content-Encoding", "gzip")
	}
	if _, err := decodeBody(200, h, []byte("\x1f\x8b"), 100); err != errTooManyCodings {
		t.Fatalf("six coding lines: %v, want errTooManyCodings", err)
	}
	h.Set("Content-Encoding", "identity, identity")
	if out, err := decodeBody(200, h, []byte("plain"), 100); err != nil || string(out) != "plain" {
		t.Fatalf("identity chain: %q %v", out, err)
	}
}
