package policy

import (
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/lexer"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/proc"
)

// MCPServer is one server of the `mcp` section (spec/mcp.md §2): a local
// server started from Command, or a remote one reached at URL.
type MCPServer struct {
	// Name is the server's key, the namespace of its A0 tools.
	Name string
	// Command is the argv of a local server (nil for a remote one).
	Command []string
	// Env holds the variables added to the server's environment, in file
	// order (pairs of name and value).
	Env [][2]string
	// Cwd is the working directory as written ("" when absent).
	Cwd string
	// Tools is the allowlist of the server's tool names (as the server
	// spells them); nil allows every tool the server lists.
	Tools []string
	// TimeoutMs bounds one call (0: only the run's time budget).
	TimeoutMs int64
	// URL is the streamable-HTTP endpoint of a remote server ("" for a
	// local one).
	URL string
	// EnvAllow lists the names (case-insensitive globs, as exec.envAllow)
	// of a0's environment variables passed through to a local server, on
	// top of its minimal base environment; nil when absent.
	EnvAllow []string
	// Sandbox is the server's own `sandbox` object as written (nil when
	// absent: exec.sandbox applies, if any).
	Sandbox *Sandbox
	// SandboxConfig is the exec engine's sandbox of Sandbox (absolute
	// roots after the policy's fs roots, defaults filled in), set by
	// [Resolved.MCPServers]; nil when the server has no `sandbox`.
	SandboxConfig *proc.Sandbox

	envOffs []int // byte offsets of the env values
}

// ReservedNamespaces are the tool namespaces of the built-in tools, which
// no MCP server may take.
var ReservedNamespaces = []string{"fs", "http", "sh"}

var mcpServerKeys = []string{"command", "env", "cwd", "tools", "timeoutMs", "url", "envAllow", "sandbox"}

