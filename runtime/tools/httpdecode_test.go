package tools

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"net/http"
	"strings"
	"testing"
)

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func zlibbed(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func rawDeflated(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestSpeed)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// TestDecodeBody pins how a response's Content-Encoding is undone: gzip
// and deflate (with or without the zlib wrapper), several codings in
// reverse order, unknown codings and identity left alone, statuses
// without a body untouched, a short body kept, corrupt data refused.
func TestDecodeBody(t *testing.T) {
	t.Parallel()
	text := []byte("the quick brown fox, compressed")
	gz := gzipped(t, text)
	cases := []struct {
		name, coding string
		status       int
		body         []byte
		want         string
		err          bool
	}{
		{"none", "", 200, text, string(text), false},
		{"gzip", "gzip", 200, gz, string(text), false},
		{"x-gzip upper case", "X-GZIP", 200, gz, string(text), false},
		{"deflate zlib", "deflate", 200, zlibbed(text), string(text), false},
		{"deflate raw", "deflate", 200, rawDeflated(text), string(text), false},
		{"two codings", "deflate, gzip", 200, gzipped(t, zlibbed(text)), string(text), false},
		{"gzip twice", "gzip,gzip", 200, gzipped(t, gz), string(text), false},
		{"two header lines", "deflate\ngzip", 200, gzipped(t, zlibbed(text)), string(text), false},
		{"identity", "identity", 200, text, string(text), false},
		{"unknown coding", "br", 200, []byte("xx"), "xx", false},
		{"one unknown of two", "gzip, zstd", 200, gz, string(gz), false},
		{"not modified", "gzip", 304, []byte("zz"), "zz", false},
		{"empty body", "gzip", 200, nil, "", false},
		{"cut short", "gzip", 200, gz[:len(gz)-6], string(text), false},
		{"two members", "gzip", 200, append(gzipped(t, []byte("ab")), gzipped(t, []byte("cd"))...), "abcd", false},
		{"corrupt", "gzip", 200, []byte("\x1f\x8b\x08\x00not gzip data at all"), "", true},
		{"not gzip", "gzip", 200, []byte("plain text, no header"), "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			if c.coding != "" {
				for _, line := range strings.Split(c.coding, "\n") {
					h.Add("Content-Encoding", line) // one header line each
				}
			}
			got, err := decodeBody(c.status, h, c.body, 1<<20)
			if c.err {
				if err == nil || err.Error() != "terminated" {
					t.Fatalf("err = %v, want terminated", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestDecodeBodyLimit: the limit counts decoded bytes, so a small
// compressed body that expands past it is caught.
func TestDecodeBodyLimit(t *testing.T) {
	t.Parallel()
	big := gzipped(t, bytes.Repeat([]byte("a"), 5000))
	h := http.Header{"Content-Encoding": {"gzip"}}
	got, err := decodeBody(200, h, big, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 101 {
		t.Errorf("decoded %d bytes, want limit+1 = 101", len(got))
	}
}
