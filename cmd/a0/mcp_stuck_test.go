//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// startMCPUnread starts `a0 mcp` with a stdout pipe the test never reads:
// a client that has stopped reading its input. It returns the process,
// its stdin, and a channel closed when it has exited.
func startMCPUnread(t *testing.T) (*exec.Cmd, io.WriteCloser, chan struct{}) {
	t.Helper()
	bin, err := exec.LookPath("a0")
	if err != nil {
		t.Skip("no a0 command on PATH (run through go test)")
	}
	dir := t.TempDir()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { outR.Close() })
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.Stdout = outW
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	io.WriteString(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stuck","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	// The answers (each a few KiB) fill the pipe: the server blocks
	// writing them.
	go func() {
		for i := 1; i <= 200; i++ {
			if _, err := fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"a0_help","arguments":{}}}`+"\n", i); err != nil {
				return
			}
		}
	}()
	time.Sleep(500 * time.Millisecond)
	return cmd, in, exited
}

// TestMCPWireStuckStdoutSignal: a client that stops reading the server's
// stdout does not hold its shutdown. Before, the answer blocked in its
// write kept the session from ending, and SIGTERM left the server running
// until a second signal.
func TestMCPWireStuckStdoutSignal(t *testing.T) {
	cmd, _, exited := startMCPUnread(t)
	select {
	case <-exited:
		t.Fatal("a0 mcp exited before the signal")
	default:
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(3 * time.Second):
		t.Fatal("a0 mcp still running 3 s after SIGTERM with its stdout full")
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	t.Logf("exited %v after SIGTERM", time.Since(start))
}

// TestMCPWireStuckStdoutEOF: the same when the client closes stdin.
func TestMCPWireStuckStdoutEOF(t *testing.T) {
	cmd, in, exited := startMCPUnread(t)
	start := time.Now()
	in.Close()
	select {
	case <-exited:
	case <-time.After(3 * time.Second):
		t.Fatal("a0 mcp still running 3 s after stdin closed with its stdout full")
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	t.Logf("exited %v after stdin closed", time.Since(start))
}
