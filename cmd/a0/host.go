package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
	"github.com/a0lang/a0/runtime/hostpolicy"
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

// commandPolicy is the policy of one CLI command, resolved once at its
// start by resolvePolicy and handed to everything the command builds: the
// grants, the built-in tools' settings, the MCP servers and their http and
// exec settings all come from this one resolution, never from a second
// look at the working folder.
type commandPolicy struct {
	wd  string           // the physical working directory
	res *policy.Resolved // nil when err is set
	err *diag.Diagnostic // E_POLICY (or E_IO for the working directory)
}

// loadPolicy resolves the command's policy (see resolvePolicy) the first
// time it is called and returns that same resolution afterwards, so a
// command never reads a policy file twice (allowAll is the first call's).
func (c *cli) loadPolicy(allowAll bool) *commandPolicy {
	if c.pol != nil {
		return c.pol
	}
	cp := &commandPolicy{}
	wd, err := getwd()
	if err != nil {
		cp.err = &diag.Diagnostic{Code: diag.EIO, Message: err.Error()}
	} else {
		cp.wd = wd
		cp.res, cp.err = resolvePolicy(wd, allowAll, c.inv.Values[optPolicy])
	}
	c.pol = cp
	return cp
}

// resolveRunPolicy resolves the policy (the --policy file, else the
// project file, the user file, the default) into the grants of a run, the
// built-in tools' configuration (the same tools.FromPolicy an embedding
// host calls) and the policy's limits as budget ceilings (not applied
// with --unsafe-allow-all). An invalid policy file is an E_POLICY error;
// the configuration is then the zero tools.Config, which reaches nothing.
func (c *cli) resolveRunPolicy(allowAll bool) (*policy.Resolved, tools.Config, runtime.Budget, *diag.Diagnostic) {
	cp := c.loadPolicy(allowAll)
	if cp.err != nil {
		return nil, tools.Config{}, runtime.Budget{}, cp.err
	}
	res := cp.res
	var ceiling runtime.Budget
	if !allowAll && res.Policy != nil {
		ceiling = runtime.BudgetFromRecord(res.Policy.Limits.AsRecord())
	}
	cfg := tools.FromPolicy(res, cp.wd)
	cfg.Exec.Version = version
	return res, cfg, ceiling, nil
}

// resolvePolicy is the one policy resolution of every command (run,
// check, repl, mcp, tools, policy, jobs):
// hostpolicy.Resolve with the home directory of $HOME.
func resolvePolicy(wd string, allowAll bool, file string) (*policy.Resolved, *diag.Diagnostic) {
	return hostpolicy.Resolve(wd, os.Getenv("HOME"), allowAll, file)
}

func (c *cli) policy() int {
	cp := c.loadPolicy(false)
	if cp.err != nil {
		if cp.err.Code != diag.EPolicy {
			io.WriteString(c.stderr, cp.err.JSON(diag.FormCLI)+"\n")
			return diag.ExitRuntime
		}
		if c.inv.Flags[optJSON] {
			io.WriteString(c.stderr, policy.JSONError(cp.err))
		} else {
			io.WriteString(c.stderr, policy.TextError(cp.err))
		}
		return policy.ExitCode
	}
	if c.inv.Flags[optJSON] {
		io.WriteString(c.stdout, policy.JSON(cp.res))
	} else {
		io.WriteString(c.stdout, policy.Text(cp.res))
	}
	// Entries that name nothing go to stderr: the report on stdout keeps
	// its documented shape in both forms.
	for _, w := range cp.res.EntryWarnings() {
		io.WriteString(c.stderr, "warning: "+w+"\n")
	}
	return diag.ExitOK
}

// checkWritable opens path for writing, without truncating it or changing
// its time stamps, and closes it: the error a write would meet (EACCES,
// EPERM for an immutable file), or nil.
func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// writeInPlace truncates the existing file path and writes data to it.
func writeInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFileKeepMode replaces path's content through a temporary file and a
// rename, so an interrupted write never leaves half a file; in a folder
// the user may not write it writes the file in place.
func writeFileKeepMode(path string, data []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := checkWritable(path); err != nil {
		return err
	}
	// The temporary is named as fs.write names its own (".a0-tmp-<pid>-…"),
	// so one left by a killed a0 is found and removed by the next fs.write
	// to the folder, and two formatters never share one.
	f, err := os.CreateTemp(filepath.Dir(path), ".a0-tmp-"+strconv.Itoa(os.Getpid())+"-*")
	if errors.Is(err, fs.ErrPermission) {
		// A writable file in a folder that takes no new file is
		// written in place, as the reference writes every file.
		return writeInPlace(path, data)
	}
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
