package policy

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/proc"
)

// Secret is one entry of the `secrets` section (spec/security.md,
// "Secrets"): where a0 reads the value, and where it may go. Exactly one
// of Env, File and Command is set.
type Secret struct {
	// Name is the secret's key, the NAME of "${secret:NAME}".
	Name string
	// Env names the environment variable of a0 holding the value.
	Env string
	// File is the file holding the value, as written (relative to the
	// policy file's directory).
	File string
	// Command is the argv of a program whose standard output is the value.
	Command []string
	// To lists the destinations as written: "sh.exec:PROGRAM",
	// "http.get:HOST" and "mcp:SERVER".
	To []string

	base   string // the policy file's directory
	toOffs []int  // byte offsets of the `to` entries
}

// Destination kinds of a secret's `to` entries.
const (
	DestExec = "sh.exec:"
	DestHTTP = "http.get:"
	DestMCP  = "mcp:"
)

var secretKeys = []string{"from", "to"}
var secretFromKeys = []string{"env", "file", "command"}
var destKinds = []string{DestExec, DestHTTP, DestMCP}

// MaxSecretBytes bounds a secret's value read from a file or a command
// (64 KiB): a credential is a few hundred bytes.
const MaxSecretBytes = 64 << 10

// secretCommandTimeout bounds a `from.command` program.
const secretCommandTimeout = 10 * time.Second

func (d *decoder) secrets(n *jnode) []*Secret {
	if n.kind != jObj {
		d.wrongType("secrets", n, "an object whose keys are secret names")
		return nil
	}
	out := []*Secret{}
	for _, m := range n.keys {
		k := "secrets." + m.name
		if !proc.IsSecretNameSyntax(m.name) {
			d.fail(k, m.off, "is not a valid secret name: use letters, digits and '_', not starting with a digit")
			return nil
		}
		s := d.secret(k, m.name, m.val)
		if d.err != nil {
			return nil
		}
		out = append(out, s)
	}
	return out
}

func (d *decoder) secret(key, name string, n *jnode) *Secret {
	if n.kind != jObj {
		d.wrongType(key, n, "an object with \"from\" and \"to\"")
		return nil
	}
	s := &Secret{Name: name}
	hasFrom, hasTo := false, false
	for _, m := range n.keys {
		k := key + "." + m.name
		switch m.name {
		case "from":
			hasFrom = true
			d.secretFrom(k, s, m.val)
		case "to":
			hasTo = true
			s.To = d.stringList(k, m.val, checkDestination)
			for _, it := range m.val.items {
				s.toOffs = append(s.toOffs, it.off)
			}
			if d.err == nil && len(s.To) == 0 {
				d.fail(k, m.val.off, "must list at least one destination, e.g. \"sh.exec:gh\", \"http.get:api.example.com\" or \"mcp:server\"")
			}
		default:
			d.unknownKey(key, m, secretKeys)
		}
		if d.err != nil {
			return nil
		}
	}
	switch {
	case !hasFrom:
		d.fail(key, n.off, "needs \"from\": {\"env\": VAR}, {\"file\": PATH} or {\"command\": [ARGV…]}")
	case !hasTo:
		d.fail(key, n.off, "needs \"to\": the destinations the value may go to, e.g. [\"sh.exec:gh\"]")
	}
	return s
}

