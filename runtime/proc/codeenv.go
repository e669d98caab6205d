package proc

import "strings"

// CodeEnv is the one list of environment variables that make a program
// (or the shell or interpreter behind a script) run code or load modules
// of the caller's choice: shells' start-up files and traps, the C
// library's conversion modules, interpreters' start-up and option
// variables, the commands git, editors and pagers run. Under an
// executable allowlist a call that sets or keeps one of them is refused
// (E_CAP_DENIED, reason env_not_allowed) unless the policy lists its
// name in exec.envAllowCode: an allowed `ldd` (a bash script) would
// otherwise run BASH_ENV. spec/security.md documents the list.
// LD_* and DYLD_* are refused by their own rule (a new or changed value).
var CodeEnv = []string{
	// Shells.
	"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "ZDOTDIR", "FPATH",
	"BASH_LOADABLES_PATH", "EXECIGNORE",
	// C library.
	"GCONV_PATH",
	// Interpreters.
	"PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONBREAKPOINT",
	"PYTHONWARNINGS", "PYTHONEXECUTABLE", "PYTHONPLATLIBDIR",
	"PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB",
	"RUBYOPT", "RUBYLIB",
	"NODE_OPTIONS", "NODE_PATH", "NODE_REPL_EXTERNAL_MODULE",
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
	"LUA_INIT", "LUA_PATH", "LUA_CPATH", "PHPRC", "PHP_INI_SCAN_DIR", "TCLLIBPATH",
	"R_PROFILE", "R_PROFILE_USER",
	// git.
	"GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
	"GIT_PAGER", "GIT_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG", "GIT_CONFIG_GLOBAL",
	"GIT_CONFIG_SYSTEM", "GIT_DIR",
	// Commands other programs run, and their configuration.
	"EDITOR", "VISUAL", "PAGER", "MANPAGER", "BROWSER", "SSH_ASKPASS", "SUDO_ASKPASS",
	"LESSOPEN", "LESSCLOSE", "TAR_OPTIONS", "RSYNC_RSH", "RSYNC_CONNECT_PROG", "CVS_RSH",
	"OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "GTK_MODULES", "GTK3_MODULES",
	"QT_PLUGIN_PATH", "XDG_CONFIG_HOME",
}

// CodeEnvPrefixes are name prefixes of the same class: bash's exported
// functions and git's numbered configuration entries.
var CodeEnvPrefixes = []string{"BASH_FUNC_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"}

var codeEnvSet = func() map[string]bool {
	m := make(map[string]bool, len(CodeEnv))
	for _, n := range CodeEnv {
		m[n] = true
	}
	return m
}()

// IsCodeEnv reports whether an environment variable name is in CodeEnv
// (or starts with one of CodeEnvPrefixes).
func IsCodeEnv(name string) bool {
	if codeEnvSet[name] {
		return true
	}
	for _, p := range CodeEnvPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// checkCodeEnv applies the allowlist's environment rules to the child's
// final environment: LD_* / DYLD_* may only keep the interpreter's value,
// and no CodeEnv variable may be set or kept unless exec.envAllowCode
// names it.
func (e *Engine) checkCodeEnv(env *envList) error {
	for _, ev := range env.vars {
		k, v := ev.k, ev.v
		if strings.HasPrefix(k, "LD_") || strings.HasPrefix(k, "DYLD_") {
			if base, ok := e.baseLD[k]; !ok || base != v {
				return &Error{Kind: KindCapDenied, Reason: ReasonEnvNotAllowed,
					Msg: "setting " + k + " is not allowed under an executable allowlist (it would let an allowed program load other code); remove it from env", Fields: [][2]string{{"field", "env." + k}}}
			}
			continue
		}
		if IsCodeEnv(k) && !contains(e.cfg.EnvAllowCode, k) {
			return &Error{Kind: KindCapDenied, Reason: ReasonEnvNotAllowed,
				Msg:    "environment variable " + k + " makes a shell, interpreter or tool run code of its choosing, which an executable allowlist does not allow; remove it (env, or envRemove for an inherited one), or list it in the policy's exec.envAllowCode",
				Fields: [][2]string{{"field", "env." + k}}}
		}
	}
	return nil
}

// maskError masks secret values in a refusal that echoes the call's
// executable (a secret the program put in argv[0]).
func maskError(m *Masker, err error) error {
	pe, ok := err.(*Error)
	if !ok || m == nil {
		return err
	}
	pe.Msg = m.String(pe.Msg)
	for i := range pe.Fields {
		pe.Fields[i][1] = m.String(pe.Fields[i][1])
	}
	return pe
}
