package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// PlaceholderPrefix starts a secret placeholder: "${secret:NAME}" stands
// for the value of the policy's secret NAME where a tool replaces it.
const PlaceholderPrefix = "${secret:"

// Placeholder returns the placeholder text of secret name.
func Placeholder(name string) string { return PlaceholderPrefix + name + "}" }

// IsSecretNameSyntax reports whether s can name a policy secret: a letter or
// '_' followed by letters, digits and '_'.
func IsSecretNameSyntax(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// Placeholders returns the secret names the placeholders of s name, in
// order of first appearance, without duplicates. Text that starts like a
// placeholder but has no valid name and closing brace is not one.
func Placeholders(s string) []string {
	var out []string
	for {
		i := strings.Index(s, PlaceholderPrefix)
		if i < 0 {
			return out
		}
		s = s[i+len(PlaceholderPrefix):]
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return out
		}
		if name := s[:j]; IsSecretNameSyntax(name) {
			if !contains(out, name) {
				out = append(out, name)
			}
			s = s[j+1:]
		}
	}
}

// ReplacePlaceholders replaces every placeholder of s whose name vals
// holds with its value; other text is kept as is.
func ReplacePlaceholders(s string, vals map[string]string) string {
	if !strings.Contains(s, PlaceholderPrefix) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, PlaceholderPrefix)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		rest := s[i+len(PlaceholderPrefix):]
		j := strings.IndexByte(rest, '}')
		if j >= 0 {
			if v, ok := vals[rest[:j]]; ok {
				b.WriteString(s[:i])
				b.WriteString(v)
				s = rest[j+1:]
				continue
			}
		}
		b.WriteString(s[:i+len(PlaceholderPrefix)])
		s = rest
	}
}

// PolicySecret is a secret of the policy that a command's placeholders
// may name (spec/security.md, "Secrets").
type PolicySecret struct {
	// Name is the secret's name in the policy.
	Name string
	// Programs are the `sh.exec:PROGRAM` destinations of the secret:
	// bare names or absolute paths, matched as exec.allow entries are.
	Programs []string
	// Value reads the secret's value (once per run: the caller caches
	// it). Its error must not hold the value.
	Value func() (string, error)
}

// SecretUse lets a request's placeholders name policy secrets. A request
// without one treats placeholders as plain text.
type SecretUse struct {
	// Secrets are the policy's secrets.
	Secrets []PolicySecret
	// Known returns every secret value read in the run so far (after the
	// request's own were read); the command's output masks them all.
	Known func() []Secret
}

func (u *SecretUse) find(name string) *PolicySecret {
	for i := range u.Secrets {
		if u.Secrets[i].Name == name {
			return &u.Secrets[i]
		}
	}
	return nil
}

// secretRefused is the E_CAP_DENIED refusal of a placeholder.
func secretRefused(name, dest, msg string) *Error {
	return &Error{Kind: KindCapDenied, Reason: ReasonSecretNotAllowed, Msg: msg,
		Fields: [][2]string{{"secret", name}, {"destination", dest}}}
}

// applySecrets replaces the placeholders of a prepared request (env
// values the request sets, argv items after the program, stdin) with the
// values of the secrets they name, once the executable is known. Each
// secret must list the executable among its `sh.exec:` destinations; a
// placeholder in cmd text or in the program name is refused. The values
// never reach the request itself (the job store and the trace keep the
// placeholders); the mask set gains every secret read in the run.
func (e *Engine) applySecrets(r *Request, p *Prepared) error {
	u := r.Secrets
	if u == nil {
		return nil
	}
	names, err := e.checkSecretDests(r, p.Spec.Path, p.ResolvedPath)
	if err != nil {
		return err
	}
	if names == nil {
		// Output still masks the secrets other calls have read.
		if u.Known != nil {
			p.Masker = p.Masker.WithSecrets(u.Known())
		}
		return nil
	}
	vals := make(map[string]string, len(names))
	for _, n := range names {
		v, err := u.find(n).Value()
		if err != nil {
			return &Error{Kind: KindTool, Reason: ReasonSecretUnavailable, Msg: "secret " + n + " cannot be read: " + err.Error(), Fields: [][2]string{{"secret", n}}}
		}
		vals[n] = v
	}
	for _, kv := range r.Env {
		if Placeholders(kv[1]) == nil {
			continue
		}
		prefix := kv[0] + "="
		for i, ev := range p.Spec.Env {
			if strings.HasPrefix(ev, prefix) {
				p.Spec.Env[i] = prefix + ReplacePlaceholders(ev[len(prefix):], vals)
			}
		}
	}
	if r.Argv != nil {
		args := append([]string(nil), p.Spec.Args...)
		for i := 1; i < len(args); i++ {
			args[i] = ReplacePlaceholders(args[i], vals)
		}
		p.Spec.Args = args
	}
	if p.Spec.HasStdin {
		in := []byte(ReplacePlaceholders(string(p.Spec.Stdin), vals))
		if int64(len(in)) > e.cfg.MaxStdinBytes {
			return &Error{Kind: KindArgs, Reason: ReasonInvalidArgs, Msg: "stdin: larger than the policy's exec.maxStdinBytes once its secrets are in", Fields: [][2]string{{"field", "stdin"}}}
		}
		p.Spec.Stdin = in
	}
	var known []Secret
	if u.Known != nil {
		known = u.Known()
	}
	for _, n := range names {
		known = append(known, Secret{Name: n, Value: vals[n]})
	}
	p.Masker = p.Masker.WithSecrets(known)
	for _, sc := range known {
		if !contains(p.MaskNames, sc.Name) {
			p.MaskNames = append(p.MaskNames, sc.Name)
		}
	}
	sort.Strings(p.MaskNames)
	return nil
}