func (d *decoder) secretFrom(key string, s *Secret, n *jnode) {
	if n.kind != jObj {
		d.wrongType(key, n, "an object with one of \"env\", \"file\" or \"command\"")
		return
	}
	if len(n.keys) != 1 {
		d.fail(key, n.off, "must have exactly one of \"env\", \"file\" or \"command\"")
		return
	}
	m := n.keys[0]
	k := key + "." + m.name
	switch m.name {
	case "env":
		s.Env = d.nonEmptyString(k, m.val)
		if d.err == nil && strings.ContainsAny(s.Env, "=\x00") {
			d.fail(k, m.val.off, "is not an environment variable name (no '=' or NUL)")
		}
	case "file":
		s.File = d.nonEmptyString(k, m.val)
		if d.err == nil && strings.ContainsRune(s.File, 0) {
			d.fail(k, m.val.off, "must not contain a NUL character")
		}
	case "command":
		s.Command = d.stringList(k, m.val, func(a string) string {
			if a == "" {
				return "must not be empty"
			}
			if strings.ContainsRune(a, 0) {
				return "must not contain a NUL character"
			}
			return ""
		})
		if d.err == nil && len(s.Command) == 0 {
			d.fail(k, m.val.off, "must not be empty: give the program and its arguments, e.g. [\"pass\", \"show\", \"gh\"]")
		}
		if d.err == nil {
			if p := checkExecutable(s.Command[0]); p != "" {
				d.fail(k+"[0]", m.val.items[0].off, p)
			}
		}
	default:
		d.unknownKey(key, m, secretFromKeys)
	}
}

// checkDestination validates a `to` entry.
func checkDestination(s string) string {
	for _, kind := range destKinds {
		rest, ok := strings.CutPrefix(s, kind)
		if !ok {
			continue
		}
		switch kind {
		case DestExec:
			if p := checkExecutable(rest); p != "" {
				return "names the program " + p
			}
		case DestHTTP:
			if p := checkHostPattern(rest); p != "" {
				return "names the host, which " + p
			}
		case DestMCP:
			if !IsIdentifier(rest) {
				return "must name an MCP server of the mcp section after \"mcp:\""
			}
		}
		return ""
	}
	problem := "must start with \"sh.exec:\", \"http.get:\" or \"mcp:\", found " + diagQuote(s)
	kind, _, _ := strings.Cut(s, ":")
	if sug := diag.Suggest(kind+":", destKinds); sug != "" {
		problem += " (did you mean " + diagQuote(sug) + "?)"
	}
	return problem
}

// checkSecretUses checks the secrets against the rest of the policy once
// every section is decoded: an `mcp:SERVER` destination names a server of
// the `mcp` section, and every placeholder in a server's `env` names a
// secret that lists that server.
func (d *decoder) checkSecretUses(p *Policy) {
	names := make([]string, len(p.MCP))
	for i, s := range p.MCP {
		names[i] = s.Name
	}
	for _, s := range p.Secrets {
		for i, t := range s.To {
			srv, ok := strings.CutPrefix(t, DestMCP)
			if !ok || slices.Contains(names, srv) {
				continue
			}
			problem := "names the MCP server " + diagQuote(srv) + ", which the mcp section does not define"
			if sug := diag.Suggest(srv, names); sug != "" {
				problem += " (did you mean " + diagQuote(DestMCP+sug) + "?)"
			}
			off := -1
			if i < len(s.toOffs) {
				off = s.toOffs[i]
			}
			d.fail("secrets."+s.Name+".to["+strconv.Itoa(i)+"]", off, problem)
			return
		}
	}
	for _, srv := range p.MCP {
		for i, kv := range srv.Env {
			for _, n := range proc.Placeholders(kv[1]) {
				off := -1
				if i < len(srv.envOffs) {
					off = srv.envOffs[i]
				}
				key := "mcp." + srv.Name + ".env." + kv[0]
				sec := p.secret(n)
				dest := DestMCP + srv.Name
				switch {
				case sec == nil:
					d.fail(key, off, "names the secret "+n+", which the secrets section does not define; add secrets."+n+" with \"to\": [\""+dest+"\"]")
				case !slices.Contains(sec.To, dest):
					d.fail(key, off, "names the secret "+n+", whose \"to\" does not list \""+dest+"\" (secret_not_allowed); add \""+dest+"\" to secrets."+n+".to")
				}
				if d.err != nil {
					return
				}
			}
		}
	}
}

