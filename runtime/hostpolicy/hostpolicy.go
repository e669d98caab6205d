// Package hostpolicy applies a resolved policy (runtime/policy) the way
// a0's own hosts do (the CLI and its MCP server): it builds the client
// manager of the MCP servers the policy names and the tools a program or
// a session gets from them, and writes the hints that say how to grant
// what the policy does not (a denied capability, an MCP server the policy
// grants nothing of).
package hostpolicy

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/termout"
	"github.com/a0lang/a0/runtime/tools"
)

// GrantHint is the hint of an E_CAP_DENIED that a capability the policy
// does not grant caused: the ways to grant it, with the exact allow line
// (every capability in need that is not granted). A denial with a reason
// (a path outside the fs roots, a refused command or host) already says
// which policy field to change and gets none. It replaces the runtime's
// generic hint (runtime.GrantHint), never a tool's own.
func GrantHint(e *runtime.Error, g runtime.Grants, need []string) string {
	if e == nil || e.Code != diag.ECapDenied {
		return ""
	}
	rec := e.Details.AsRecord()
	if rec == nil {
		return ""
	}
	if _, ok := rec.Get("reason"); ok {
		return ""
	}
	capv, _ := rec.Get("capability")
	capID := capv.AsString()
	if capID == "" || (e.Hint != "" && e.Hint != runtime.GrantHint(capID)) {
		return "" // no capability, or a hint of its own (not the runtime's generic one)
	}
	missing := []string{capID}
	for _, n := range need {
		if n != capID && (g == nil || !g.Allowed(n)) {
			missing = append(missing, n)
		}
	}
	allowLine := func(list []string) string {
		quoted := make([]string, len(list))
		for i, m := range list {
			quoted[i] = `"` + m + `"`
		}
		return `"allow": [` + strings.Join(quoted, ", ") + `]`
	}
	res, _ := g.(*policy.Resolved)
	var b strings.Builder
	switch {
	case res != nil && res.Denied(capID):
		b.WriteString("The policy " + res.Path + " denies '" + capID + "': remove it from \"deny\" there; or ")
	case res != nil && res.Path != "" && res.Policy != nil:
		// The whole new allow line: what the file allows, then what is
		// missing; an entry that names no capability but is near a
		// missing one (a typo, "sh.exce") is replaced rather than kept.
		list := append([]string(nil), res.Policy.Allow...)
		var typos []string
		for _, m := range missing {
			if slices.Contains(list, m) {
				continue
			}
			if i := typoFor(res, list, m); i >= 0 {
				typos = append(typos, "'"+list[i]+"' in its allow list names no capability (did you mean '"+m+"'?)")
				list[i] = m
				continue
			}
			list = append(list, m)
		}
		// A capability the file also denies needs its deny entry gone too:
		// deny wins over allow.
		undeny := ""
		var denied []string
		for _, m := range missing {
			if res.Denied(m) {
				denied = append(denied, "'"+m+"'")
			}
		}
		if len(denied) > 0 {
			undeny = ", and take " + strings.Join(denied, ", ") + " out of its \"deny\" list (deny wins over allow)"
		}
		if len(typos) > 0 {
			b.WriteString("The policy in effect, " + res.Path + ": " + strings.Join(typos, ", ") + ". Write " + allowLine(list) + undeny + "; or ")
		} else {
			b.WriteString("Add it to the policy in effect, " + res.Path + ": " + allowLine(list) + undeny + "; or ")
		}
	default:
		b.WriteString("No policy file grants it. Grant it with ./.a0policy.json (in the directory you run a0 from) containing {\"version\": 1, " + allowLine(missing) + "}; or ")
	}
	b.WriteString("name a policy file with --policy FILE; or, for development only, pass --unsafe-allow-all.")
	return b.String()
}

// typoFor returns the index in allow of an entry that grants nothing (not
// a built-in capability, not a tool or "server.*" of a configured MCP
// server) and is within a typo of capability want; -1 when there is none.
func typoFor(res *policy.Resolved, allow []string, want string) int {
	var dead []string
	var at []int
	for i, a := range allow {
		if !res.NamesNothing(a) {
			continue
		}
		dead, at = append(dead, a), append(at, i)
	}
	for j, d := range dead {
		if diag.Suggest(d, []string{want}) == want || slices.Contains(policy.SuggestEntry(d, policy.KnownCaps), want) {
			return at[j]
		}
	}
	return -1
}

// Denies reports whether the grants g are a policy whose "deny"
// lists capability c.
func Denies(g runtime.Grants, c string) bool {
	res, ok := g.(*policy.Resolved)
	return ok && res.Denied(c)
}

