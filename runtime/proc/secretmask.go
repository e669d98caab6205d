package proc

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
)

// MinEncodedLen is the shortest encoded form of a policy secret that is
// masked: an encoding shorter than this is too likely to occur by chance.
// The value itself is masked whatever its length.
const MinEncodedLen = 8

// SecretForms returns the byte strings that stand for a policy secret's
// value v in output (spec/security.md, "Secrets"): v itself, then, when
// at least MinEncodedLen bytes long and different from v, its JSON string
// escaping (with and without HTML escapes), its URL encodings (query and
// path escaping), and its base64 forms: for each of the three alignments
// of v in a longer base64 text, the characters that depend on v's bytes
// only, in the standard and the URL alphabet.
func SecretForms(v string) []string {
	if v == "" {
		return nil
	}
	out := []string{v}
	add := func(s string) {
		if len(s) < MinEncodedLen || s == v {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	if j, err := json.Marshal(v); err == nil {
		add(string(j[1 : len(j)-1]))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) == nil {
		j := bytes.TrimRight(buf.Bytes(), "\n")
		add(string(j[1 : len(j)-1]))
	}
	add(url.QueryEscape(v))
	add(url.PathEscape(v))
	for _, alpha := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		add(alpha.EncodeToString([]byte(v)))
		for k := 0; k < 3; k++ {
			in := append(make([]byte, k), v...)
			s := alpha.EncodeToString(in)
			// Characters wholly inside v's bits: from ceil(8k/6) to
			// floor(8(k+n)/6).
			lo, hi := (8*k+5)/6, 8*(k+len(v))/6
			if hi > len(s) {
				hi = len(s)
			}
			if lo < hi {
				add(s[lo:hi])
			}
		}
	}
	return out
}

// WithSecrets returns a masker that masks what m masks and every form of
// the given policy secrets ([SecretForms]) as "[masked:NAME]"; a policy
// secret's name wins over an env name for the same bytes. m may be nil.
func (m *Masker) WithSecrets(secrets []Secret) *Masker {
	if len(secrets) == 0 {
		return m
	}
	byVal := map[string]string{}
	if m != nil {
		for i, v := range m.vals {
			byVal[string(v)] = string(m.repls[i])
		}
	}
	forced := map[string]bool{}
	for _, s := range secrets {
		for _, f := range SecretForms(s.Value) {
			r := "[masked:" + s.Name + "]"
			if old, ok := byVal[f]; ok && forced[f] && old < r {
				continue
			}
			byVal[f] = r
			forced[f] = true
		}
	}
	return maskerOf(byVal)
}
