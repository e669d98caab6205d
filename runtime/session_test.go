package runtime

import (
	"context"
	"errors"
	"testing"

	"github.com/a0lang/a0/lang/value"
)

func TestSessionKeepsBindings(t *testing.T) {
	env, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	s := env.NewSession()
	steps := []struct {
		src, want string // want "" = no value
		code      string // expected static or runtime code
	}{
		{src: "let x = 2", want: ""},
		{src: "x * 21", want: "42"},
		{src: "fn sq { n } { return n * n }", want: ""},
		{src: "sq { n: x }", want: "4"},
		{src: "let x = 5", want: ""}, // rebinding replaces
		{src: "sq { n: x }", want: "25"},
		{src: "return { a: x }", want: `{"a":5}`},
		{src: "y + 1", code: "E_UNBOUND"},
		{src: "1 + \"a\"", code: "E_TYPE"},
		{src: "x", want: "5"}, // errors do not end the session
		{src: "let a = 1 let a = 2", code: "E_DUP_BINDING"},
	}
	for _, st := range steps {
		res, ds, err := s.Eval(context.Background(), "repl", st.src, RunOptions{})
		switch {
		case st.code != "":
			got := ""
			if len(ds) > 0 {
				got = string(ds[0].Code)
			} else if e, ok := err.(*Error); ok {
				got = string(e.Code)
			}
			if got != st.code {
				t.Errorf("%q: got code %q (diags %v, err %v), want %s", st.src, got, ds, err, st.code)
			}
		case len(ds) > 0 || err != nil:
			t.Errorf("%q: unexpected diags %v err %v", st.src, ds, err)
		case st.want == "":
			if res.HasValue {
				t.Errorf("%q: unexpected value %s", st.src, value.JSON(res.Value))
			}
		default:
			if !res.HasValue || value.JSON(res.Value) != st.want {
				t.Errorf("%q: got %s (has %v), want %s", st.src, value.JSON(res.Value), res.HasValue, st.want)
			}
		}
	}
	if vars := s.Vars(); len(vars) != 1 || vars[0].Name != "x" {
		t.Errorf("Vars = %v", vars)
	}
	if fns := s.Fns(); len(fns) != 1 || fns[0] != "sq" {
		t.Errorf("Fns = %v", fns)
	}
}

// failingSink records events until it is closed; then every event fails.
type failingSink struct {
	closed bool
	events []string
}

func (s *failingSink) Event(ev TraceEvent) error {
	if s.closed {
		return errors.New("file already closed")
	}
	s.events = append(s.events, ev.Event)
	return nil
}

// laterTool keeps the Call of its first use and, on every later use, emits
// through it, as a background job started by an earlier input does.
type laterTool struct{ first **Call }

func (laterTool) Name() string       { return "t.later" }
func (laterTool) Capability() string { return "t" }
func (laterTool) Mode() Mode         { return ModeRead }
func (laterTool) Params() []Param    { return nil }
func (t laterTool) Call(c *Call) (value.Value, error) {
	if *t.first == nil {
		*t.first = c
	} else {
		_ = (*t.first).Emit("job_end", value.Value{})
	}
	return value.NullValue, nil
}

// An earlier input's closed trace sink failing (a job of that input ending
// now) must not silence the current input's sink.
func TestSessionOldSinkFailureKeepsNewSink(t *testing.T) {
	var first *Call
	env, err := NewEnv(WithTools(laterTool{&first}), WithGrants(AllowAll))
	if err != nil {
		t.Fatal(err)
	}
	s := env.NewSession()
	defer s.Close()
	a, b := &failingSink{}, &failingSink{}
	if _, ds, err := s.Eval(context.Background(), "r", "cap { t: true }\ncall? t.later {}", RunOptions{Trace: a}); err != nil || ds != nil {
		t.Fatal(ds, err)
	}
	a.closed = true // the REPL's :trace FILE closes the previous file
	if _, ds, err := s.Eval(context.Background(), "r", "cap { t: true }\ncall? t.later {}\nlet x = 1", RunOptions{Trace: b}); err != nil || ds != nil {
		t.Fatal(ds, err)
	}
	if n := len(b.events); n == 0 || b.events[n-1] != "run_end" {
		t.Fatalf("the new sink lost events: %v", b.events)
	}
}
