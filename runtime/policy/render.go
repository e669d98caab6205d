package policy

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a0lang/a0/lang/value"
	"github.com/a0lang/a0/runtime/proc"
)

// Text renders the `a0 policy` report (spec/cli.md §5.4), final newline
// included. Values start at character offset 19; empty lists and the
// default's path print "(none)"; Limits is the compact JSON of the limits
// object, or "(none)" when it has no keys. When the selected file has an
// `exec` section, its effective settings and warnings follow.
func Text(r *Resolved) string {
	var b strings.Builder
	b.WriteString("Effective A0 policy\n")
	line := func(label, val string) {
		b.WriteString("  ")
		b.WriteString(label)
		b.WriteString(strings.Repeat(" ", max(1, 17-len(label))))
		b.WriteString(val)
		b.WriteByte('\n')
	}
	path := r.Path
	if path == "" {
		path = "(none)"
	}
	line("Source:", r.Source)
	line("Path:", path)
	line("Allow:", textList(sorted(r.Policy.Allow)))
	line("Deny:", textList(sorted(r.Policy.Deny)))
	line("Effective allow:", textList(r.EffectiveAllow()))
	limits := "(none)"
	if rec := r.Policy.Limits.AsRecord(); rec.Len() > 0 {
		limits = value.JSON(r.Policy.Limits)
	}
	line("Limits:", limits)
	if r.Policy.Exec != nil && !r.allowAll {
		c := r.Exec()
		writeExecText(&b, c, r.Policy.Exec.AllowDetach, ExecWarnings(c, os.Getenv("PATH")))
	}
	if r.Policy.FS != nil && !r.allowAll {
		read, write := r.FSRoots()
		scope := func(l []string) string {
			if l == nil {
				return "(unscoped)"
			}
			return textList(l)
		}
		b.WriteString("  FS:\n")
		b.WriteString("    read roots:      " + scope(read) + "\n")
		b.WriteString("    write roots:     " + scope(write) + "\n")
		b.WriteString("    maxReadBytes:    " + strconv.FormatInt(r.Policy.FS.EffectiveMaxReadBytes(), 10) + "\n")
		b.WriteString("    readSpecial:     " + strconv.FormatBool(r.Policy.FS.ReadSpecial) + "\n")
	}
	if h := r.HTTPScope(); h != nil {
		allow := "(any host)"
		if h.Allow != nil {
			allow = textList(h.Allow)
		}
		b.WriteString("  HTTP:\n")
		b.WriteString("    allow:            " + allow + "\n")
		b.WriteString("    deny:             " + textList(h.Deny) + "\n")
		b.WriteString("    allowPrivate:     " + strconv.FormatBool(h.AllowPrivate) + "\n")
		b.WriteString("    maxResponseBytes: " + orDefault(h.MaxResponseBytes) + "\n")
		b.WriteString("    timeoutMs:        " + orDefault(h.TimeoutMs) + "\n")
	}
	writeMCPText(&b, r)
	writeSecretsText(&b, r)
	return b.String()
}

func orDefault(n int64) string {
	if n == 0 {
		return "(default)"
	}
	return strconv.FormatInt(n, 10)
}

