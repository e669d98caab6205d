package tools_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/tools"
)

// TestHTTPGetURLForms drives http.get with URL spellings whose fate is
// decided by the WHATWG URL rules Node's fetch applies: what parses,
// where the request goes, and what is refused before any connection.
func TestHTTPGetURLForms(t *testing.T) {
	t.Parallel()
	seen := make(chan string, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Host + " " + r.URL.RequestURI()
		_, _ = w.Write([]byte("pong"))
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	const parseFail = "E_TOOL Tool 'http.get' failed: Failed to parse URL from "
	cases := []struct {
		url  string // PORT stands for the server's port
		want string // "ok <Host> <request URI>" or the error
	}{
		{"http:127.0.0.1:PORT/no-slashes", "ok 127.0.0.1:PORT /no-slashes"},
		{"\t http://127.0.0.1:PORT/padded \n", "ok 127.0.0.1:PORT /padded"},
		{"HtTp://127.0.0.1:PORT/UPPER", "ok 127.0.0.1:PORT /UPPER"},
		{"http://127.1:PORT/short-ipv4", "ok 127.0.0.1:PORT /short-ipv4"},
		{"http://0x7f.0.0.1:PORT/hex-ipv4", "ok 127.0.0.1:PORT /hex-ipv4"},
		{`http:\\127.0.0.1:PORT\back\slash`, "ok 127.0.0.1:PORT /back/slash"},
		{"http://127.0.0.1:PORT?only=query#frag", "ok 127.0.0.1:PORT /?only=query"},
		{"http://@127.0.0.1:PORT/empty-userinfo", "ok 127.0.0.1:PORT /empty-userinfo"},
		{"http://127.0.0.1:PORT/caf\u00e9 menu", "ok 127.0.0.1:PORT /caf%C3%A9%20menu"},
		{"http://", parseFail + "http://"},
		{"https:", parseFail + "https:"},
		{"http://:PORT/", parseFail + "http://:PORT/"},
		{"http://127.0.0.1:65536/", parseFail + "http://127.0.0.1:65536/"},
		{"http://127.0.0.1:8o/", parseFail + "http://127.0.0.1:8o/"},
		{"http://256.0.0.1/", parseFail + "http://256.0.0.1/"},
		{"http://1.2.3.4.5/", parseFail + "http://1.2.3.4.5/"},
		{"http://bad host/", parseFail + "http://bad host/"},
		{"http://[::1/", parseFail + "http://[::1/"},
		{"http://owner@/", parseFail + "http://[masked]@/"},
		{"no-scheme/path", parseFail + "no-scheme/path"},
		{"http://alice:s3cret@127.0.0.1:99999/", parseFail + "http://[masked]@127.0.0.1:99999/"},
		{" https:\\\\alice:s3cret@bad host/", parseFail + " https:\\\\[masked]@bad host/"},
		{"http://alice:s3cret@127.0.0.1:PORT/", "E_TOOL Tool 'http.get' failed: Request cannot be constructed from a URL that includes credentials: http://[masked]@127.0.0.1:PORT/"},
		{"mailto:someone@example.invalid", "E_TOOL Tool 'http.get' failed: fetch failed"},
		{"ws://127.0.0.1:PORT/", "E_TOOL Tool 'http.get' failed: fetch failed"},
		{"Data:,upper%20scheme", "ok data"},
	}
	dir := realTemp(t)
	for _, c := range cases {
		u := strings.ReplaceAll(c.url, "PORT", port)
		want := strings.ReplaceAll(c.want, "PORT", port)
		r := run(t, dir, `return call? http.get { url: `+q(u)+` }`)
		got := r.json()
		if r.err == nil {
			got = "ok data"
			select {
			case s := <-seen:
				got = "ok " + s
			default:
			}
		}
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", u, got, want)
		}
		for _, ev := range r.ev {
			if strings.Contains(value.JSON(ev.Data), "s3cret") {
				t.Errorf("%q: the password reached the %s event", u, ev.Event)
			}
		}
	}
}

