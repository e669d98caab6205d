package mcpwire

import "testing"

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
