package hostpolicy

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime/mcptool"
	"github.com/a0lang/a0/runtime/policy"
)

// SchemaCacheDir returns the folder of the MCP schema cache
// (spec/mcp.md §8): the store folder, resolved as `a0 jobs` resolves it —
// $A0_JOBS_ROOT, else the policy's exec.jobStore folder, else
// $XDG_DATA_HOME/a0/jobs (~/.local/share/a0/jobs). "" turns the cache off:
// when $A0_MCP_SCHEMA_CACHE is "off", or no folder can be named.
func SchemaCacheDir(res *policy.Resolved) string {
	if os.Getenv("A0_MCP_SCHEMA_CACHE") == "off" {
		return ""
	}
	if root := os.Getenv("A0_JOBS_ROOT"); root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			return abs
		}
		return ""
	}
	if res != nil {
		if dir := res.Exec().StoreDir; dir != "" {
			return dir
		}
	}
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "a0", "jobs")
}

// RelistStale starts and lists again the servers whose schema cache
// entries the static diagnostics ds may come from (a diagnostic of a
// tool call, an argument or a result field that names one of the
// server's tools), when the policy res grants a tool of them. `a0 run`
// calls it before it reports static errors, so that a stale entry never
// refuses a program: it compiles the program again against what the
// servers list now. It reports whether a server was listed.
func RelistStale(m *mcptool.Manager, res *policy.Resolved, ds diag.List) bool {
	listed := false
	for _, srv := range m.Servers() {
		if !m.UsedCache(srv) || res == nil || !res.ServerGranted(srv) || !mentions(ds, srv) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), ListTimeout)
		if _, err := m.List(ctx, srv); err == nil {
			listed = true
		}
		cancel()
	}
	return listed
}

// mentions reports whether a diagnostic of a tool call or a capability
// names a tool of server srv.
func mentions(ds diag.List, srv string) bool {
	for _, d := range ds {
		switch d.Code {
		case diag.EUnknownTool, diag.EUnknownCap, diag.ECallEffect, diag.EUnknownArg, diag.EToolArgs, diag.EPath:
			if strings.Contains(d.Message, srv+".") {
				return true
			}
		}
	}
	return false
}