// writeExecText writes the Exec part of the report: the configuration s,
// allowDetach as written (it is not part of s), the warnings.
func writeExecText(b *strings.Builder, s proc.Config, allowDetach *bool, warnings []string) {
	b.WriteString("  Exec:\n")
	line := func(label, val string) {
		b.WriteString("    ")
		b.WriteString(label)
		b.WriteByte(':')
		b.WriteString(strings.Repeat(" ", max(1, 17-len(label))))
		b.WriteString(val)
		b.WriteByte('\n')
	}
	num := func(n int64) string { return strconv.FormatInt(n, 10) }
	ms := func(d time.Duration) string { return num(d.Milliseconds()) }
	allow := "(any executable)"
	if s.Allow != nil {
		allow = textList(s.Allow)
	}
	root := "(unconfined)"
	if s.Root != "" {
		root = s.Root
	}
	store := "(off)"
	if s.StoreDir != "" {
		store = value.JSON(jobStoreValue(s))
	}
	line("allow", allow)
	line("deny", textList(s.Deny))
	line("allowShell", strconv.FormatBool(s.AllowShell))
	line("shells", textList(s.Shells))
	line("root", root)
	line("envMode", s.EnvMode)
	line("envAllow", textList(s.EnvAllow))
	line("envDeny", textList(s.EnvDeny))
	line("mask", textList(s.Mask))
	line("defaultTimeoutMs", ms(s.DefaultTimeout))
	line("maxTimeoutMs", ms(s.MaxTimeout))
	line("maxJobMs", ms(s.MaxJob))
	line("maxWaitMs", ms(s.MaxWait))
	line("graceMs", ms(s.Grace))
	line("drainMs", ms(s.Drain))
	line("maxOutputBytes", num(s.MaxOutputBytes))
	line("maxStdinBytes", num(s.MaxStdinBytes))
	line("maxJobs", num(int64(s.MaxJobs)))
	line("maxJobsPerRun", num(int64(s.MaxJobsPerRun)))
	line("sweepEscaped", strconv.FormatBool(s.SweepEscaped))
	line("jobStore", store)
	line("allowCrossRun", strconv.FormatBool(s.AllowCrossRun))
	line("allowDetach", strconv.FormatBool(allowDetach != nil && *allowDetach))
	if s.EnvAllowCode != nil {
		line("envAllowCode", textList(s.EnvAllowCode))
	}
	if sb := s.Sandbox; sb != nil {
		writeSandboxText(b, sb)
	}
	if len(warnings) == 0 {
		b.WriteString("  Exec warnings:   (none)\n")
		return
	}
	b.WriteString("  Exec warnings:\n")
	for _, w := range warnings {
		b.WriteString("    - ")
		b.WriteString(w)
		b.WriteByte('\n')
	}
}

// JSON renders `a0 policy --json`: JSON-2 of {source, path, policy:
// {version, allow, deny, limits}, effectiveAllow} with sorted lists, plus a
// top-level `exec` member (effective settings and warnings) only when the
// selected file has an `exec` section. Final newline included.
func JSON(r *Resolved) string {
	out := value.NewRecord(5)
	out.Set("source", value.Str(r.Source))
	if r.Path == "" {
		out.Set("path", value.NullValue)
	} else {
		out.Set("path", value.Str(r.Path))
	}
	pol := value.NewRecord(4)
	pol.Set("version", value.Num(r.Policy.Version))
	pol.Set("allow", value.StrList(sorted(r.Policy.Allow)))
	pol.Set("deny", value.StrList(sorted(r.Policy.Deny)))
	limits := r.Policy.Limits
	if limits.AsRecord() == nil {
		limits = value.RecordOf(value.NewRecord(0))
	}
	pol.Set("limits", limits)
	out.Set("policy", value.RecordOf(pol))
	out.Set("effectiveAllow", value.StrList(r.EffectiveAllow()))
	if r.Policy.Exec != nil && !r.allowAll {
		s := r.Exec()
		out.Set("exec", execValue(s, r.Policy.Exec.AllowDetach, ExecWarnings(s, os.Getenv("PATH"))))
	}
	if r.Policy.FS != nil && !r.allowAll {
		read, write := r.FSRoots()
		f := value.NewRecord(4)
		f.Set("read", nullableList(read))
		f.Set("write", nullableList(write))
		f.Set("maxReadBytes", value.Int(int(r.Policy.FS.EffectiveMaxReadBytes())))
		f.Set("readSpecial", value.BoolOf(r.Policy.FS.ReadSpecial))
		out.Set("fs", value.RecordOf(f))
	}
	if h := r.HTTPScope(); h != nil {
		x := value.NewRecord(5)
		x.Set("allow", nullableList(h.Allow))
		x.Set("deny", value.StrList(h.Deny))
		x.Set("allowPrivate", value.BoolOf(h.AllowPrivate))
		x.Set("maxResponseBytes", value.Num(float64(h.MaxResponseBytes)))
		x.Set("timeoutMs", value.Num(float64(h.TimeoutMs)))
		out.Set("http", value.RecordOf(x))
	}
	if r.Policy.MCP != nil {
		out.Set("mcp", mcpValue(r))
	}
	if r.Policy.Secrets != nil {
		out.Set("secrets", secretsValue(r))
	}
	return value.JSONIndent(value.RecordOf(out)) + "\n"
}

