package runtime

import "testing"

// TestAssertKeyNote: an assert or check whose record gives its condition
// or message under another key says so; right keys give no note.
func TestAssertKeyNote(t *testing.T) {
	tests := []struct {
		check bool
		keys  []string
		want  string
	}{
		{true, []string{"that", "msg"}, ""},
		{true, []string{"that", "msg", "details"}, ""},
		{true, []string{"that"}, ""},
		{true, []string{"that", "msg", "extra"}, ""},
		{true, []string{"cond", "msg"}, "check reads its condition from 'that', not 'cond' (without it the check always fails): write check { that: …, msg: \"…\" }."},
		{false, []string{"condition", "msg"}, "assert reads its condition from 'that', not 'condition': write assert { that: …, msg: \"…\" }."},
		{true, []string{"that", "mesg"}, "check reads its message from 'msg', not 'mesg' (so the message was empty): write check { that: …, msg: \"…\" }."},
		{false, []string{"that", "message", "details"}, "assert reads its message from 'msg', not 'message' (so the message was empty): write assert { that: …, msg: \"…\" }."},
	}
	for _, tc := range tests {
		if got := assertKeyNote(tc.check, tc.keys); got != tc.want {
			t.Errorf("%v %v:\n got %q\nwant %q", tc.check, tc.keys, got, tc.want)
		}
	}
}
