package policy

import (
	"slices"
	"strconv"
	"strings"

	"github.com/a0lang/a0/lang/diag"
)

// EntryWarnings returns a warning for every `allow` and `deny` entry that
// names nothing this a0 knows: not a built-in capability (KnownCaps) and
// not a tool or "server.*" of an MCP server the policy configures. Such an
// entry grants (or refuses) nothing; most often it is a typo, and the
// warning then names the closest known id ("did you mean"). `a0 policy`
// prints them (spec/cli.md §5.4). A host that adds tools with
// capabilities of its own passes them to EntryWarningsWith.
func (r *Resolved) EntryWarnings() []string {
	return r.EntryWarningsWith()
}

// EntryWarningsWith is EntryWarnings for a host whose tools add the
// capabilities hostCaps (the Capability of each tool it registers, such
// as "kv"): entries naming them are not warned about, and a misspelt
// entry may be told to mean one of them ("kvv": did you mean "kv"?).
func (r *Resolved) EntryWarningsWith(hostCaps ...string) []string {
	if r == nil || r.Policy == nil {
		return nil
	}
	caps := slices.Clone(KnownCaps)
	for _, c := range hostCaps {
		if !slices.Contains(caps, c) {
			caps = append(caps, c)
		}
	}
	known := slices.Clone(caps)
	for _, s := range r.Policy.MCP {
		known = append(known, s.Name+".*")
	}
	var out []string
	check := func(list []string, key string) {
		seen := map[string]bool{}
		for _, e := range sorted(list) {
			if seen[e] || !r.NamesNothing(e, caps...) {
				continue
			}
			seen[e] = true
			w := key + " entry " + strconv.Quote(e) + " names no capability of a0 and no tool of a configured MCP server, so it " + verbOf(key) + " nothing"
			if s := SuggestEntry(e, known); len(s) > 0 {
				q := make([]string, len(s))
				for i, x := range s {
					q[i] = strconv.Quote(x)
				}
				w += "; did you mean " + strings.Join(q, " and ") + "?"
			} else {
				w += " (the capabilities: " + textList(caps) + ")"
			}
			out = append(out, w)
		}
	}
	check(r.Policy.Allow, "allow")
	check(r.Policy.Deny, "deny")
	return out
}

// NamesNothing reports whether allow or deny entry e grants or refuses
// nothing: it is none of the capabilities caps (KnownCaps when none are
// given), and not a tool or "server.*" of an MCP server the policy
// configures.
func (r *Resolved) NamesNothing(e string, caps ...string) bool {
	if len(caps) == 0 {
		caps = KnownCaps
	}
	return !slices.Contains(caps, e) && r.mcpServerOf(e) == nil
}

func verbOf(key string) string {
	if key == "allow" {
		return "grants"
	}
	return "refuses"
}

// entryAliases are the words of other tools' permission lists for a0's
// capabilities.
var entryAliases = map[string][]string{
	"shell": {"sh.exec"}, "sh": {"sh.exec"}, "exec": {"sh.exec"}, "bash": {"sh.exec"}, "run": {"sh.exec"}, "command": {"sh.exec"},
	"http": {"http.get"}, "net": {"http.get"}, "network": {"http.get"}, "web": {"http.get"}, "fetch": {"http.get"}, "internet": {"http.get"},
	"read": {"fs.read"}, "write": {"fs.write"}, "file": {"fs.read", "fs.write"}, "files": {"fs.read", "fs.write"}, "fs": {"fs.read", "fs.write"},
}

// SuggestEntry is what an allow or deny entry that names nothing most
// likely meant: a close spelling, the same id in other case (FS.READ),
// the capabilities of a namespace written alone or as a wildcard (fs,
// fs.*: the built-in ones have no wildcard), another tool's word for one
// (shell). Nil when nothing is close.
func SuggestEntry(e string, known []string) []string {
	if s := diag.Suggest(e, known); s != "" {
		return []string{s}
	}
	for _, k := range known {
		if strings.EqualFold(k, e) {
			return []string{k}
		}
	}
	ns := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(e), ".*"), "*")
	var in []string
	for _, k := range KnownCaps {
		if strings.HasPrefix(k, ns+".") {
			in = append(in, k)
		}
	}
	if len(in) > 0 {
		return in
	}
	return entryAliases[strings.ToLower(e)]
}