// TestHTTPGetHeaderValues checks header values the way fetch does: one
// byte per character up to U+00FF, outer whitespace dropped, and no CR,
// LF or NUL inside — refused before any connection, without echoing the
// value.
func TestHTTPGetHeaderValues(t *testing.T) {
	t.Parallel()
	got := make(chan []byte, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- []byte(r.Header.Get("X_Probe"))
	}))
	defer srv.Close()
	dir := realTemp(t)
	cases := []struct {
		value string // an A0 string literal's contents
		sent  string // the bytes the server saw, or the error
	}{
		{`na\u00efve`, "na\xefve"},
		{`\t  trimmed \r\n`, "trimmed"},
		{`in\tside`, "in\tside"},
		{`two\nlines`, `E_TOOL Tool 'http.get' failed: Headers.append: "[masked:X_Probe]" is an invalid header value.`},
		{`nul\u0000byte`, `E_TOOL Tool 'http.get' failed: Headers.append: "[masked:X_Probe]" is an invalid header value.`},
		{`ok \u2713`, "E_TOOL Tool 'http.get' failed: Cannot convert argument to a ByteString because the character at index 3 has a value of 10003 which is greater than 255."},
		{`\ud83d\udce6 box`, "E_TOOL Tool 'http.get' failed: Cannot convert argument to a ByteString because the character at index 0 has a value of 55357 which is greater than 255."},
	}
	for _, c := range cases {
		r := run(t, dir, `return call? http.get { url: `+q(srv.URL)+`, headers: { X_Probe: "`+c.value+`" } }`)
		res := r.json()
		if r.err == nil {
			res = string(<-got)
		}
		if res != c.sent {
			t.Errorf("%s:\n got %q\nwant %q", c.value, res, c.sent)
		}
	}
	// The byte-string rule comes before the URL is read.
	r := run(t, dir, `return call? http.get { url: "no scheme", headers: { X_Probe: "\u20ac" } }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: Cannot convert argument to a ByteString because the character at index 0 has a value of 8364 which is greater than 255.")
	// The value rule applies to data: URLs too, after the URL.
	r = run(t, dir, `return call? http.get { url: "data:,x", headers: { X_Probe: "a\rb" } }`)
	expect(t, r.json(), `E_TOOL Tool 'http.get' failed: Headers.append: "[masked:X_Probe]" is an invalid header value.`)
}

// TestHTTPGetRedirectLimit: fetch follows twenty redirects and refuses
// the twenty-first.
func TestHTTPGetRedirectLimit(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
		if hops > 0 {
			http.Redirect(w, r, "/hop/"+strconv.Itoa(hops-1), http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("arrived"))
	}))
	defer srv.Close()
	dir := realTemp(t)
	r := run(t, dir, `let res = call? http.get { url: `+q(srv.URL+"/hop/20")+` }
return res.body`)
	expect(t, r.json(), `"arrived"`)
	r = run(t, dir, `return call? http.get { url: `+q(srv.URL+"/hop/21")+` }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: fetch failed")
}

// TestHTTPGetBodyCutShort: a server that sends the head and then closes
// the connection before the body it announced fails the read, as fetch's
// does, with "terminated" (not "fetch failed", which is for no answer).
func TestHTTPGetBodyCutShort(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 4096)
			n, _ := conn.Read(buf)
			if strings.Contains(string(buf[:n]), "GET /nohead") {
				_, _ = conn.Write([]byte("not http at all\r\n\r\n"))
			} else {
				_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 64\r\n\r\npartial"))
			}
			conn.Close()
		}
	}()
	dir := realTemp(t)
	r := run(t, dir, `return call? http.get { url: `+q("http://"+l.Addr().String()+"/cut")+` }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: terminated")
	r = run(t, dir, `return call? http.get { url: `+q("http://"+l.Addr().String()+"/nohead")+` }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: fetch failed")
}

