package main

import (
	"bufio"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"

	"github.com/a0lang/a0/lang/check"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hostpolicy"
)

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
	if hostpolicy.Denies(g.base, c) {
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
