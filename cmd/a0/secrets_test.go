//go:build linux

package main

// Policy secrets (issue 29) through `a0 run`: real a0 processes, real
// commands, a real loopback HTTP server, and greps of every file a run
// leaves (trace, evidence, job store) for the values.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	envSecret  = "env-secret-value-0123456789"
	fileSecret = "file-secret-value-abcdefgh"
	cmdSecret  = "cmd-secret-value-ZYXWVUT"
	httpSecret = "http-secret-value-98765432"
)

// secretsPolicy is a policy whose secrets come from an env var, a file
// and a command; host is the loopback test server's host.
func secretsPolicy(host string) string {
	return `{
  "allow": ["sh.exec", "http.get"],
  "exec": {"allowShell": true, "jobStore": {"dir": "jobs"}},
  "http": {"allowPrivate": true},
  "secrets": {
    "TOK": {"from": {"env": "A0_TEST_SECRET_SRC"}, "to": ["sh.exec:sh", "sh.exec:cat"]},
    "FT":  {"from": {"file": "tok.txt"}, "to": ["sh.exec:cat"]},
    "CT":  {"from": {"command": ["cat", "cmd.txt"]}, "to": ["sh.exec:cat"]},
    "HT":  {"from": {"env": "A0_TEST_HTTP_SRC"}, "to": ["http.get:` + host + `"]}
  }
}`
}

// secretForms are the byte strings no file of the run may hold.
func secretForms() []string {
	var out []string
	for _, v := range []string{envSecret, fileSecret, cmdSecret, httpSecret} {
		out = append(out, v, base64.StdEncoding.EncodeToString([]byte(v)))
	}
	return out
}

// noSecretText fails when text (named what) holds a secret's bytes.
func noSecretText(t *testing.T, what, text string) {
	t.Helper()
	for _, f := range secretForms() {
		if strings.Contains(text, f) {
			t.Errorf("%s holds the secret bytes %q", what, f)
		}
	}
}

// noSecretIn fails when any file under root (or root itself) holds a
// secret's bytes.
func noSecretIn(t *testing.T, root string) {
	t.Helper()
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == "tok.txt" || filepath.Base(p) == "cmd.txt" {
			return nil
		}
		b, rerr := os.ReadFile(p)
		if rerr != nil {
			return nil
		}
		noSecretText(t, p, string(b))
		return nil
	})
}

func TestSecretsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtA0(t)
	// The server checks that the header carries the value, and echoes it
	// in its body and a header (which a0 must mask).
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		if gotAuth != "Bearer "+httpSecret {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("X-Echo", gotAuth)
		_, _ = w.Write([]byte(`{"auth":"` + gotAuth + `"}`))
	}))
	defer srv.Close()
	t.Setenv("A0_TEST_SECRET_SRC", envSecret)
	t.Setenv("A0_TEST_HTTP_SRC", httpSecret)
	dir := t.TempDir()
	prog := `cap { sh.exec: true, http.get: true }
budget { timeMs: 20000, maxToolCalls: 20 }
let a = do sh.exec { cmd: "echo $TOK; printf %s \"$TOK\" | base64; printenv A0_TEST_SECRET_SRC; echo end", env: { TOK: "${secret:TOK}" } }
let b = do sh.exec { argv: ["cat"], stdin: "file=${secret:FT} cmd=${secret:CT}" }
do sh.start { cmd: "echo job $TOK", env: { TOK: "${secret:TOK}" }, tag: "sec" } -> job
call? sh.wait { id: job.id, timeoutMs: 5000 } -> done
call? sh.tail { id: job.id, stream: "stdout", lines: 5 } -> tail
let h = do http.get { url: "` + srv.URL + `/x", headers: { Authorization: "Bearer ${secret:HT}" } }
check { that: a.exitCode == 0, msg: "sh ran", details: { out: a.stdout } }
check { that: h.status == 200, msg: "server saw the header", details: { body: h.body, headers: h.headers } }
return { a: a.stdout, b: b.stdout, job: tail.stdout, status: h.status, body: h.body, echo: get { in: h.headers, path: "x-echo" } }
`
	writeFiles(t, dir, map[string]string{
		".a0policy.json": secretsPolicy("127.0.0.1"),
		"tok.txt":        fileSecret + "\n",
		"cmd.txt":        cmdSecret,
		"prog.a0":        prog,
	})
	code, out, errb := runA0(t, bin, dir, "", 30*time.Second, "run", "--trace", "trace.jsonl", "--evidence", "ev.json", "prog.a0")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errb)
	}
	if gotAuth != "Bearer "+httpSecret {
		t.Errorf("the server got Authorization %q", gotAuth)
	}
	for _, want := range []string{
		`"a": "[masked:TOK]\n[masked:TOK]`, // the value and its base64
		`end\n"`,                           // printenv of the source printed nothing
		`"b": "file=[masked:FT] cmd=[masked:CT]"`,
		`"job": "job [masked:TOK]\n"`,
		`"status": 200`,
		`"body": "{\"auth\":\"Bearer [masked:HT]\"}"`,
		`"echo": "Bearer [masked:HT]"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %s:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "\nend\n") && !strings.Contains(out, `\nend\n`) {
		t.Errorf("the command did not finish: %s", out)
	}
	for _, f := range []string{"trace.jsonl", "ev.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "jobs")); len(ents) == 0 {
		t.Errorf("the job store is empty")
	}
	noSecretIn(t, dir)
	noSecretText(t, "a0's output", out+errb)
}

func TestSecretsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtA0(t)
	t.Setenv("A0_TEST_SECRET_SRC", envSecret)
	t.Setenv("A0_TEST_HTTP_SRC", httpSecret)
	tests := []struct {
		name, call, want string
	}{
		{"program not in to", `do sh.exec { argv: ["env"], env: { TOK: "${secret:TOK}" } }`, `add \"sh.exec:env\" to secrets.TOK.to`},
		{"argv to another program", `do sh.exec { argv: ["echo", "${secret:FT}"] }`, `"destination":"sh.exec:echo"`},
		{"placeholder in cmd text", `do sh.exec { cmd: "echo ${secret:TOK}" }`, `is named in the cmd text`},
		{"placeholder in the program", `do sh.exec { argv: ["${secret:TOK}"] }`, `named in the program`},
		{"sh.start to another program", `do sh.start { argv: ["env"], env: { TOK: "${secret:TOK}" } }`, `"reason":"secret_not_allowed"`},
		{"unknown secret", `do sh.exec { argv: ["cat"], stdin: "${secret:NOPE}" }`, `no secret named NOPE`},
		{"host not in to", `do http.get { url: "http://localhost:1/", headers: { A: "${secret:HT}" } }`, `add \"http.get:localhost\" to secrets.HT.to`},
		{"http secret to a command", `do sh.exec { argv: ["cat"], stdin: "${secret:HT}" }`, `secret HT may not go to cat`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				".a0policy.json": secretsPolicy("127.0.0.1"),
				"tok.txt":        fileSecret,
				"cmd.txt":        cmdSecret,
				"prog.a0":        "cap { sh.exec: true, http.get: true }\n" + tt.call + "\nreturn 1\n",
			})
			code, out, errb := runA0(t, bin, dir, "", 20*time.Second, "run", "--trace", "trace.jsonl", "prog.a0")
			if code != 3 || !strings.Contains(errb, "E_CAP_DENIED") || !strings.Contains(errb, tt.want) {
				t.Fatalf("exit %d, want 3 with E_CAP_DENIED and %s; stdout %s stderr %s", code, tt.want, out, errb)
			}
			if !strings.Contains(errb, `"reason":"secret_not_allowed"`) {
				t.Errorf("no secret_not_allowed reason: %s", errb)
			}
			noSecretIn(t, dir)
			noSecretText(t, "a0's output", out+errb)
		})
	}
}

func TestSecretsPolicyReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtA0(t)
	t.Setenv("A0_TEST_SECRET_SRC", envSecret)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".a0policy.json": secretsPolicy("api.example.com"), "tok.txt": fileSecret})
	for _, args := range [][]string{{"policy"}, {"policy", "--json"}} {
		code, out, errb := runA0(t, bin, dir, "", 20*time.Second, args...)
		if code != 0 {
			t.Fatalf("a0 %v: exit %d %s", args, code, errb)
		}
		for _, want := range []string{"TOK", "A0_TEST_SECRET_SRC", "sh.exec:cat", "http.get:api.example.com", "a shell or launcher", "without exec.sandbox"} {
			if !strings.Contains(out, want) {
				t.Errorf("a0 %v lacks %q:\n%s", args, want, out)
			}
		}
		noSecretText(t, fmt.Sprint("a0 ", args), out+errb)
	}
}

// The variable a secret is read from is not inherited by commands, even
// before any secret is read (when masking would not hide it).
func TestSecretsSourceNotInherited(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtA0(t)
	t.Setenv("A0_TEST_SECRET_SRC", envSecret)
	t.Setenv("A0_TEST_HTTP_SRC", httpSecret)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".a0policy.json": secretsPolicy("127.0.0.1"),
		"prog.a0": "cap { sh.exec: true }\n" +
			"let a = do sh.exec { cmd: \"printenv A0_TEST_SECRET_SRC A0_TEST_HTTP_SRC; echo unset\" }\n" +
			"do sh.start { cmd: \"env\" } -> j\ncall? sh.wait { id: j.id, timeoutMs: 5000 } -> w\n" +
			"call? sh.tail { id: j.id, stream: \"stdout\", lines: 500 } -> t\n" +
			"return { a: a.stdout, env: t.stdout }\n",
	})
	code, out, errb := runA0(t, bin, dir, "", 20*time.Second, "run", "prog.a0")
	if code != 0 || !strings.Contains(out, `"a": "unset\n"`) {
		t.Fatalf("exit %d, want the variables unset: %s %s", code, out, errb)
	}
	if strings.Contains(out, "A0_TEST_SECRET_SRC") || strings.Contains(out, envSecret) || strings.Contains(out, httpSecret) {
		t.Errorf("a job inherited a secret's source variable: %s", out)
	}
}

