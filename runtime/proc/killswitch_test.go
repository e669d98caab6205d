//go:build linux

package proc

import (
	"context"
	"testing"
	"time"
)

// TestKillSwitchIsPerSwitch: a tripped KillSwitch makes the stop sequence
// of a command started under it skip the grace period, at once and for a
// stop already under way, while a command under another switch (a later
// REPL input) still gets its whole grace period.
func TestKillSwitchIsPerSwitch(t *testing.T) {
	t.Parallel()
	e := testEngine(t, nil)
	start := func(k *KillSwitch) (*Process, string) {
		p := prepare(t, e, &Request{Cmd: "trap '' TERM; sleep 30", IsJob: true, HasGrace: true, Grace: 800 * time.Millisecond})
		p.Spec.Kill = k
		pr, err := Start(&p.Spec)
		if err != nil {
			t.Fatal(err)
		}
		return pr, p.ID
	}
	first, second := NewKillSwitch(), NewKillSwitch()
	a, aID := start(first)
	time.Sleep(100 * time.Millisecond)

	// A stop under way is cut short when its switch trips.
	t0 := time.Now()
	a.Stop(StopOpts{Reason: "host_cancel"})
	first.Trip()
	first.Trip() // idempotent
	<-a.Done()
	if el := time.Since(t0); el > 500*time.Millisecond {
		t.Errorf("tripped stop took %v, want well under the 800ms grace", el)
	}
	noSurvivors(t, aID)

	// A later command under another switch keeps its grace period.
	b, bID := start(second)
	time.Sleep(100 * time.Millisecond)
	t0 = time.Now()
	b.Stop(StopOpts{Reason: "host_cancel"})
	<-b.Done()
	if el := time.Since(t0); el < 700*time.Millisecond {
		t.Errorf("untripped stop took %v, want the 800ms grace", el)
	}
	if r := b.Result(); !r.Escalated || r.Signal != "SIGKILL" {
		t.Errorf("result %+v", r)
	}
	noSurvivors(t, bID)

	// A command started under the tripped switch is killed at once.
	c, cID := start(first)
	time.Sleep(100 * time.Millisecond)
	t0 = time.Now()
	c.Stop(StopOpts{Reason: "host_cancel"})
	<-c.Done()
	if el := time.Since(t0); el > 500*time.Millisecond {
		t.Errorf("stop under a tripped switch took %v", el)
	}
	noSurvivors(t, cID)
}

// TestKillSwitchFromContext: Run takes the switch from its context.
func TestKillSwitchFromContext(t *testing.T) {
	t.Parallel()
	if KillSwitchFrom(context.Background()) != nil {
		t.Fatal("a bare context carries a switch")
	}
	var nilSwitch *KillSwitch
	nilSwitch.Trip() // a nil switch never trips and never panics
	k := NewKillSwitch()
	e := testEngine(t, nil)
	p := prepare(t, e, &Request{Cmd: "trap '' TERM; sleep 30", HasGrace: true, Grace: 5 * time.Second})
	ctx, cancel := context.WithCancel(WithKillSwitch(context.Background(), k))
	time.AfterFunc(200*time.Millisecond, func() { cancel(); k.Trip() })
	t0 := time.Now()
	res, err := Run(ctx, &p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("Run took %v after cancel and trip (grace 5s)", el)
	}
	if res.Signal != "SIGKILL" {
		t.Errorf("result %+v", res)
	}
	noSurvivors(t, p.ID)
}
