//go:build unix

package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	a0rt "github.com/a0lang/a0/runtime"
)

// TestServeGivesInputBack: once Serve has returned (its context
// cancelled), nothing reads its input any more: a line written to the
// pipe afterwards is read by the host, and the reading goroutine has
// ended. Before, it stayed blocked reading stdin and took the host's next
// line. Both a pipe Go polls (os.Pipe) and one in blocking mode, as a
// process's stdin is, which takes no read deadline.
func TestServeGivesInputBack(t *testing.T) {
	for _, kind := range []string{"pollable", "blocking"} {
		t.Run(kind, func(t *testing.T) {
			var inR, inW *os.File
			if kind == "pollable" {
				var err error
				if inR, inW, err = os.Pipe(); err != nil {
					t.Fatal(err)
				}
			} else {
				var fds [2]int
				if err := syscall.Pipe(fds[:]); err != nil {
					t.Fatal(err)
				}
				inR, inW = os.NewFile(uintptr(fds[0]), "in"), os.NewFile(uintptr(fds[1]), "in-w")
				if err := inR.SetReadDeadline(time.Time{}); err == nil {
					t.Fatal("a blocking pipe took a deadline: the case is not tested")
				}
			}
			defer inR.Close()
			defer inW.Close()
			outR, outW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer outR.Close()
			before := runtime.NumGoroutine()
			srv, cancel, served := serveAsync(t, inR, outW)
			c := newPipeClient(t, inW, outR)
			c.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			c.next()
			cancel()
			select {
			case <-served:
			case <-time.After(5 * time.Second):
				t.Fatal("Serve did not return after its context ended")
			}
			<-srv.Shutdown()
			inW.WriteString("the host's line\n")
			got := make(chan string, 1)
			go func() {
				line, _ := bufio.NewReader(inR).ReadString('\n')
				got <- line
			}()
			select {
			case line := <-got:
				if line != "the host's line\n" {
					t.Errorf("the host read %q", line)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the host's line was taken by the ended session")
			}
			outW.Close()
			// The client's reader ends with the output; the session's
			// goroutines have ended.
			for range c.lines {
			}
			n := 0
			for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if n = runtime.NumGoroutine(); n <= before {
					break
				}
			}
			if n > before {
				buf := make([]byte, 1<<16)
				t.Errorf("%d goroutines after Serve, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}

// TestServeEndsStuckWrite: when the session ends while its output is
// full (a client that stopped reading), Serve returns at once and no
// goroutine stays blocked writing: the wait for the output is ended, for
// a pipe Go polls and for one in blocking mode, as a process's stdout is.
func TestServeEndsStuckWrite(t *testing.T) {
	for _, kind := range []string{"pollable", "blocking"} {
		t.Run(kind, func(t *testing.T) {
			pipe := func() (*os.File, *os.File) {
				if kind == "pollable" {
					r, w, err := os.Pipe()
					if err != nil {
						t.Fatal(err)
					}
					return r, w
				}
				var fds [2]int
				if err := syscall.Pipe(fds[:]); err != nil {
					t.Fatal(err)
				}
				return os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
			}
			inR, inW := pipe()
			outR, outW := pipe()
			defer inR.Close()
			defer inW.Close()
			defer outR.Close()
			defer outW.Close()
			before := runtime.NumGoroutine()
			srv, cancel, served := serveAsync(t, inR, outW)
			inW.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
			// Answers of a few KiB each, never read, fill the pipe.
			go func() {
				for i := 1; i <= 100; i++ {
					if _, err := fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"a0_help","arguments":{}}}`+"\n", i); err != nil {
						return
					}
				}
			}()
			time.Sleep(300 * time.Millisecond)
			start := time.Now()
			cancel()
			select {
			case <-served:
			case <-time.After(5 * time.Second):
				t.Fatal("Serve did not return with its output full")
			}
			<-srv.Shutdown()
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("Serve returned %v after its context ended", d)
			}
			inW.Close()
			n := 0
			for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if n = runtime.NumGoroutine(); n <= before {
					break
				}
			}
			if n > before {
				buf := make([]byte, 1<<16)
				t.Errorf("%d goroutines after Serve, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}

// serveAsync serves a new server (no tools of its own) on in and out
// until cancel; served gets Serve's error.
func serveAsync(t *testing.T, in io.Reader, out io.Writer) (srv *Server, cancel context.CancelFunc, served <-chan error) {
	t.Helper()
	env, err := a0rt.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	srv, err = New(Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan error, 1)
	go func() { ch <- srv.Serve(ctx, in, out) }()
	return srv, cancel, ch
}