func (p *Policy) secret(name string) *Secret {
	for _, s := range p.Secrets {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Secrets returns the policy's secrets in file order, each knowing the
// policy file's directory (for a relative `file`); nil without a
// `secrets` section. They stay defined under --unsafe-allow-all: their
// destinations still gate every use.
func (r *Resolved) Secrets() []*Secret {
	if r == nil || r.Policy == nil || r.Policy.Secrets == nil {
		return nil
	}
	base := filepath.Dir(r.Path)
	out := make([]*Secret, len(r.Policy.Secrets))
	for i, s := range r.Policy.Secrets {
		c := *s
		c.To = slices.Clone(s.To)
		c.base = base
		out[i] = &c
	}
	return out
}

// Destinations returns the secret's destinations of kind (DestExec,
// DestHTTP or DestMCP) without the prefix.
func (s *Secret) Destinations(kind string) []string {
	var out []string
	for _, t := range s.To {
		if rest, ok := strings.CutPrefix(t, kind); ok {
			out = append(out, rest)
		}
	}
	return out
}

// Source describes where the value comes from, never the value:
// "env GH_TOKEN", "file /abs/path", "command [\"pass\",\"show\",\"gh\"]".
func (s *Secret) Source() string {
	switch {
	case s.Env != "":
		return "env " + s.Env
	case s.File != "":
		return "file " + s.filePath()
	}
	return "command " + value.JSON(value.StrList(s.Command))
}

func (s *Secret) filePath() string { return absUnder(s.base, s.File) }

// Read reads the secret's value: the environment variable, the file
// (a regular file of at most MaxSecretBytes, read through one descriptor
// as a policy file is) or the standard output of the command (run without
// a shell, a0's environment, 10 s at most, MaxSecretBytes at most). One
// final newline ("\n" or "\r\n") of a file or a command is dropped. An
// empty value, or one holding a NUL byte, is an error. Errors never hold
// the value.
func (s *Secret) Read() (string, error) {
	var v string
	switch {
	case s.Env != "":
		val, ok := os.LookupEnv(s.Env)
		if !ok {
			return "", errors.New("the environment variable " + s.Env + " is not set")
		}
		v = val
	case s.File != "":
		b, err := readSecretFile(s.filePath())
		if err != nil {
			return "", err
		}
		v = trimNewline(string(b))
	default:
		b, err := runSecretCommand(s.Command)
		if err != nil {
			return "", err
		}
		v = trimNewline(string(b))
	}
	if v == "" {
		return "", errors.New("its value (" + s.Source() + ") is empty")
	}
	if strings.IndexByte(v, 0) >= 0 {
		return "", errors.New("its value (" + s.Source() + ") holds a NUL byte")
	}
	return v, nil
}

func trimNewline(s string) string {
	if t, ok := strings.CutSuffix(s, "\r\n"); ok {
		return t
	}
	return strings.TrimSuffix(s, "\n")
}

// readSecretFile reads a secret file: opened without blocking, checked
// with fstat to be a regular file of at most MaxSecretBytes, read through
// that descriptor.
func readSecretFile(path string) ([]byte, error) {
	fd, err := openPolicy(path)
	if err != nil {
		return nil, errors.New("cannot open the file " + path + " (" + syscallText(err) + ")")
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, errors.New("cannot read the file " + path)
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("the file " + path + " is not a regular file")
	}
	if st.Size() > MaxSecretBytes {
		return nil, errors.New("the file " + path + " is larger than 64 KiB")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxSecretBytes+1))
	if err != nil {
		return nil, errors.New("cannot read the file " + path)
	}
	if len(b) > MaxSecretBytes {
		return nil, errors.New("the file " + path + " is larger than 64 KiB")
	}
	return b, nil
}

func syscallText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return "cannot open"
}