// A redirect to a host the secret does not list is refused: the value
// never reaches it (Go's client would forward a custom header).
func TestSecretsRedirectRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtA0(t)
	t.Setenv("A0_TEST_SECRET_SRC", envSecret)
	t.Setenv("A0_TEST_HTTP_SRC", httpSecret)
	var leaked atomicString
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, vs := range r.Header {
			for _, v := range vs {
				if strings.Contains(v, httpSecret) {
					leaked.set(v)
				}
			}
		}
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+"/stolen", http.StatusFound)
	}))
	defer first.Close()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".a0policy.json": secretsPolicy("127.0.0.1"),
		"prog.a0":        "cap { http.get: true }\nreturn do http.get { url: \"" + first.URL + "/\", headers: { X_Key: \"${secret:HT}\" } }\n",
	})
	code, out, errb := runA0(t, bin, dir, "", 20*time.Second, "run", "prog.a0")
	if code != 3 || !strings.Contains(errb, `"reason":"secret_not_allowed"`) {
		t.Errorf("exit %d, want 3 with secret_not_allowed: %s %s", code, out, errb)
	}
	if v := leaked.get(); v != "" {
		t.Errorf("the redirect target got the header %q", v)
	}
}

type atomicString struct {
	mu sync.Mutex
	s  string
}

func (a *atomicString) set(s string) { a.mu.Lock(); a.s = s; a.mu.Unlock() }
func (a *atomicString) get() string  { a.mu.Lock(); defer a.mu.Unlock(); return a.s }

// The same secret through `a0 mcp` (a0_run) and the piped REPL: the value
// reaches the command, the answer holds it masked only.
func TestSecretsMCPAndREPL(t *testing.T) {
	t.Setenv("A0_TEST_SECRET_SRC", envSecret)
	t.Setenv("A0_TEST_HTTP_SRC", httpSecret)
	src := `cap { sh.exec: true }
do sh.exec { cmd: "echo got $TOK", env: { TOK: "${secret:TOK}" } } -> r
return r.stdout`
	t.Run("a0 mcp", func(t *testing.T) {
		cs := mcpSession(t, secretsPolicy("127.0.0.1"))
		res, out, text := callTool(t, cs, "a0_run", map[string]any{"source": src})
		b, _ := json.Marshal(res)
		if !out.OK || string(out.Value) != `"got [masked:TOK]\n"` {
			t.Errorf("a0_run: ok %v value %s text %q", out.OK, out.Value, text)
		}
		if strings.Contains(string(b), envSecret) {
			t.Errorf("the MCP result holds the value: %s", b)
		}
		_, out, _ = callTool(t, cs, "a0_run", map[string]any{"source": "cap { sh.exec: true }\ndo sh.exec { argv: [\"env\"], env: { T: \"${secret:TOK}\" } }\nreturn 1"})
		if out.OK || len(out.Diagnostics) == 0 || !strings.Contains(string(out.Diagnostics[0].Details), "secret_not_allowed") {
			t.Errorf("a0_run of a refused call: %+v", out)
		}
	})
	t.Run("repl", func(t *testing.T) {
		dir := replDir(t)
		writeFiles(t, dir, map[string]string{".a0policy.json": secretsPolicy("127.0.0.1")})
		out, errOut, code := pipedREPL(t, src+"\n")
		if code != 0 || !strings.Contains(out, "got [masked:TOK]") || strings.Contains(out+errOut, envSecret) {
			t.Errorf("repl: exit %d out %q err %q", code, out, errOut)
		}
	})
}

// fs.read of a job's environment (or of a file a command wrote the value
// to) gives the program the value masked only.
func TestSecretsFSReadMasked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtA0(t)
	t.Setenv("A0_TEST_SECRET_SRC", envSecret)
	t.Setenv("A0_TEST_HTTP_SRC", httpSecret)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".a0policy.json": strings.Replace(secretsPolicy("127.0.0.1"), `"allow": ["sh.exec", "http.get"]`, `"allow": ["sh.exec", "http.get", "fs.read"]`, 1),
		"prog.a0": "cap { sh.exec: true, fs.read: true }\n" +
			"do sh.exec { cmd: \"printf %s \\\"$TOK\\\" > out.txt\", env: { TOK: \"${secret:TOK}\" } } -> w\n" +
			"do sh.start { cmd: \"sleep 5\", env: { TOK: \"${secret:TOK}\" } } -> j\n" +
			"call? fs.read { path: \"out.txt\" } -> f\n" +
			"call? fs.read { path: str.concat { parts: [\"/proc/\", j.pid, \"/environ\"] } } -> e\n" +
			"return { file: f, environ: e }\n",
	})
	code, out, errb := runA0(t, bin, dir, "", 20*time.Second, "run", "prog.a0")
	if code != 0 || !strings.Contains(out, `"file": "[masked:TOK]"`) || !strings.Contains(out, "TOK=[masked:TOK]") {
		t.Fatalf("exit %d: %s %s", code, out, errb)
	}
	if strings.Contains(out, envSecret) {
		t.Errorf("fs.read gave the value: %s", out)
	}
}
