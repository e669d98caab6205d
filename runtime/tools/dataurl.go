package tools

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/a0lang/a0/lang/value"
)

// base64Suffix is the fetch standard's test for a base64 data: URL: the
// media type ends in ";", any spaces, then "base64" in any case. It
// returns where the ";" is, or -1. (A plain scan: a regular expression
// compiled at package init would cost every a0 command its start-up.)
func base64Suffix(mime string) int {
	n := len(mime)
	if n < len(";base64") || !strings.EqualFold(mime[n-6:], "base64") {
		return -1
	}
	j := n - 6
	for j > 0 && mime[j-1] == ' ' {
		j--
	}
	if j > 0 && mime[j-1] == ';' {
		return j - 1
	}
	return -1
}

// dataURL answers a data: URL as fetch's data URL processor does, without
// any network access: raw is "data:" and what follows. The fragment is
// dropped, the body percent-decoded (and decoded as forgiving base64
// when the media type ends in ";base64"), the media type parsed and
// written out again; a media type that does not parse becomes
// text/plain;charset=US-ASCII. No comma, or bad base64, fails the fetch.
func dataURL(raw string) (value.Value, error) {
	rest := raw[len("data:"):]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	comma := strings.IndexByte(rest, ',')
	if comma < 0 {
		return value.Value{}, errFetch
	}
	mime := strings.Trim(rest[:comma], "\t\n\f\r ")
	body := []byte(percentDecode(rest[comma+1:]))
	if at := base64Suffix(mime); at >= 0 {
		b, ok := forgivingBase64(string(body))
		if !ok {
			return value.Value{}, errFetch
		}
		body = b
		mime = mime[:at]
	}
	if strings.HasPrefix(mime, ";") {
		mime = "text/plain" + mime
	}
	ct, ok := parseMIME(mime)
	if !ok {
		ct = "text/plain;charset=US-ASCII"
	}
	h := http.Header{}
	h.Set("content-type", ct)
	return response(200, h, body), nil
}

// forgivingBase64 is the HTML standard's forgiving-base64 decode: ASCII
// whitespace is ignored, padding is optional, stray bits are dropped.
func forgivingBase64(s string) ([]byte, bool) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
			return -1
		}
		return r
	}, s)
	if len(s)%4 == 0 {
		s = strings.TrimSuffix(s, "=")
		s = strings.TrimSuffix(s, "=")
	}
	if len(s)%4 == 1 || strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") != "" {
		return nil, false
	}
	// Go's decoder, not strict, drops the spare low bits as the
	// standard does.
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	return b, true
}

func isTokenByte(c byte) bool {
	return c > 0x20 && c < 0x7f && strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) < 0
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// parseMIME parses a MIME type as the MIME Sniffing standard does and
// returns it serialized: type and subtype in lower case, parameter names
// in lower case, the first of each name kept, values quoted when they are
// not tokens.
func parseMIME(s string) (string, bool) {
	const ws = "\t\n\r "
	s = strings.Trim(s, ws)
	slash := strings.IndexByte(s, '/')
	if slash < 0 || !isToken(s[:slash]) {
		return "", false
	}
	typ := strings.ToLower(s[:slash])
	s = s[slash+1:]
	semi := strings.IndexByte(s, ';')
	if semi < 0 {
		semi = len(s)
	}
	sub := strings.TrimRight(s[:semi], ws)
	if !isToken(sub) {
		return "", false
	}
	out := typ + "/" + strings.ToLower(sub)
	s = s[semi:]
	seen := map[string]bool{}
	for len(s) > 0 {
		s = strings.TrimLeft(s[1:], ws) // the ";"
		end := strings.IndexAny(s, ";=")
		if end < 0 {
			end = len(s)
		}
		name := strings.ToLower(s[:end])
		s = s[end:]
		if len(s) == 0 {
			break
		}
		if s[0] == ';' {
			continue
		}
		s = s[1:] // the "="
		var val string
		if strings.HasPrefix(s, `"`) {
			val, s = quotedString(s)
			if i := strings.IndexByte(s, ';'); i >= 0 {
				s = s[i:]
			} else {
				s = ""
			}
		} else {
			i := strings.IndexByte(s, ';')
			if i < 0 {
				i = len(s)
			}
			val, s = strings.TrimRight(s[:i], ws), s[i:]
			if val == "" {
				continue
			}
		}
		if isToken(name) && validParamValue(val) && !seen[name] {
			seen[name] = true
			out += ";" + name + "=" + serializeParamValue(val)
		}
	}
	return out, true
}

// quotedString collects an HTTP quoted string at the start of s (which
// starts with a double quote) with its value extracted, and the rest.
func quotedString(s string) (string, string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		if c == '\\' {
			if i+1 >= len(s) {
				b.WriteByte('\\')
				i++
				break
			}
			b.WriteByte(s[i+1])
			i += 2
			continue
		}
		if c == '"' {
			i++
			break
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), s[i:]
}

func validParamValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '\t' && (c < 0x20 || c == 0x7f) {
			return false
		}
	}
	return true
}

func serializeParamValue(v string) string {
	if isToken(v) {
		return v
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}
