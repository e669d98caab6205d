//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestREPLCtrlCAfterCompletionList: Ctrl-C while Tab has listed
// candidates clears the line like any other Ctrl-C, so the next input is
// not appended to the abandoned word ("re" + "1 + 1" ran "re1 + 1").
func TestREPLCtrlCAfterCompletionList(t *testing.T) {
	p, exited := startREPLPty(t)
	p.expect("a0> ")
	p.send("re")
	p.send("\t")
	p.send("\t") // the second Tab lists the candidates (reduce, return, …)
	p.expect("reduce")
	p.send("\x03")
	p.expect("a0> ")
	p.send("1 + 1\r")
	p.expect("\n2\n")
	p.expect("a0> ")
	p.send("\x04")
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit: %v; output:\n%s", err, p.text())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("a0 repl did not exit; output:\n%s", p.text())
	}
}

// TestREPLSecondInterruptIsPerInput: a second Ctrl-C kills the commands of
// the input it interrupts at once, and later inputs keep their grace
// period (the kill switch used to be process-wide and stay tripped).
func TestREPLSecondInterruptIsPerInput(t *testing.T) {
	p, _ := startREPLPty(t)
	dir := p.dir
	p.expect("a0> ")
	p.send(`let c = "trap '' TERM; touch started; sleep 30"` + "\r")
	p.expect("a0> ")
	waitStarted := func() {
		t.Helper()
		started := filepath.Join(dir, "started")
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if _, err := os.Stat(started); err == nil {
				os.Remove(started)
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the command did not start; output:\n%s", p.text())
			}
		}
	}
	p.send(`do sh.exec { cmd: c }` + "\r")
	p.expect("allow sh.exec for this session? [y/N] ")
	p.send("y\r")
	waitStarted()
	t0 := time.Now()
	p.send("\x03")
	time.Sleep(100 * time.Millisecond)
	p.send("\x03")
	p.expect("error[E_CANCELLED]")
	if el := time.Since(t0); el > 1500*time.Millisecond {
		t.Errorf("two interrupts took %v to stop a TERM-trapping command (grace 2s)", el)
	}
	p.expect("a0> ")

	p.send(`do sh.exec { cmd: c }` + "\r")
	waitStarted()
	t0 = time.Now()
	p.send("\x03")
	p.expect("error[E_CANCELLED]")
	if el := time.Since(t0); el < 1500*time.Millisecond {
		t.Errorf("one interrupt of a later input stopped the command after %v: its 2s grace period was skipped", el)
	}
	p.expect("a0> ")
}