func nullableList(l []string) value.Value {
	if l == nil {
		return value.NullValue
	}
	return value.StrList(l)
}

// execValue renders the exec configuration (allowDetach as written, and
// the warnings) as a record in the order of spec/exec.md §8.1; absent
// allow / root / jobStore are null.
func execValue(s proc.Config, allowDetach *bool, warnings []string) value.Value {
	r := value.NewRecord(24)
	if s.Allow == nil {
		r.Set("allow", value.NullValue)
	} else {
		r.Set("allow", value.StrList(s.Allow))
	}
	r.Set("deny", value.StrList(s.Deny))
	r.Set("allowShell", value.BoolOf(s.AllowShell))
	r.Set("shells", value.StrList(s.Shells))
	if s.Root == "" {
		r.Set("root", value.NullValue)
	} else {
		r.Set("root", value.Str(s.Root))
	}
	r.Set("envMode", value.Str(s.EnvMode))
	r.Set("envAllow", value.StrList(s.EnvAllow))
	r.Set("envDeny", value.StrList(s.EnvDeny))
	r.Set("mask", value.StrList(s.Mask))
	num := func(n int64) value.Value { return value.Num(float64(n)) }
	ms := func(d time.Duration) value.Value { return num(d.Milliseconds()) }
	r.Set("defaultTimeoutMs", ms(s.DefaultTimeout))
	r.Set("maxTimeoutMs", ms(s.MaxTimeout))
	r.Set("maxJobMs", ms(s.MaxJob))
	r.Set("maxWaitMs", ms(s.MaxWait))
	r.Set("graceMs", ms(s.Grace))
	r.Set("drainMs", ms(s.Drain))
	r.Set("maxOutputBytes", num(s.MaxOutputBytes))
	r.Set("maxStdinBytes", num(s.MaxStdinBytes))
	r.Set("maxJobs", num(int64(s.MaxJobs)))
	r.Set("maxJobsPerRun", num(int64(s.MaxJobsPerRun)))
	r.Set("sweepEscaped", value.BoolOf(s.SweepEscaped))
	if s.StoreDir == "" {
		r.Set("jobStore", value.NullValue)
	} else {
		r.Set("jobStore", jobStoreValue(s))
	}
	r.Set("allowCrossRun", value.BoolOf(s.AllowCrossRun))
	r.Set("allowDetach", value.BoolOf(allowDetach != nil && *allowDetach))
	if s.EnvAllowCode != nil {
		r.Set("envAllowCode", value.StrList(s.EnvAllowCode))
	}
	if s.Sandbox != nil {
		r.Set("sandbox", sandboxValue(s.Sandbox))
	}
	r.Set("warnings", value.StrList(warnings))
	return value.RecordOf(r)
}

// jobStoreValue is the `jobStore` member of the exec report (the store
// of js is on).
func jobStoreValue(js proc.Config) value.Value {
	r := value.NewRecord(4)
	r.Set("dir", value.Str(js.StoreDir))
	r.Set("retainDays", value.Num(float64(js.RetainDays)))
	r.Set("maxBytes", value.Num(float64(js.StoreMaxBytes)))
	r.Set("maxLogBytes", value.Num(float64(js.MaxLogBytes)))
	return value.RecordOf(r)
}

func sorted(list []string) []string {
	out := slices.Clone(list)
	SortStrings(out)
	return out
}

