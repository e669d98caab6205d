package tools

import (
	"errors"
	"net"
	"strconv"
	"strings"
)

// fetchURL is what a fetch makes of a URL string before any request: the
// rules of the WHATWG URL standard that decide whether the string parses,
// whether it carries credentials and which host and port a request goes
// to (spec/tools.md, "http.get"). Only the parts http.get needs are kept.
type fetchURL struct {
	scheme string // lower case, without the colon
	// opaque is the text after "scheme:" of a scheme that is not
	// special (data:, about:, mailto:, …): such a URL always parses.
	opaque string
	// The rest is set for http, https, ws, wss and ftp only.
	userinfo bool   // an "@" ends an authority part (even "@host")
	creds    bool   // a non-empty user name or password
	host     string // serialized: lower case, IPv4 dotted, IPv6 bracketed
	port     string // "" when absent or the scheme's default
	rest     string // path and query, starting with "/"; no fragment
}

var errURLParse = errors.New("URL does not parse")

// specialPorts are the WHATWG special schemes (but file) with their
// default ports.
var specialPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}

// parseFetchURL parses raw as the WHATWG URL parser does without a base:
// leading and trailing C0 controls and spaces are dropped and tabs and
// newlines removed; a special scheme needs a host, takes any number of
// slashes or backslashes before it, a port of digits up to 65535, and a
// host without forbidden code points (a host that ends in a number must
// be a valid IPv4 address in any of its forms: 127.1, 0x7f.1). It
// returns errURLParse where Node's fetch says "Failed to parse URL".
func parseFetchURL(raw string) (fetchURL, error) {
	s := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || !validScheme(s[:colon]) {
		return fetchURL{}, errURLParse
	}
	u := fetchURL{scheme: strings.ToLower(s[:colon])}
	after := s[colon+1:]
	defPort, special := specialPorts[u.scheme]
	if !special {
		u.opaque = after
		return u, nil
	}
	after = strings.TrimLeft(after, `/\`)
	end := strings.IndexAny(after, `/\?#`)
	if end < 0 {
		end = len(after)
	}
	auth, rest := after[:end], after[end:]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		u.userinfo = true
		name, pass, _ := strings.Cut(auth[:at], ":")
		u.creds = name != "" || pass != ""
		auth = auth[at+1:]
	}
	host, port := auth, ""
	if strings.HasPrefix(auth, "[") {
		rb := strings.IndexByte(auth, ']')
		if rb < 0 {
			return fetchURL{}, errURLParse
		}
		host = auth[:rb+1]
		if tail := auth[rb+1:]; tail != "" {
			if tail[0] != ':' {
				return fetchURL{}, errURLParse
			}
			port = tail[1:]
		}
	} else if i := strings.IndexByte(auth, ':'); i >= 0 {
		host, port = auth[:i], auth[i+1:]
	}
	if host == "" {
		return fetchURL{}, errURLParse
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || strings.TrimLeft(port, "0123456789") != "" || n > 65535 {
			return fetchURL{}, errURLParse
		}
		if port = strconv.Itoa(n); port == defPort {
			port = ""
		}
	}
	h, ok := parseURLHost(host)
	if !ok {
		return fetchURL{}, errURLParse
	}
	u.host, u.port = h, port
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	path, query, hasQuery := strings.Cut(rest, "?")
	path = strings.ReplaceAll(path, `\`, "/")
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	u.rest = escapeURLPart(path, "\"<>`")
	if hasQuery {
		u.rest += "?" + escapeURLPart(query, "\"<>'")
	}
	return u, nil
}

func validScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		alpha := c|0x20 >= 'a' && c|0x20 <= 'z'
		if !alpha && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// escapeURLPart percent-encodes the C0 controls, space, DEL and extra,
// as the URL standard's percent-encode sets do for paths and queries.
func escapeURLPart(s, extra string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c == 0x7f || strings.IndexByte(extra, c) >= 0 {
			b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)|0x100, 16)[1:]))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// parseURLHost is the URL standard's host parser for special schemes
// (bracketed IPv6, percent-decoding, forbidden code points, IPv4 forms).
func parseURLHost(h string) (string, bool) {
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", false
		}
		inner := h[1 : len(h)-1]
		if net.ParseIP(inner) == nil || !strings.Contains(inner, ":") {
			return "", false
		}
		// The text, not net.IP's form, which writes ::ffff:a.b.c.d as IPv4.
		return "[" + strings.ToLower(inner) + "]", true
	}
	d := domainToASCII(percentDecode(h))
	for i := 0; i < len(d); i++ {
		if c := d[i]; c <= 0x20 || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return "", false
		}
	}
	if !endsInNumber(d) {
		return d, true
	}
	return parseIPv4(d)
}

func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(n))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func ipv4Parts(h string) []string {
	parts := strings.Split(h, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

func endsInNumber(h string) bool {
	parts := ipv4Parts(h)
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	if strings.HasPrefix(last, "0x") {
		return strings.Trim(last[2:], "0123456789abcdef") == ""
	}
	return false
}

// parseIPv4 reads 127.1, 0x7f.0.0.1, 017700000001 and the like as the URL
// standard does; a host that ends in a number and is none of them fails.
func parseIPv4(h string) (string, bool) {
	parts := ipv4Parts(h)
	if len(parts) > 4 {
		return "", false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case p == "":
			return "", false
		case strings.HasPrefix(p, "0x"):
			p, base = p[2:], 16
		case len(p) > 1 && p[0] == '0':
			p, base = p[1:], 8
		}
		if p == "" {
			continue
		}
		n, err := strconv.ParseUint(p, base, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return "", false
		}
		if err != nil {
			n = 1 << 40
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return "", false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)).String(), true
}

// hostPort is the host with its port when the port is not the default.
func (u fetchURL) hostPort() string {
	if u.port != "" {
		return u.host + ":" + u.port
	}
	return u.host
}

// target is the URL a request is made to: no credentials, no fragment.
func (u fetchURL) target() string {
	return u.scheme + "://" + u.hostPort() + u.rest
}

// masked is the URL with its user info, if any, shown as [masked].
func (u fetchURL) masked() string {
	if !u.userinfo {
		return u.target()
	}
	t := u.scheme + "://[masked]@" + u.host
	if u.port != "" {
		t += ":" + u.port
	}
	return t + u.rest
}

// maskUserinfo hides the user info of a URL written as text, whether or
// not it parses: in "<scheme>:" + slashes + authority, the part of the
// authority up to its last "@" becomes [masked]. A URL that fails to
// parse is repeated in the error, which reaches stderr and the trace.
func maskUserinfo(raw string) string {
	colon := strings.IndexByte(raw, ':')
	if colon < 0 {
		return raw
	}
	start := colon + 1
	for start < len(raw) && (raw[start] == '/' || raw[start] == '\\') {
		start++
	}
	end := strings.IndexAny(raw[start:], `/\?#`)
	if end < 0 {
		end = len(raw) - start
	}
	at := strings.LastIndexByte(raw[start:start+end], '@')
	if at <= 0 {
		return raw
	}
	return raw[:start] + "[masked]" + raw[start+at:]
}
