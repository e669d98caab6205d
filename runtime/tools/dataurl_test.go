package tools_test

import "testing"

// TestHTTPGetDataURLProcessor follows fetch's data: URL processor: the
// fragment goes, ";base64" may have spaces and any case, base64 is
// forgiving, and the media type is parsed and written out again (or
// replaced by text/plain;charset=US-ASCII when it does not parse).
func TestHTTPGetDataURLProcessor(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cases := []struct{ url, want string }{
		{"data:,note#section", `{"status":200,"headers":{"content-type":"text/plain;charset=US-ASCII"},"body":"note"}`},
		{"data:Text/CSV;Header=Present,a", `{"status":200,"headers":{"content-type":"text/csv;header=Present"},"body":"a"}`},
		{"data:nonsense,a", `{"status":200,"headers":{"content-type":"text/plain;charset=US-ASCII"},"body":"a"}`},
		{"data:;charset=utf-8,a", `{"status":200,"headers":{"content-type":"text/plain;charset=utf-8"},"body":"a"}`},
		{"data:text/plain ;  Base64,b2s", `{"status":200,"headers":{"content-type":"text/plain"},"body":"ok"}`},
		{"data:text/plain;base64,b 2 s =", `{"status":200,"headers":{"content-type":"text/plain"},"body":"ok"}`},
		{"data:text/x;q=\"a;b\";q=2;r=,x", `{"status":200,"headers":{"content-type":"text/x;q=\"a;b\""},"body":"x"}`},
		{"data:;base64,b2s=x", "E_TOOL Tool 'http.get' failed: fetch failed"},
		{"data:;base64,b2s!", "E_TOOL Tool 'http.get' failed: fetch failed"},
	}
	for _, c := range cases {
		if got := run(t, dir, `return call? http.get { url: `+q(c.url)+` }`).json(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.url, got, c.want)
		}
	}
}
