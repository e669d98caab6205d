package tools

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
)

// runSecrets is the per-run store of the policy's secret values: each is
// read at its first use and kept for the rest of the run (a
// runtime.Resource; the values are dropped at run end). A value lives
// only here and in the bytes handed to a command or a request.
type runSecrets struct {
	mu      sync.Mutex
	secrets []*policy.Secret
	vals    map[string]string
	errs    map[string]error
	order   []string // names in the order they were read
}

// Close implements runtime.Resource.
func (s *runSecrets) Close(string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vals, s.errs, s.order = nil, nil, nil
}

func secretsFor(c *runtime.Call, tc *Config) *runSecrets {
	return c.Resource("a0.secrets", func() runtime.Resource {
		return &runSecrets{secrets: tc.secretList(), vals: map[string]string{}, errs: map[string]error{}}
	}).(*runSecrets)
}

func (s *runSecrets) find(name string) *policy.Secret {
	for _, sc := range s.secrets {
		if sc.Name == name {
			return sc
		}
	}
	return nil
}

// value returns a secret's value, reading it on first use (a failure is
// kept too: a run reads each secret once).
func (s *runSecrets) value(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vals == nil {
		return "", errRunEnded
	}
	if v, ok := s.vals[name]; ok {
		return v, nil
	}
	if err, ok := s.errs[name]; ok {
		return "", err
	}
	sc := s.find(name)
	if sc == nil {
		return "", errNoSecret
	}
	v, err := sc.Read()
	if err != nil {
		s.errs[name] = err
		return "", err
	}
	s.vals[name] = v
	s.order = append(s.order, name)
	return v, nil
}

// known returns every value read so far, for masking.
func (s *runSecrets) known() []proc.Secret {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]proc.Secret, 0, len(s.order))
	for _, n := range s.order {
		out = append(out, proc.Secret{Name: n, Value: s.vals[n]})
	}
	return out
}

// masker returns a masker of every value read so far (nil when none).
func (s *runSecrets) masker() *proc.Masker {
	return (*proc.Masker)(nil).WithSecrets(s.known())
}

type secretError string

func (e secretError) Error() string { return string(e) }

const (
	errRunEnded = secretError("the run has ended")
	errNoSecret = secretError("no such secret")
)

// execUse is the SecretUse of an sh.exec / sh.start request.
func (s *runSecrets) execUse() *proc.SecretUse {
	u := &proc.SecretUse{Known: s.known}
	for _, sc := range s.secrets {
		name := sc.Name
		u.Secrets = append(u.Secrets, proc.PolicySecret{Name: name, Programs: sc.Destinations(policy.DestExec),
			Value: func() (string, error) { return s.value(name) }})
	}
	return u
}

// envSources returns the environment variables secrets are read from:
// commands never inherit them (they see a secret only through a
// placeholder).
func secretEnvSources(list []*policy.Secret) []string {
	var out []string
	for _, s := range list {
		if s.Env != "" {
			out = append(out, s.Env)
		}
	}
	return out
}

// secretDenied is the E_CAP_DENIED refusal of a placeholder for tool's
// capability.
func secretDenied(c *runtime.Call, capability, name, dest, msg string) error {
	d := value.NewRecord(5)
	d.Set("capability", value.Str(capability))
	d.Set("tool", value.Str(c.Tool))
	d.Set("reason", value.Str("secret_not_allowed"))
	d.Set("secret", value.Str(name))
	d.Set("destination", value.Str(dest))
	hint := secretHint(msg, [][2]string{{"secret", name}, {"destination", dest}})
	return &runtime.Error{Diagnostic: *diag.New(diag.ECapDenied, c.Span, "Capability '"+capability+"' does not allow this call: "+msg, hint), Details: value.RecordOf(d)}
}

// secretHint is the hint of a secret_not_allowed refusal: the policy
// line that would allow it, or where a placeholder may go.
func secretHint(msg string, fields [][2]string) string {
	var name, dest string
	for _, f := range fields {
		switch f[0] {
		case "secret":
			name = f[1]
		case "destination":
			dest = f[1]
		}
	}
	switch {
	case strings.Contains(msg, "cmd text") || strings.Contains(msg, "in the program"):
		return "Pass the secret in env (env: { VAR: \"${secret:" + name + "}\" }) and use $VAR in the command, or in stdin."
	case strings.HasPrefix(msg, "no secret named"):
		return "Define it in the policy: \"secrets\": { \"" + name + "\": { \"from\": { \"env\": \"VAR\" }, \"to\": [\"" + dest + "\"] } }."
	}
	return "To allow it, the policy needs \"" + dest + "\" in secrets." + name + ".to."
}