// IsIdentifier reports whether s is an A0 identifier that is not a keyword.
func IsIdentifier(s string) bool {
	if s == "" || lexer.Keywords[s] {
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

// ToolName returns the A0 name of a server's tool: server + "." + the tool
// name with every character that cannot appear in an identifier replaced
// by '_' (a leading digit or a keyword gets a '_' prefix).
func ToolName(server, tool string) string {
	b := []byte(tool)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	s := string(b)
	if s == "" || s[0] >= '0' && s[0] <= '9' || lexer.Keywords[s] {
		s = "_" + s
	}
	return server + "." + s
}

func (d *decoder) mcp(n *jnode) []*MCPServer {
	if n.kind != jObj {
		d.wrongType("mcp", n, "an object whose keys are server names")
		return nil
	}
	out := []*MCPServer{}
	for _, m := range n.keys {
		k := "mcp." + m.name
		switch {
		case !IsIdentifier(m.name):
			d.fail(k, m.off, "is not a valid server name: it must be an A0 identifier (letters, digits and '_', not starting with a digit, not a keyword)")
		case slices.Contains(ReservedNamespaces, m.name):
			d.fail(k, m.off, "is a built-in tool namespace ("+strings.Join(ReservedNamespaces, ", ")+"); give the server another name")
		default:
			out = append(out, d.mcpServer(k, m.name, m.val))
		}
		if d.err != nil {
			return nil
		}
	}
	return out
}

func (d *decoder) mcpServer(key, name string, n *jnode) *MCPServer {
	if n.kind != jObj {
		d.wrongType(key, n, "an object")
		return nil
	}
	s := &MCPServer{Name: name}
	var cmdOff, urlOff = -1, -1
	for _, m := range n.keys {
		k := key + "." + m.name
		v := m.val
		switch m.name {
		case "command":
			cmdOff = m.off
			s.Command = d.stringList(k, v, func(a string) string {
				if a == "" {
					return "must not be empty"
				}
				if strings.ContainsRune(a, 0) {
					return "must not contain a NUL character"
				}
				return ""
			})
			if d.err == nil && len(s.Command) == 0 {
				d.fail(k, v.off, "must not be empty: give the program and its arguments, e.g. [\"node\", \"server.js\"]")
			}
		case "env":
			s.Env = d.mcpEnv(k, v)
			for _, em := range v.keys {
				s.envOffs = append(s.envOffs, em.val.off)
			}
		case "envAllow":
			s.EnvAllow = d.stringList(k, v, func(g string) string {
				if g == "" {
					return "must not be empty"
				}
				if strings.ContainsAny(g, "=\x00") {
					return "is not an environment variable name or glob (no '=' or NUL)"
				}
				return ""
			})
		case "sandbox":
			s.Sandbox = d.sandboxAt(k, v)
		case "cwd":
			s.Cwd = d.nonEmptyString(k, v)
		case "tools":
			seen := map[string]bool{}
			s.Tools = d.stringList(k, v, func(t string) string {
				if t == "" {
					return "must not be empty"
				}
				a := ToolName(name, t)
				if seen[a] {
					return "names the A0 tool " + diagQuote(a) + " that another entry already names"
				}
				seen[a] = true
				return ""
			})
		case "timeoutMs":
			s.TimeoutMs = d.integer(k, v, 1, dayMs)
		case "url":
			urlOff = m.off
			s.URL = d.nonEmptyString(k, v)
			if d.err == nil {
				if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					d.fail(k, v.off, "must be an http:// or https:// URL with a host, found "+diagQuote(s.URL))
				}
			}
		default:
			d.unknownKey(key, m, mcpServerKeys)
		}
		if d.err != nil {
			return nil
		}
	}
	switch {
	case cmdOff < 0 && urlOff < 0:
		d.fail(key, n.off, "needs \"command\" (the argv of a local server) or \"url\" (a streamable-HTTP server)")
	case cmdOff >= 0 && urlOff >= 0:
		d.fail(key+".url", urlOff, "cannot be given with \"command\": a server is either local or remote")
	case urlOff >= 0 && (s.Env != nil || s.Cwd != "" || s.EnvAllow != nil || s.Sandbox != nil):
		d.fail(key, n.off, "\"env\", \"envAllow\", \"cwd\" and \"sandbox\" apply to local servers only (those with \"command\")")
	}
	return s
}

func (d *decoder) mcpEnv(key string, n *jnode) [][2]string {
	if n.kind != jObj {
		d.wrongType(key, n, "an object of strings")
		return nil
	}
	out := [][2]string{}
	for _, m := range n.keys {
		k := key + "." + m.name
		if m.name == "" || strings.ContainsAny(m.name, "=\x00") {
			d.fail(k, m.off, "is not a valid environment variable name")
			return nil
		}
		if m.val.kind != jStr {
			d.wrongType(k, m.val, "a string")
			return nil
		}
		if strings.ContainsRune(m.val.s, 0) {
			d.fail(k, m.val.off, "must not contain a NUL character")
			return nil
		}
		out = append(out, [2]string{m.name, m.val.s})
	}
	return out
}

// MCPServers returns the servers of the `mcp` section in file order, with
// Cwd made absolute against the policy file's directory (which is also
// the default) and, for a server with its own `sandbox`, its effective
// SandboxConfig (roots made absolute the same way, after the policy's fs
// roots, as for exec.sandbox; none under --unsafe-allow-all, like
// exec.sandbox). It is nil without a section.
func (r *Resolved) MCPServers() []*MCPServer {
	if r == nil || r.Policy == nil || r.Policy.MCP == nil {
		return nil
	}
	base := filepath.Dir(r.Path)
	out := make([]*MCPServer, len(r.Policy.MCP))
	for i, s := range r.Policy.MCP {
		c := *s
		if c.URL == "" {
			c.Cwd = absUnder(base, c.Cwd)
		}
		c.SandboxConfig = nil
		if c.Sandbox != nil && !r.allowAll {
			fsRead, fsWrite := r.FSRoots()
			c.SandboxConfig = c.Sandbox.config(base, fsRead, fsWrite)
		}
		out[i] = &c
	}
	return out
}

// mcpServerOf returns the configured server whose tools id names
// ("notes" for "notes.search"), or nil.
func (r *Resolved) mcpServerOf(id string) *MCPServer {
	if r.Policy == nil {
		return nil
	}
	srv, _, ok := strings.Cut(id, ".")
	if !ok {
		return nil
	}
	for _, s := range r.Policy.MCP {
		if s.Name == srv {
			return s
		}
	}
	return nil
}

// listed reports whether id is in list, directly or through a "server.*"
// entry naming the configured MCP server id belongs to.
func (r *Resolved) listed(list []string, id string) bool {
	if slices.Contains(list, id) {
		return true
	}
	s := r.mcpServerOf(id)
	return s != nil && slices.Contains(list, s.Name+".*")
}

// writeMCPText renders the `mcp` section for `a0 policy`: each server with
// its command or URL, working directory, the names (never the values) of
// its env variables, its tools allowlist and its timeout.
func writeMCPText(b *strings.Builder, r *Resolved) {
	servers := r.MCPServers()
	if servers == nil {
		return
	}
	b.WriteString("  MCP servers:\n")
	for _, s := range servers {
		b.WriteString("    " + s.Name + ":\n")
		line := func(label, val string) {
			b.WriteString("      " + label + strings.Repeat(" ", max(1, 11-len(label))) + val + "\n")
		}
		if s.URL != "" {
			line("url:", s.URL)
		} else {
			line("command:", value.JSON(value.StrList(s.Command)))
			line("cwd:", s.Cwd)
			names := make([]string, len(s.Env))
			for i, kv := range s.Env {
				names[i] = kv[0]
			}
			line("env:", textList(names))
			if s.EnvAllow != nil {
				line("envAllow:", textList(s.EnvAllow))
			}
			if sb := s.SandboxConfig; sb != nil {
				read, write := s.Sandbox.roots(filepath.Dir(r.Path))
				line("sandbox:", "read "+textList(read)+"; write "+textList(write)+"; network "+sandboxNetwork(sb))
			}
		}
		tools := "(every tool the server lists)"
		if s.Tools != nil {
			tools = textList(s.Tools)
		}
		line("tools:", tools)
		timeout := "(none: the run's time budget only)"
		if s.TimeoutMs > 0 {
			timeout = strconv.FormatInt(s.TimeoutMs, 10)
		}
		line("timeoutMs:", timeout)
	}
}

// mcpValue is the `mcp` member of `a0 policy --json` (env values are not
// shown, only their names).
func mcpValue(r *Resolved) value.Value {
	out := value.NewRecord(len(r.Policy.MCP))
	for _, s := range r.MCPServers() {
		x := value.NewRecord(6)
		if s.URL != "" {
			x.Set("url", value.Str(s.URL))
		} else {
			x.Set("command", value.StrList(s.Command))
			x.Set("cwd", value.Str(s.Cwd))
			names := make([]string, len(s.Env))
			for i, kv := range s.Env {
				names[i] = kv[0]
			}
			x.Set("env", value.StrList(names))
			if s.EnvAllow != nil {
				x.Set("envAllow", value.StrList(s.EnvAllow))
			}
			if sb := s.SandboxConfig; sb != nil {
				read, write := s.Sandbox.roots(filepath.Dir(r.Path))
				y := value.NewRecord(3)
				y.Set("read", value.StrList(read))
				y.Set("write", value.StrList(write))
				y.Set("network", value.Str(sandboxNetwork(sb)))
				x.Set("sandbox", value.RecordOf(y))
			}
		}
		x.Set("tools", nullableList(s.Tools))
		x.Set("timeoutMs", value.Num(float64(s.TimeoutMs)))
		out.Set(s.Name, value.RecordOf(x))
	}
	return value.RecordOf(out)
}
