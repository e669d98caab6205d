package mcpwire

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestDecodeIDForms: an integer id is the same id however the JSON number
// is written (1, 1.0, 1e0), as other layers (mcpserver's line check, the
// stdio client's bookkeeping) read ids as float64 and take them; a
// fraction, a number past 2^53 written as a float, and other JSON types
// are refused. Before, 1.0 and 1e0 were refused here alone, so a request
// `mcpserver` had admitted was answered -32600 and its cancellation did
// not reach the run.
func TestDecodeIDForms(t *testing.T) {
	for _, c := range []struct {
		id   string
		want any // int64, string, or nil for refused
	}{
		{`1`, int64(1)}, {`1.0`, int64(1)}, {`1e0`, int64(1)}, {`-0`, int64(0)}, {`0`, int64(0)},
		{`9223372036854775807`, int64(9223372036854775807)}, {`"1"`, "1"}, {`""`, ""},
		{`1.5`, nil}, {`1e300`, nil}, {`true`, nil}, {`{}`, nil}, {`[1]`, nil},
	} {
		msg, err := DecodeMessage([]byte(`{"jsonrpc":"2.0","id":` + c.id + `,"method":"ping"}`))
		if c.want == nil {
			if err == nil {
				t.Errorf("id %s: accepted as %v", c.id, msg.(*Request).ID)
			}
			continue
		}
		if err != nil {
			t.Errorf("id %s: %v", c.id, err)
			continue
		}
		if got := msg.(*Request).ID.Raw(); got != c.want {
			t.Errorf("id %s: %#v, want %#v", c.id, got, c.want)
		}
	}
}

// TestPaginateKeepsNoCursors: following a listing does not keep the
// cursors it has seen (a server may make each as long as a message, for
// up to clientMaxPages pages); a repeated cursor is still refused, and
// quoted at most 200 bytes long. Before, a thousand 16 MiB cursors were
// kept until the listing ended.
func TestPaginateKeepsNoCursors(t *testing.T) {
	var heap uint64
	n := 0
	page := func(p *ListParams) ([]*Tool, string, error) {
		n++
		if n == clientMaxPages-1 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = ms.HeapAlloc
		}
		return nil, strconv.Itoa(n) + strings.Repeat("c", 100<<10), nil
	}
	var err error
	for _, e := range clientPaginate(nil, page) {
		err = e
	}
	if err == nil || !strings.Contains(err.Error(), "more than 1000 pages") {
		t.Errorf("got %v", err)
	}
	if heap > 50<<20 {
		t.Errorf("%d MB on the heap while listing", heap>>20)
	}
	long := strings.Repeat("r", 1000)
	calls := 0
	for _, e := range clientPaginate(nil, func(p *ListParams) ([]*Tool, string, error) { calls++; return nil, long, nil }) {
		err = e
	}
	if err == nil || !strings.Contains(err.Error(), "repeats the cursor") || len(err.Error()) > 300 || calls != 2 {
		t.Errorf("after %d pages: %v", calls, err)
	}
}

func TestUTF8Prefix(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"}, {"abc", 2, "ab"}, {"aé", 2, "a"}, {"aé", 3, "aé"}, {"日本", 4, "日"}, {"é", 1, ""}, {"", 0, ""},
	} {
		if got := UTF8Prefix(tc.s, tc.n); got != tc.want {
			t.Errorf("UTF8Prefix(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