// boundedBuffer keeps at most MaxSecretBytes+1 bytes.
type boundedBuffer struct{ bytes.Buffer }

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := MaxSecretBytes + 1 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// runSecretCommand runs a `from.command` program and returns its
// standard output. Its standard error is discarded (it could echo the
// value into a message).
func runSecretCommand(argv []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), secretCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out boundedBuffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	what := "the command " + value.JSON(value.StrList(argv))
	switch {
	case ctx.Err() != nil:
		return nil, errors.New(what + " did not finish within 10 s")
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, errors.New(what + " failed (" + ee.ProcessState.String() + ")")
		}
		var en *exec.Error
		if errors.As(err, &en) {
			return nil, errors.New(what + " cannot be run (" + en.Err.Error() + ")")
		}
		return nil, errors.New(what + " cannot be run")
	case out.Len() > MaxSecretBytes:
		return nil, errors.New(what + " printed more than 64 KiB")
	}
	return out.Bytes(), nil
}

// SecretWarnings returns the `a0 policy` warnings about where secrets
// go: a secret given to a shell or launcher (which can hand it to any
// program), or to commands that run unconfined or with network access
// (which can send it anywhere).
func (r *Resolved) SecretWarnings() []string {
	var out []string
	secrets := r.Secrets()
	if secrets == nil {
		return out
	}
	c := r.Exec()
	for _, s := range secrets {
		for _, p := range s.Destinations(DestExec) {
			dest := diagQuote(DestExec + p)
			if isLauncher(p) {
				out = append(out, "secret "+s.Name+" goes to "+dest+", a shell or launcher that can pass it to any program")
			}
			switch sb := c.Sandbox; {
			case sb == nil:
				out = append(out, "secret "+s.Name+" goes to "+dest+" and commands run without exec.sandbox: the program can send it anywhere; confine it with exec.sandbox and network \"deny\"")
			case !proc.SandboxStatus().Available && !sb.Require:
				out = append(out, "secret "+s.Name+" goes to "+dest+" and this kernel cannot confine commands (require: false): the program runs UNCONFINED and can send it anywhere")
			case sb.NetworkAllow:
				out = append(out, "secret "+s.Name+" goes to "+dest+" and exec.sandbox.network is \"allow\": the program can send it to any host")
			}
			if c.Allow != nil && !slices.ContainsFunc(c.Allow, func(a string) bool { return a == p || filepath.Base(a) == filepath.Base(p) }) {
				out = append(out, "secret "+s.Name+" goes to "+dest+", which exec.allow does not list: no call can use it")
			}
		}
	}
	return out
}

// writeSecretsText renders the `secrets` section for `a0 policy`: each
// secret's source and destinations (never its value), then the warnings.
func writeSecretsText(b *strings.Builder, r *Resolved) {
	secrets := r.Secrets()
	if secrets == nil {
		return
	}
	b.WriteString("  Secrets:\n")
	if len(secrets) == 0 {
		b.WriteString("    (none)\n")
	}
	for _, s := range secrets {
		b.WriteString("    " + s.Name + ":\n")
		b.WriteString("      from:      " + s.Source() + "\n")
		b.WriteString("      to:        " + textList(s.To) + "\n")
	}
	warnings := r.SecretWarnings()
	if len(warnings) == 0 {
		b.WriteString("  Secret warnings: (none)\n")
		return
	}
	b.WriteString("  Secret warnings:\n")
	for _, w := range warnings {
		b.WriteString("    - " + w + "\n")
	}
}

// secretsValue is the `secrets` member of `a0 policy --json`: per secret
// its source and destinations, plus the warnings; never a value.
func secretsValue(r *Resolved) value.Value {
	out := value.NewRecord(2)
	list := value.NewRecord(len(r.Policy.Secrets))
	for _, s := range r.Secrets() {
		x := value.NewRecord(2)
		from := value.NewRecord(1)
		switch {
		case s.Env != "":
			from.Set("env", value.Str(s.Env))
		case s.File != "":
			from.Set("file", value.Str(s.filePath()))
		default:
			from.Set("command", value.StrList(s.Command))
		}
		x.Set("from", value.RecordOf(from))
		x.Set("to", value.StrList(s.To))
		list.Set(s.Name, value.RecordOf(x))
	}
	out.Set("entries", value.RecordOf(list))
	out.Set("warnings", value.StrList(r.SecretWarnings()))
	return value.RecordOf(out)
}
