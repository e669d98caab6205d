package mcptool

import (
	"errors"
	"strings"
	"sync"

	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
)

// SecretReader reads the policy's secrets for local servers: a
// placeholder "${secret:NAME}" in a server's Env value stands for the
// value of secret NAME (the policy has checked that the secret lists
// "mcp:SERVER"). Each value is read once, at the first server start that
// needs it, and kept by the reader. Its methods are safe for concurrent
// use.
type SecretReader struct {
	mu      sync.Mutex
	secrets []*policy.Secret
	vals    map[string]string
	errs    map[string]error
}

// NewSecretReader returns a reader of the given secrets (nil when there
// are none).
func NewSecretReader(secrets []*policy.Secret) *SecretReader {
	if len(secrets) == 0 {
		return nil
	}
	return &SecretReader{secrets: secrets, vals: map[string]string{}, errs: map[string]error{}}
}

// value returns secret name's value, reading it on first use.
func (r *SecretReader) value(name string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.vals[name]; ok {
		return v, nil
	}
	if err, ok := r.errs[name]; ok {
		return "", err
	}
	for _, s := range r.secrets {
		if s.Name == name {
			v, err := s.Read()
			if err != nil {
				r.errs[name] = err
				return "", err
			}
			r.vals[name] = v
			return v, nil
		}
	}
	return "", errors.New("no such secret")
}

// sources returns the variables secrets are read from, which no server
// inherits.
func (r *SecretReader) sources() []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, s := range r.secrets {
		if s.Env != "" {
			out = append(out, s.Env)
		}
	}
	return out
}

// withoutVars drops the variables names lists from an environment.
func withoutVars(env []string, names []string) []string {
	if len(names) == 0 {
		return env
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			if k == n {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

// fillSecrets replaces the placeholders of the server's own env values
// (own) in env, the server's built environment, and returns the secrets
// used (for masking). Without a reader, placeholders stay text.
func (r *SecretReader) fillSecrets(env [][2]string, own [][2]string) ([]proc.Secret, error) {
	if r == nil {
		return nil, nil
	}
	var used []proc.Secret
	vals := map[string]string{}
	for _, kv := range own {
		for _, n := range proc.Placeholders(kv[1]) {
			if _, ok := vals[n]; ok {
				continue
			}
			v, err := r.value(n)
			if err != nil {
				return nil, errors.New("secret " + n + " of env." + kv[0] + " cannot be read: " + err.Error())
			}
			vals[n] = v
			used = append(used, proc.Secret{Name: n, Value: v})
		}
	}
	if len(vals) == 0 {
		return nil, nil
	}
	for i := range env {
		for _, kv := range own {
			if env[i][0] == kv[0] {
				env[i][1] = proc.ReplacePlaceholders(env[i][1], vals)
			}
		}
	}
	return used, nil
}
