package tools_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

// TestHTTPGetCompressed: a compressed response keeps its content-encoding
// and content-length headers (as received) and its body is decoded.
func TestHTTPGetCompressed(t *testing.T) {
	t.Parallel()
	payload := []byte(strings.Repeat("compressible ", 20))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		switch r.URL.Path {
		case "/gz":
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(payload)
			zw.Close()
			body = buf.Bytes()
			w.Header().Set("Content-Encoding", "gzip")
		case "/df":
			var buf bytes.Buffer
			fw, _ := flate.NewWriter(&buf, flate.BestSpeed)
			fw.Write(payload)
			fw.Close()
			body = buf.Bytes()
			w.Header().Set("Content-Encoding", "deflate")
		case "/bad":
			body = []byte("\x1f\x8b\x08\x00garbagegarbage")
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
	defer srv.Close()
	for _, path := range []string{"/gz", "/df"} {
		r := run(t, realTemp(t), `return call? http.get { url: `+q(srv.URL+path)+` }`)
		if r.err != nil {
			t.Fatal(r.json())
		}
		expect(t, value.JSON(r.field(t, "body")), `"`+string(payload)+`"`)
		hs := r.field(t, "headers").AsRecord()
		if hs.GetOrNull("content-encoding").IsNull() || hs.GetOrNull("content-length").IsNull() {
			t.Errorf("%s: headers lost content-encoding or content-length: %s", path, value.JSON(r.field(t, "headers")))
		}
	}
	r := run(t, realTemp(t), `return call? http.get { url: `+q(srv.URL+"/bad")+` }`)
	if r.err == nil || !strings.Contains(r.json(), "Tool 'http.get' failed: terminated") {
		t.Errorf("corrupt gzip: %s", r.json())
	}
}
