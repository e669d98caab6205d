package main

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/lang/format"
	"github.com/a0lang/a0/lang/parser"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/proc"
	"github.com/a0lang/a0/runtime/tools"
)

func standardTools() []runtime.Tool { return tools.Standard() }

// resolveRunPolicy resolves the policy (project file, user file, default)
// into the grants of a run, the exec engine's configuration and the
// policy's limits as budget ceilings (not applied with --unsafe-allow-all).
// An invalid policy file is an E_POLICY error.
func (c *cli) resolveRunPolicy(allowAll bool) (runtime.Grants, proc.Config, runtime.Budget, *diag.Diagnostic) {
	wd, err := getwd()
	if err != nil {
		return nil, proc.Config{}, runtime.Budget{}, &diag.Diagnostic{Code: diag.EIO, Message: err.Error()}
	}
	res, derr := resolvePolicy(wd, allowAll, c.inv.Values["policy"])
	if derr != nil {
		return nil, proc.Config{}, runtime.Budget{}, derr
	}
	var ceiling runtime.Budget
	if !allowAll && res.Policy != nil {
		ceiling = runtime.BudgetFromRecord(res.Policy.Limits.AsRecord())
	}
	cfg := tools.ExecConfig(res.Exec(), wd)
	cfg.Version = version
	return res, cfg, ceiling, nil
}

// toolValues returns the host values the built-in tools read: the exec
// engine configuration and the fs/http scopes of the policy.
func toolValues(res runtime.Grants, execCfg proc.Config) map[string]any {
	vals := map[string]any{tools.ExecConfigKey: execCfg}
	if r, ok := res.(*policy.Resolved); ok {
		if read, write := r.FSRoots(); read != nil || write != nil {
			vals[tools.FSScopeKey] = tools.FSScope{Read: read, Write: write}
		}
		if h := r.HTTPScope(); h != nil {
			vals[tools.HTTPScopeKey] = tools.HTTPScope{Allow: h.Allow, Deny: h.Deny, AllowPrivate: h.AllowPrivate,
				MaxResponseBytes: h.MaxResponseBytes, Timeout: time.Duration(h.TimeoutMs) * time.Millisecond}
		}
	}
	return vals
}

// resolvePolicy loads the policy that applies in wd, or the file given
// with --policy (see policyFile).
func resolvePolicy(wd string, allowAll bool, file string) (*policy.Resolved, *diag.Diagnostic) {
	var res *policy.Resolved
	var err error
	if file != "" {
		res, err = policyFile(wd, file)
	} else {
		res, err = policy.Load(wd, os.Getenv("HOME"))
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

func (c *cli) policy() int {
	wd, err := getwd()
	if err != nil {
		io.WriteString(c.stderr, (&diag.Diagnostic{Code: diag.EIO, Message: err.Error()}).JSON(diag.FormCLI)+"\n")
		return diag.ExitRuntime
	}
	res, err := policy.Load(wd, os.Getenv("HOME"))
	if err != nil {
		if c.inv.Flags["json"] {
			io.WriteString(c.stderr, policy.JSONError(err))
		} else {
			io.WriteString(c.stderr, policy.TextError(err))
		}
		return policy.ExitCode
	}
	if c.inv.Flags["json"] {
		io.WriteString(c.stdout, policy.JSON(res))
	} else {
		io.WriteString(c.stdout, policy.Text(res))
	}
	return diag.ExitOK
}

func (c *cli) fmt() int {
	file := c.inv.File
	src, derr := c.readSource(file, false)
	if derr != nil {
		io.WriteString(c.stderr, derr.Text("", diagStyle(c.stderr))+"\n")
		return diag.ExitRuntime
	}
	p, ds := parser.Parse(file, src, parser.Options{})
	if len(ds) > 0 {
		io.WriteString(c.stderr, ds.Text(func(string) string { return src }, diagStyle(c.stderr))+"\n")
		return diag.ExitStatic
	}
	if format.HasComment(src) {
		io.WriteString(c.stderr, "warning: formatting will remove comments from the output.\n")
	}
	out := format.Program(p)
	if c.inv.Flags["write"] {
		if err := writeFileKeepMode(file, []byte(out)); err != nil {
			io.WriteString(c.stderr, (&diag.Diagnostic{Code: diag.EIO, Message: "Error writing file: " + runtime.NodeErrorText(err, "open", file)}).Text("", diagStyle(c.stderr))+"\n")
			return diag.ExitRuntime
		}
		return diag.ExitOK
	}
	io.WriteString(c.stdout, out)
	return diag.ExitOK
}

// writeFileKeepMode replaces path's content through a temporary file and a
// rename, so an interrupted write never leaves half a file.
func writeFileKeepMode(path string, data []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	f.Close()
	tmp := path + ".a0fmt.tmp"
	if err := os.WriteFile(tmp, data, st.Mode().Perm()); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
