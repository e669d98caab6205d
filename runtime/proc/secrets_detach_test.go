package proc

import (
	"encoding/json"
	"testing"
)

// A request that may use policy secrets still travels to a detached
// job's supervisor as JSON (its function-valued secret readers stay
// behind), and one that names a secret is refused before it is sent.
func TestDetachedRequestAndSecrets(t *testing.T) {
	use := &SecretUse{Secrets: []PolicySecret{{Name: "TOK", Programs: []string{"sh"}, Value: func() (string, error) { return "s3cr3t-value", nil }}}}
	r := &Request{Argv: []string{"echo", "hi"}, Secrets: use}
	b, err := json.Marshal(&detachRequest{Request: *r})
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if !json.Valid(b) {
		t.Fatalf("bad JSON %s", b)
	}
	for _, tc := range []struct {
		r    Request
		want string
	}{
		{Request{Argv: []string{"echo", "hi"}}, ""},
		{Request{Argv: []string{"echo", Placeholder("TOK")}}, "TOK"},
		{Request{Cmd: "echo $X", Env: [][2]string{{"X", Placeholder("A")}}}, "A"},
		{Request{Cmd: "cat", Stdin: []byte("x " + Placeholder("B"))}, "B"},
		{Request{Cmd: "echo " + Placeholder("C")}, "C"},
	} {
		if got := firstPlaceholder(&tc.r); got != tc.want {
			t.Errorf("firstPlaceholder(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