// ListTimeout bounds listing one server for a session and `a0 tools`.
const ListTimeout = 10 * time.Second

// NewMCPManager returns a manager for the MCP servers of the command's
// policy res (resolved once, by resolvePolicy: with --policy FILE the
// servers and their http and exec settings come from FILE only); it is nil
// when res is nil or has no servers. Nothing is started here: a server
// starts when a program calls one of its tools that the grants allow, or
// when a granted server must be listed (SessionMCPTools, a0 tools).
func NewMCPManager(res *policy.Resolved, wd, version string) *mcptool.Manager {
	if res == nil || len(res.MCPServers()) == 0 {
		return nil
	}
	allowAll := res.IsAllowAll()
	cfg := res.Exec()
	if wd != "" {
		cfg.WorkDir = wd
	}
	cfg.Version = version
	// Remote servers obey the http section; without one, private and
	// loopback addresses stay refused.
	scope := tools.HTTPScope{AllowPrivate: allowAll}
	if h := res.HTTPScope(); h != nil {
		scope = tools.HTTPScope{Allow: h.Allow, Deny: h.Deny, AllowPrivate: h.AllowPrivate}
	}
	cfgs := mcptool.FromPolicy(res.MCPServers(), cfg, scope.Client(), scope.CheckURL)
	secrets := mcptool.NewSecretReader(res.Secrets())
	for i := range cfgs {
		cfgs[i].Version = version
		cfgs[i].Secrets = secrets
	}
	m, err := mcptool.NewManager(cfgs...)
	if err != nil {
		return nil
	}
	m.SetSchemaCache(mcptool.NewSchemaCache(SchemaCacheDir(res)))
	return m
}

// ProgramMCPTools returns the MCP tools a program may call: the names it
// uses or declares that belong to a configured server, or every tool the
// schema cache holds of it (see mcptool.Manager.Tools). Nothing is
// started or listed: `a0 check` knows an MCP tool by its name, or by its
// schema cache entry (spec/mcp.md §8), and `a0 run` starts a server at
// the first call the grants allow.
func ProgramMCPTools(m *mcptool.Manager, file, src string) []runtime.Tool {
	p, ds := parser.Parse(file, src, parser.Options{})
	if len(ds) > 0 {
		return m.Tools(nil)
	}
	return m.Tools(append(check.UsedTools(p), check.DeclaredCaps(p)...))
}

// SessionMCPTools returns the MCP tools of a session (REPL, a0 mcp): the
// servers the policy grants a tool of (policy.Resolved.ServerGranted)
// and that have no tools allowlist are listed now, since inputs are not
// known in advance; those with one start at their first call the grants
// allow. A server the policy grants nothing of is never started.
func SessionMCPTools(m *mcptool.Manager, res *policy.Resolved) []runtime.Tool {
	var wg sync.WaitGroup
	for _, srv := range m.Servers() {
		if m.HasAllowlist(srv) || !res.ServerGranted(srv) {
			continue // starts at its first granted call, or never
		}
		wg.Add(1)
		go func() { // in parallel: one slow server does not delay the others
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), ListTimeout)
			defer cancel()
			_, _ = m.List(ctx, srv)
		}()
	}
	wg.Wait()
	return m.Tools(nil)
}

// PolicyBeforeStatic returns perr, the E_POLICY diagnostic of the
// command's policy, when the static diagnostics include an unknown
// capability or tool outside the built-in namespaces: such a name may
// belong to an MCP server of that policy's `mcp` section, so the policy is
// the problem to report. It returns nil otherwise (the static errors are
// reported as usual).
func PolicyBeforeStatic(ds diag.List, perr *diag.Diagnostic) *diag.Diagnostic {
	if perr == nil || perr.Code != diag.EPolicy {
		return nil
	}
	for _, d := range ds {
		if d.Code != diag.EUnknownCap && d.Code != diag.EUnknownTool {
			continue
		}
		name := d.Message[strings.IndexByte(d.Message, '\'')+1:]
		ns, _, _ := strings.Cut(name, ".")
		if !slices.Contains(policy.ReservedNamespaces, ns) {
			return perr
		}
	}
	return nil
}