// secretHostsKey carries, in a request's context, the host patterns every
// secret of its headers may go to; a redirect elsewhere is refused.
type secretHostsKey struct{}

// headerSecrets returns the secrets the placeholders of http.get's header
// values name, and the host patterns each may go to. Every one must list
// host among its `http.get:` destinations (matched as http.allow
// patterns); otherwise the call is refused, before any connection.
func headerSecrets(c *runtime.Call, tc *Config, host string) (names []string, sets [][]string, err error) {
	hs := c.Args.GetOrNull("headers").AsRecord()
	if hs == nil {
		return nil, nil, nil
	}
	for i := range hs.Keys() {
		for _, n := range proc.Placeholders(hs.At(i).AsString()) {
			if !containsStr(names, n) {
				names = append(names, n)
			}
		}
	}
	if names == nil {
		return nil, nil, nil
	}
	st := secretsFor(c, tc)
	dest := policy.DestHTTP + host
	for _, n := range names {
		sc := st.find(n)
		if sc == nil {
			return nil, nil, secretDenied(c, "http.get", n, dest, "no secret named "+n+" in the policy's secrets; define it there, with \"to\": [\""+dest+"\"]")
		}
		hosts := sc.Destinations(policy.DestHTTP)
		if !anyHost(hosts, host) {
			return nil, nil, secretDenied(c, "http.get", n, dest, "secret "+n+" may not go to host "+host+": its \"to\" does not list it; add \""+dest+"\" to secrets."+n+".to in the policy to allow it")
		}
		sets = append(sets, hosts)
	}
	return names, sets, nil
}

// secretHeaders replaces the placeholders of http.get's header values in
// req once headerSecrets has allowed them, reading the values, and
// returns req with a context carrying the destination sets (a redirect
// elsewhere is refused).
func secretHeaders(c *runtime.Call, tc *Config, req *http.Request, names []string, sets [][]string) (*http.Request, error) {
	if names == nil {
		return req, nil
	}
	st := secretsFor(c, tc)
	vals := map[string]string{}
	for _, n := range names {
		v, err := st.value(n)
		if err != nil {
			d := value.NewRecord(1)
			d.Set("secret", value.Str(n))
			return nil, &runtime.ToolError{Msg: "secret " + n + " cannot be read: " + err.Error(), Reason: "secret_unavailable", Extra: d}
		}
		vals[n] = v
	}
	hs := c.Args.GetOrNull("headers").AsRecord()
	for i, k := range hs.Keys() {
		if v := hs.At(i).AsString(); proc.Placeholders(v) != nil {
			req.Header.Set(k, proc.ReplacePlaceholders(v, vals))
		}
	}
	return req.WithContext(context.WithValue(req.Context(), secretHostsKey{}, sets)), nil
}

// secretRedirectAllowed reports whether a redirect to host keeps every
// secret of the original request's headers within its destinations.
func secretRedirectAllowed(req *http.Request, host string) error {
	sets, _ := req.Context().Value(secretHostsKey{}).([][]string)
	for _, hosts := range sets {
		if !anyHost(hosts, host) {
			return &refusal{"secret_not_allowed", host, "a redirect to host " + host + " would carry a secret to a host its \"to\" does not list"}
		}
	}
	return nil
}

func anyHost(patterns []string, host string) bool {
	for _, p := range patterns {
		if hostMatches(p, host) {
			return true
		}
	}
	return false
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// maskValue masks every string of v with m (nil m: v unchanged).
func maskValue(m *proc.Masker, v value.Value) value.Value {
	if m == nil {
		return v
	}
	return value.MapStrings(v, m.String, false)
}

// secretList returns the configured secrets (none for a tool built
// without a configuration).
func (c *Config) secretList() []*policy.Secret {
	if c == nil {
		return nil
	}
	return c.Secrets
}

// maskRead masks the policy secrets read so far in the run in a file's
// bytes (a job's /proc/PID/environ, a file a command wrote): fs.read never
// hands a secret's value to the program.
func maskRead(c *runtime.Call, tc *Config, b []byte) []byte {
	if tc.secretList() == nil {
		return b
	}
	m := secretsFor(c, tc).masker()
	if m == nil {
		return b
	}
	return []byte(m.String(string(b)))
}
