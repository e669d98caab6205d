//go:build unix

package policy

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a0lang/a0/lang/diag"
)

// TestLoadFileKinds: a policy file is read only when it is a regular file
// (a symbolic link to one is fine) of at most 1 MiB; a link to /dev/zero,
// a FIFO without a writer, a directory, a socket and a larger file are
// E_POLICY errors naming the reason, returned at once (the old
// os.ReadFile hung on the FIFO and ran out of memory on /dev/zero).
func TestLoadFileKinds(t *testing.T) {
	tests := []struct {
		name  string
		make  func(t *testing.T, path string)
		want  string // "" = loads
		found bool
	}{
		{"regular", func(t *testing.T, p string) { write(t, p, `{"allow":["fs.read"]}`) }, "", true},
		{"link to regular", func(t *testing.T, p string) {
			write(t, p+".real", `{"allow":["fs.read"]}`)
			symlink(t, p+".real", p)
		}, "", true},
		{"exactly 1 MiB", func(t *testing.T, p string) {
			write(t, p, `{"allow":[]}`+strings.Repeat(" ", MaxFileBytes-len(`{"allow":[]}`)))
		}, "", true},
		{"missing", func(t *testing.T, p string) {}, "", false},
		{"link to /dev/zero", func(t *testing.T, p string) { symlink(t, "/dev/zero", p) },
			"is a character device (/dev/zero), not a regular file", true},
		{"fifo", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
		}, "is a FIFO, not a regular file", true},
		{"directory", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "is a directory, not a regular file", true},
		{"socket", func(t *testing.T, p string) {
			l, err := net.Listen("unix", p)
			if err != nil {
				t.Skip("unix socket:", err)
			}
			t.Cleanup(func() { l.Close() })
		}, "is a socket, not a regular file", true},
		{"2 MiB", func(t *testing.T, p string) { write(t, p, strings.Repeat(" ", 2<<20)) },
			"is larger than 1 MiB (2097152 bytes)", true},
		{"sparse 16 GiB", func(t *testing.T, p string) {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(16 << 30); err != nil {
				t.Skip("truncate:", err)
			}
		}, "is larger than 1 MiB (17179869184 bytes)", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "policy.json")
			tc.make(t, path)
			done := make(chan struct{})
			var p *Policy
			var found bool
			var err error
			go func() {
				p, found, err = LoadFile(path)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("LoadFile did not return within 5s")
			}
			if found != tc.found {
				t.Errorf("found = %v, want %v", found, tc.found)
			}
			if tc.want == "" {
				if err != nil || (found && p == nil) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			pe, ok := err.(*Error)
			if !ok {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			want := "Invalid policy file '" + path + "': " + tc.want + "."
			if pe.Error() != want {
				t.Errorf("message = %q\nwant      %q", pe.Error(), want)
			}
			d := pe.Diagnostic()
			if d.Code != diag.EPolicy || !strings.Contains(d.Hint, "regular JSON file of at most 1 MiB") || !strings.Contains(d.Hint, "--policy FILE") {
				t.Errorf("diagnostic = %+v", d)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestDeniedAndServerGranted: deny (directly or by "server.*") and which
// configured MCP servers the policy grants a tool of.
func TestDeniedAndServerGranted(t *testing.T) {
	p, err := Parse("p.json", []byte(`{"allow":["fs.read","a.x","b.*","c.*","d.y","sh.exec"],"deny":["c.*","d.y","sh.exec"],
		"mcp":{"a":{"command":["x"]},"b":{"command":["x"]},"c":{"command":["x"]},"d":{"command":["x"]},"e":{"command":["x"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Resolved{Source: SourceProject, Path: "p.json", Policy: p}
	for _, tc := range []struct {
		id     string
		denied bool
	}{{"fs.read", false}, {"sh.exec", true}, {"c.any", true}, {"d.y", true}, {"d.z", false}, {"a.x", false}} {
		if got := r.Denied(tc.id); got != tc.denied {
			t.Errorf("Denied(%q) = %v", tc.id, got)
		}
	}
	for _, tc := range []struct {
		srv     string
		granted bool
	}{{"a", true}, {"b", true}, {"c", false}, {"d", false}, {"e", false}, {"fs", false}, {"nope", false}} {
		if got := r.ServerGranted(tc.srv); got != tc.granted {
			t.Errorf("ServerGranted(%q) = %v", tc.srv, got)
		}
	}
	all := r.AllowAll()
	if !all.ServerGranted("e") || !all.ServerGranted("c") || all.ServerGranted("nope") || all.Denied("sh.exec") {
		t.Error("--unsafe-allow-all grants every configured server and denies nothing")
	}
}