// MCPNamespaceHints completes the hints of the unknown capabilities and
// tools in ds whose namespace is neither built in (fs, http, sh) nor an
// MCP server of the policy res (nil: none was resolved): such a name is
// most often the tool of a server that the policy in effect does not
// configure, because the command ran away from the folder of the policy
// that does. The hint then says where the servers are named. Codes,
// messages and spans are left as they are; a hint that already suggests
// a close name is left too.
func MCPNamespaceHints(ds diag.List, res *policy.Resolved) {
	for _, d := range ds {
		if d.Code != diag.EUnknownCap && d.Code != diag.EUnknownTool || strings.Contains(d.Hint, "Did you mean") {
			continue
		}
		i := strings.IndexByte(d.Message, '\'')
		name, _, _ := strings.Cut(d.Message[i+1:], "'")
		ns, _, dotted := strings.Cut(name, ".")
		if i < 0 || !dotted || slices.Contains(policy.ReservedNamespaces, ns) {
			continue
		}
		where := "no policy file is in effect here"
		if res != nil && res.Path != "" {
			where = "the policy in effect (" + res.Path + ") names no server '" + ns + "'"
			if res.Policy != nil {
				for _, srv := range res.Policy.MCP {
					if srv.Name == ns {
						where = ""
					}
				}
			}
		}
		if where == "" {
			continue
		}
		if d.Hint != "" && !strings.HasSuffix(d.Hint, ".") {
			d.Hint += "."
		}
		d.Hint = strings.TrimPrefix(d.Hint+" A tool of an MCP server '"+ns+"' needs that server in the policy's \"mcp\" section; "+where+
			": run from the folder of the .a0policy.json that names it, or pass --policy FILE.", " ")
	}
}

// ServerGrantHint says how to grant the tools of the MCP server srv that
// the policy res grants nothing of: the policy file's allow line with
// "srv.*" added (or the deny entry to remove).
func ServerGrantHint(res *policy.Resolved, srv string) string {
	star := srv + ".*"
	if res.Denied(star) {
		return "the policy " + res.Path + " denies \"" + star + "\": remove it from \"deny\" there to use the server"
	}
	list := []string{}
	if res.Policy != nil {
		list = append(list, res.Policy.Allow...)
	}
	list = append(list, star)
	q := make([]string, len(list))
	for i, a := range list {
		q[i] = diag.QuoteJSON(a)
	}
	where := "the policy"
	if res.Path != "" {
		where = res.Path
	}
	return "to use it, grant its tools in " + where + ": \"allow\": [" + strings.Join(q, ", ") + "] (or list only the tools you need, as \"" + srv + ".<tool>\")"
}

// HintUngrantedServers gives the unknown-tool and unknown-capability
// diagnostics of a session input (REPL, a0 mcp) whose name belongs to a
// configured MCP server the policy grants nothing of the reason: that
// server was not started, so its tools are not known; the hint names the
// allow line to add.
func HintUngrantedServers(ds diag.List, res *policy.Resolved) {
	if res == nil {
		return
	}
	for _, d := range ds {
		if d.Code != diag.EUnknownTool && d.Code != diag.EUnknownCap {
			continue
		}
		name := d.Message[strings.IndexByte(d.Message, '\'')+1:]
		srv, _, ok := strings.Cut(name, ".")
		if !ok || slices.Contains(policy.ReservedNamespaces, srv) || res.ServerGranted(srv) || !slices.ContainsFunc(res.MCPServers(), func(s *policy.MCPServer) bool { return s.Name == srv }) {
			continue
		}
		d.Hint = "The MCP server '" + srv + "' is not started: the policy grants none of its tools; " + ServerGrantHint(res, srv) + "."
	}
}

