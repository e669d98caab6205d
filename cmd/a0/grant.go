package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mattn/go-isatty"

	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
)

// SourceFlag is the source of a policy given with --policy.
const sourceFlag = "flag"

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
		return nil, &diag.Diagnostic{Code: diag.EPolicy, Message: "Policy file '" + file + "' (given with --policy) does not exist."}
	}
	return (&policy.Resolved{Source: sourceFlag, Path: path, Policy: p}).CheckedReach()
}

// grantHint is the hint of an E_CAP_DENIED that a capability the policy
// does not grant caused: the ways to grant it, with the exact allow line
// (every capability in need that is not granted). A denial with a reason
// (a path outside the fs roots, a refused command or host) already says
// which policy field to change and gets none.
func grantHint(e *runtime.Error, g runtime.Grants, need []string) string {
	if e == nil || e.Code != diag.ECapDenied || e.Hint != "" {
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
	if capID == "" {
		return ""
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
		// The whole new allow line: what the file allows, then what is missing.
		list := append([]string(nil), res.Policy.Allow...)
		for _, m := range missing {
			if !contains(list, m) {
				list = append(list, m)
			}
		}
		b.WriteString("Add it to the policy in effect, " + res.Path + ": " + allowLine(list) + "; or ")
	default:
		b.WriteString("No policy file grants it. Grant it with ./.a0policy.json (in the directory you run a0 from) containing {\"version\": 1, " + allowLine(missing) + "}; or ")
	}
	b.WriteString("name a policy file with --policy FILE; or, for development only, pass --unsafe-allow-all.")
	return b.String()
}

// policyDenies reports whether the grants g are a policy whose "deny"
// lists capability c.
func policyDenies(g runtime.Grants, c string) bool {
	res, ok := g.(*policy.Resolved)
	return ok && res.Denied(c)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// promptGrants asks on a terminal about a capability the policy does not
// grant, the first time a run needs it (at start-up, for each declared
// capability): "y" grants it for this run, "a" grants it and every other
// capability the program declares, anything else refuses it. Answers are
// kept for the run. Only `a0 run` with a terminal on stdin and stderr uses
// it (never with `-`, whose stdin is the program).
type promptGrants struct {
	base    runtime.Grants
	file    string
	tools   map[string][]string // capability -> the program's tools that need it
	in      *bufio.Reader
	out     io.Writer
	answers map[string]bool
	all     bool
}

// Allowed implements runtime.Grants. A capability the policy lists under
// "deny" is refused without a question, also after an "a" answer: a
// prompt never grants what the policy denies.
func (g *promptGrants) Allowed(c string) bool {
	if g.base.Allowed(c) {
		return true
	}
	if policyDenies(g.base, c) {
		return false
	}
	if ok, asked := g.answers[c]; asked {
		return ok
	}
	if g.all {
		g.answers[c] = true
		return true
	}
	what := c
	if ts := g.tools[c]; len(ts) > 0 {
		what += " (" + strings.Join(ts, ", ") + ")"
	}
	io.WriteString(g.out, "a0: "+g.file+" needs "+what+", which the policy does not grant.\n  Allow for this run? [y]es, [N]o, [a]ll it declares: ")
	line, _ := g.in.ReadString('\n')
	ans := strings.ToLower(strings.TrimSpace(line))
	ok := ans == "y" || ans == "yes" || ans == "a" || ans == "all"
	g.all = ans == "a" || ans == "all"
	g.answers[c] = ok
	return ok
}

// isTerminal reports whether f is an *os.File on a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && (isatty.IsTerminal(file.Fd()) || isatty.IsCygwinTerminal(file.Fd()))
}

// capTools maps each capability to the tools the program calls that need
// it, for the terminal prompt.
func capTools(prog *runtime.Program, env *runtime.Env) map[string][]string {
	byName := map[string]string{}
	for _, t := range env.Tools() {
		byName[t.Name()] = t.Capability()
	}
	out := map[string][]string{}
	for _, name := range check.UsedTools(prog.AST()) {
		if c, ok := byName[name]; ok {
			out[c] = append(out[c], name)
		}
	}
	return out
}