func textList(list []string) string {
	if len(list) == 0 {
		return "(none)"
	}
	return strings.Join(list, ", ")
}

// sandboxRoots returns what a confined command may read and write: the
// fs roots and the sandbox roots (sb's), then the system set.
func sandboxRoots(sb *proc.Sandbox) (read, write []string) {
	read = append(append([]string{}, sb.Read...), proc.SystemRead...)
	write = append(append([]string{}, sb.Write...), proc.SystemWrite...)
	return read, write
}

// sandboxNetwork is `network` as the policy spells it.
func sandboxNetwork(sb *proc.Sandbox) string {
	if sb.NetworkAllow {
		return string(NetworkAllow)
	}
	return string(NetworkDeny)
}

// sandboxKernel describes the kernel's support and, when commands run
// unconfined, says so.
func sandboxKernel(sb *proc.Sandbox) (kernel string, unconfined bool) {
	st := proc.SandboxStatus()
	if st.Available {
		return "Landlock ABI " + strconv.Itoa(st.ABI) + ", seccomp: commands are confined", false
	}
	if sb.Require {
		return "unavailable (" + st.Missing + "): every sh.exec and sh.start call is refused (sandbox_unavailable)", false
	}
	return "unavailable (" + st.Missing + "): commands run UNCONFINED (require: false)", true
}

func limitsText(l proc.Limits) string {
	var parts []string
	add := func(k string, v int64) {
		if v > 0 {
			parts = append(parts, k+" "+strconv.FormatInt(v, 10))
		}
	}
	add("cpuSeconds", l.CPUSeconds)
	add("memoryBytes", l.MemoryBytes)
	add("fileBytes", l.FileBytes)
	add("openFiles", l.OpenFiles)
	add("processes", l.Processes)
	if parts == nil {
		return "(none)"
	}
	return strings.Join(parts, ", ")
}

func writeSandboxText(b *strings.Builder, sb *proc.Sandbox) {
	read, write := sandboxRoots(sb)
	kernel, _ := sandboxKernel(sb)
	b.WriteString("  Sandbox:\n")
	line := func(label, val string) {
		b.WriteString("    " + label + ":" + strings.Repeat(" ", max(1, 17-len(label))) + val + "\n")
	}
	line("kernel", kernel)
	line("read roots", textList(read))
	line("write roots", textList(write)+", private TMPDIR per command")
	line("network", sandboxNetwork(sb))
	line("limits", limitsText(sb.Limits))
	if sb.Limits.Processes > 0 {
		pc := "pids cgroup (binds root too)"
		if proc.SandboxStatus().ProcessCap != "cgroup" {
			pc = "RLIMIT_NPROC (counts every process of the user; does not bind root)"
		}
		line("processes cap", pc)
	}
	line("require", strconv.FormatBool(sb.Require))
}

func sandboxValue(sb *proc.Sandbox) value.Value {
	read, write := sandboxRoots(sb)
	kernel, unconfined := sandboxKernel(sb)
	st := proc.SandboxStatus()
	r := value.NewRecord(8)
	r.Set("available", value.BoolOf(st.Available))
	r.Set("landlockAbi", value.Int(st.ABI))
	r.Set("kernel", value.Str(kernel))
	r.Set("unconfined", value.BoolOf(unconfined))
	r.Set("read", value.StrList(read))
	r.Set("write", value.StrList(write))
	r.Set("network", value.Str(sandboxNetwork(sb)))
	l := value.NewRecord(5)
	num := func(k string, v int64) {
		if v > 0 {
			l.Set(k, value.Num(float64(v)))
		}
	}
	num("cpuSeconds", sb.Limits.CPUSeconds)
	num("memoryBytes", sb.Limits.MemoryBytes)
	num("fileBytes", sb.Limits.FileBytes)
	num("openFiles", sb.Limits.OpenFiles)
	num("processes", sb.Limits.Processes)
	r.Set("limits", value.RecordOf(l))
	r.Set("require", value.BoolOf(sb.Require))
	return value.RecordOf(r)
}
