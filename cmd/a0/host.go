package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/policy"
	"github.com/a0lang/a0/runtime/tools"
)

// standardTools are the built-in tools under the default policy (what
// `a0 check` compiles against; a run builds its own with newEnvWith).
func standardTools() []runtime.Tool { return tools.New(tools.FromPolicy(nil, "")) }

// newEnvWith builds the interpreter environment of a run: the built-in
// tools configured by cfg (tools.FromPolicy), the working directory.
func newEnvWith(cfg tools.Config, extra ...runtime.Option) (*runtime.Env, error) {
	wd, err := getwd()
	if err != nil {
		return nil, err
	}
	opts := append([]runtime.Option{runtime.WithTools(tools.New(cfg)...), runtime.WithWorkDir(wd)}, extra...)
	return runtime.NewEnv(opts...)
}

// resolveRunPolicy resolves the policy (project file, user file, default)
// into the grants of a run, the built-in tools' configuration (the same
// tools.FromPolicy an embedding host calls) and the policy's limits as
// budget ceilings (not applied with --unsafe-allow-all). An invalid policy
// file is an E_POLICY error; the configuration is then the zero
// tools.Config, which reaches nothing.
func (c *cli) resolveRunPolicy(allowAll bool) (runtime.Grants, tools.Config, runtime.Budget, *diag.Diagnostic) {
	wd, err := getwd()
	if err != nil {
		return nil, tools.Config{}, runtime.Budget{}, &diag.Diagnostic{Code: diag.EIO, Message: err.Error()}
	}
	res, derr := resolvePolicy(wd, allowAll, c.inv.Values[optPolicy])
	if derr != nil {
		return nil, tools.Config{}, runtime.Budget{}, derr
	}
	var ceiling runtime.Budget
	if !allowAll && res.Policy != nil {
		ceiling = runtime.BudgetFromRecord(res.Policy.Limits.AsRecord())
	}
	cfg := tools.FromPolicy(res, wd)
	cfg.Exec.Version = version
	return res, cfg, ceiling, nil
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
		if c.inv.Flags[optJSON] {
			io.WriteString(c.stderr, policy.JSONError(err))
		} else {
			io.WriteString(c.stderr, policy.TextError(err))
		}
		return policy.ExitCode
	}
	if c.inv.Flags[optJSON] {
		io.WriteString(c.stdout, policy.JSON(res))
	} else {
		io.WriteString(c.stdout, policy.Text(res))
	}
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
	// The temporary is named as fs.write names its own (".a0-tmp-<pid>-…"),
	// so one left by a killed a0 is found and removed by the next fs.write
	// to the folder, and two formatters never share one.
	f, err = os.CreateTemp(filepath.Dir(path), ".a0-tmp-"+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(st.Mode().Perm())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