// checkSecretDests returns the secrets a request's placeholders name (env
// values it sets, argv items after the program, stdin) and refuses one
// that does not list the executable found at found (real path real)
// among its `sh.exec:` destinations, or that the policy does not define.
// It runs as soon as the executable is found, before the exec rules.
func (e *Engine) checkSecretDests(r *Request, found, real string) ([]string, error) {
	u := r.Secrets
	if u == nil {
		return nil, nil
	}
	var names []string
	add := func(s string) {
		for _, n := range Placeholders(s) {
			if !contains(names, n) {
				names = append(names, n)
			}
		}
	}
	for _, kv := range r.Env {
		add(kv[1])
	}
	if r.Argv != nil {
		for _, a := range r.Argv[1:] {
			add(a)
		}
	}
	if r.HasStdin && bytes.Contains(r.Stdin, []byte(PlaceholderPrefix)) {
		add(string(r.Stdin))
	}
	if names == nil {
		return nil, nil
	}
	dest := "sh.exec:" + filepath.Base(found)
	prog := r.Shell
	if r.Argv != nil {
		prog = r.Argv[0]
	} else if prog == "" {
		prog = "sh"
	}
	for _, n := range names {
		s := u.find(n)
		if s == nil {
			return nil, secretRefused(n, dest, "no secret named "+n+" in the policy's secrets; define it there, with \"to\": [\""+dest+"\"]")
		}
		if !e.programMatches(s.Programs, found, real) {
			return nil, secretRefused(n, dest, "secret "+n+" may not go to "+prog+" ("+real+"): its \"to\" does not list it; add \""+dest+"\" to secrets."+n+".to in the policy to allow it")
		}
	}
	return names, nil
}

// checkPlaceholderPlaces refuses a placeholder where none may be: in
// cmd text (a shell would print or pass it anywhere) or in the program
// name. It runs first, before the program is looked up.
// firstPlaceholder returns the name of the first secret placeholder in
// the parts of r where one is replaced (cmd, argv, env values, stdin), or
// "".
func firstPlaceholder(r *Request) string {
	parts := append([]string{r.Cmd}, r.Argv...)
	for _, kv := range r.Env {
		parts = append(parts, kv[1])
	}
	parts = append(parts, string(r.Stdin))
	for _, s := range parts {
		if names := Placeholders(s); names != nil {
			return names[0]
		}
	}
	return ""
}

func checkPlaceholderPlaces(r *Request) error {
	if r.Secrets == nil {
		return nil
	}
	prog := r.Shell
	if r.Argv != nil {
		prog = r.Argv[0]
	} else if prog == "" {
		prog = "sh"
	}
	if r.Argv == nil {
		if names := Placeholders(r.Cmd); names != nil {
			return secretRefused(names[0], "sh.exec:"+prog, "secret "+names[0]+" is named in the cmd text: a placeholder may appear in cmd mode only in env and stdin; pass it as env: {VAR: \""+Placeholder(names[0])+"\"} and use $VAR in the command")
		}
	} else if names := Placeholders(r.Argv[0]); names != nil {
		return secretRefused(names[0], "sh.exec:"+prog, "secret "+names[0]+" is named in the program (argv[0]): a placeholder may appear only in the arguments, env and stdin")
	}
	return nil
}

// programMatches reports whether the executable found at found (real
// path real) matches one of entries as an exec.allow entry would: a bare
// name matches an executable of that file name that the name resolves to
// along PATH, an absolute path matches its real file.
func (e *Engine) programMatches(entries []string, found, real string) bool {
	name := filepath.Base(found)
	for _, a := range resolveEntries(entries, os.Getenv("PATH")) {
		if a.name == "" && contains(a.reals, real) {
			return true
		}
		if a.name != "" && a.name == name && contains(a.reals, real) {
			return true
		}
	}
	return false
}