// ToolsReport is the listing of `a0 tools`: the tools of the MCP servers
// of m as compact A0 signatures (text: mcptool.Signature.Render), or as
// a JSON array (asJSON) with their names, modes, signatures and full
// input and output schemas. Each server the policy res grants a tool of is
// started and listed (ListTimeout); the others are shown as not started,
// with the allow entry that would grant them. Text a server provides
// (names, descriptions, errors) has its control characters escaped
// (termout). code is 4 (diag.ExitRuntime) when a server could not be
// listed, else 0.
func ToolsReport(m *mcptool.Manager, res *policy.Resolved, asJSON bool) (string, int) {
	var b strings.Builder
	var all []value.Value
	code := diag.ExitOK
	for _, srv := range m.Servers() {
		if !res.ServerGranted(srv) {
			reason := "not started: the policy grants none of its tools"
			hint := ServerGrantHint(res, srv)
			if asJSON {
				r := value.NewRecord(5)
				r.Set("server", value.Str(srv))
				r.Set("started", value.False)
				r.Set("reason", value.Str("not_granted"))
				r.Set("message", value.Str("the policy grants none of its tools"))
				r.Set("hint", value.Str(hint))
				all = append(all, value.RecordOf(r))
			} else {
				b.WriteString("server " + srv + ": " + reason + "\n    hint: " + hint + "\n\n")
			}
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), ListTimeout)
		infos, err := m.List(ctx, srv)
		cancel()
		if err != nil {
			code = diag.ExitRuntime
			if asJSON {
				r := value.NewRecord(2)
				r.Set("server", value.Str(srv))
				r.Set("error", value.Str(err.Error()))
				all = append(all, value.RecordOf(r))
			} else {
				b.WriteString("server " + srv + ": " + termout.Safe(err.Error(), false) + "\n\n")
			}
			continue
		}
		if !asJSON {
			b.WriteString("server " + srv + "\n")
		}
		for _, t := range infos {
			granted := res.Allowed(t.Name)
			if asJSON {
				r := value.NewRecord(8)
				r.Set("name", value.Str(t.Name))
				r.Set("server", value.Str(srv))
				r.Set("tool", value.Str(t.Remote))
				r.Set("mode", value.Str(t.Mode.String()))
				r.Set("allowed", value.BoolOf(granted))
				r.Set("description", value.Str(t.Description))
				schema := value.NullValue
				if len(t.Schema) > 0 {
					if v, err := value.ParseJSON(string(t.Schema)); err == nil {
						schema = v
					}
				}
				r.Set("inputSchema", schema)
				out := value.NullValue
				if len(t.OutputSchema) > 0 {
					if v, err := value.ParseJSON(string(t.OutputSchema)); err == nil {
						out = v
					}
				}
				r.Set("outputSchema", out)
				sig := mcptool.SignatureOf(t)
				r.Set("signature", value.Str(sig.Text))
				r.Set("result", value.Str(sig.Result))
				if args, err := value.ParseJSON(mcptool.MarshalJSON(sig.Args)); err == nil {
					r.Set("args", args)
				}
				if len(t.Collision) > 0 {
					r.Set("collision", value.Str(strings.Join(t.Collision, ", ")))
				}
				if t.NotCallable != "" {
					r.Set("notCallable", value.Str(t.NotCallable))
				}
				if t.Unavailable != "" {
					r.Set("unavailable", value.Str(t.Unavailable))
				}
				if t.Builtin != "" {
					r.Set("builtin", value.Str(t.Builtin))
				}
				all = append(all, value.RecordOf(r))
				continue
			}
			b.WriteString(renderSig(sigEntry{mcptool.SignatureOf(t), granted}))
		}
		if !asJSON {
			b.WriteString("\n")
		}
	}
	if asJSON {
		return termout.SafeJSON(value.JSONIndent(value.ListOf(all))) + "\n", code
	}
	return strings.TrimSuffix(b.String(), "\n"), code
}

// Resolve is the one policy resolution of every a0 command (run, check,
// repl, mcp, tools, policy).
// When file (--policy, relative to wd) is given it is the only policy, for
// every section: nothing is read from the working folder or the home
// directory. Otherwise it is wd/.a0policy.json, then home/.a0/policy.json,
// then the built-in default (policy.Load). Each file is read once through
// one descriptor (policy.LoadFile). allowAll applies --unsafe-allow-all to
// the result.
func Resolve(wd, home string, allowAll bool, file string) (*policy.Resolved, *diag.Diagnostic) {
	var res *policy.Resolved
	var err error
	if file != "" {
		res, err = policyFile(wd, file)
	} else {
		res, err = policy.Load(wd, home)
	}
	if err != nil {
		if d, ok := err.(*diag.Diagnostic); ok {
			return nil, d
		}
		if pe, ok := err.(*policy.Error); ok {
			return nil, pe.Diagnostic()
		}
		return nil, &diag.Diagnostic{Code: diag.EPolicy, Message: err.Error()}
	}
	if allowAll {
		res = res.AllowAll()
	}
	return res, nil
}

// SourceFlag is the Source of a policy given with --policy.
const SourceFlag = "flag"

// policyFile loads the policy named by --policy (relative to wd). A
// missing or invalid file is an E_POLICY error: a policy the user named is
// never silently replaced by another.
func policyFile(wd, file string) (*policy.Resolved, error) {
	path := file
	if !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	p, found, err := policy.LoadFile(path)
	if err != nil {
		return nil, err
	}
	if !found {
		hint := runtime.MissingFileHint(file, ".json")
		if !strings.HasPrefix(hint, "Did you mean") {
			hint += ` A policy file is JSON, for example {"version": 1, "allow": ["fs.read"]} (a0 help caps).`
		}
		return nil, &diag.Diagnostic{Code: diag.EPolicy, Message: "Policy file '" + file + "' (given with --policy) does not exist.", Hint: hint}
	}
	return (&policy.Resolved{Source: SourceFlag, Path: path, Policy: p}).CheckedReach()
}