// TestHTTPGetRefusedHeaders: headers Node's HTTP client will not send
// make the fetch fail before connecting; a Host header names the host
// the request is for.
func TestHTTPGetRefusedHeaders(t *testing.T) {
	t.Parallel()
	hits := make(chan string, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits <- r.Host + " " + r.Header.Get("Connection")
	}))
	defer srv.Close()
	dir := realTemp(t)
	for _, h := range []string{`Upgrade: "h2c"`, `Expect: "100-continue"`, `Connection: "upgrade"`} {
		r := run(t, dir, `return call? http.get { url: `+q(srv.URL)+`, headers: { `+h+` } }`)
		expect(t, r.json(), "E_TOOL Tool 'http.get' failed: fetch failed")
	}
	r := run(t, dir, `return call? http.get { url: `+q(srv.URL)+`, headers: { Host: "virtual.test", Connection: "CLOSE" } }`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	select {
	case got := <-hits:
		expect(t, got, "virtual.test CLOSE")
	default:
		t.Fatal("no request reached the server, or a refused one did")
	}
	if len(hits) != 0 {
		t.Errorf("a refused header reached the server: %s", <-hits)
	}
}

// TestHTTPGetHeaderNamesInTwoCases: two record keys naming one header
// (Accept and accept) send one header with both values, as fetch's
// Headers object joins them; the default Accept is replaced.
func TestHTTPGetHeaderNamesInTwoCases(t *testing.T) {
	t.Parallel()
	seen := make(chan []string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Values("Accept")
	}))
	defer srv.Close()
	r := run(t, realTemp(t), `return call? http.get { url: `+q(srv.URL)+`, headers: { Accept: "text/csv", accept: "text/plain" } }`)
	if r.err != nil {
		t.Fatal(r.json())
	}
	expect(t, strings.Join(<-seen, "|"), "text/csv, text/plain")
}

// TestHTTPGetRedirectWithCredentials: a redirect to another origin whose
// URL carries a user name fails the fetch, and nothing reaches that
// origin.
func TestHTTPGetRedirectWithCredentials(t *testing.T) {
	t.Parallel()
	reached := make(chan string, 2)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- r.URL.Path
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(other.URL, "://", "://mallory:pw@", 1)+"/grab", http.StatusFound)
	}))
	defer srv.Close()
	r := run(t, realTemp(t), `return call? http.get { url: `+q(srv.URL+"/start")+` }`)
	expect(t, r.json(), "E_TOOL Tool 'http.get' failed: fetch failed")
	if len(reached) != 0 {
		t.Errorf("the other origin was reached: %s", <-reached)
	}
}

// TestHTTPGetRedirectToFoldedHost: a redirect to a full-width spelling of
// a denied host is refused as the host itself.
func TestHTTPGetRedirectToFoldedHost(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "http://ｆｏｒｂｉｄｄｅｎ.example/")
		w.WriteHeader(http.StatusFound)
	}))
	defer srv.Close()
	cfg := tools.Config{HTTP: tools.HTTPScope{AllowPrivate: true, Deny: []string{"forbidden.example"}}}
	_, err := runScoped(t, realTemp(t), cfg, `return call? http.get { url: `+q(srv.URL)+` }`)
	if err == nil || err.Code != "E_CAP_DENIED" || err.Details.AsRecord().GetOrNull("reason").AsString() != "host_denied" {
		t.Fatalf("got %v, want E_CAP_DENIED host_denied", err)
	}
}

// TestHTTPGetLoosePercent: a "%" that starts no escape is sent as
// written, as fetch sends it (Go's URL parser alone would refuse it).
func TestHTTPGetLoosePercent(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	line := make(chan string, 1)
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		buf := make([]byte, 4096)
		n, _ := conn.Read(buf)
		first, _, _ := strings.Cut(string(buf[:n]), "\r\n")
		line <- first
		_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"))
	}()
	r := run(t, realTemp(t), `let res = call? http.get { url: `+q("http://"+l.Addr().String()+"/100%-sure?q=%zz#top")+` }
return res.body`)
	expect(t, r.json(), `"ok"`)
	expect(t, <-line, "GET /100%-sure?q=%zz HTTP/1.1")
}
