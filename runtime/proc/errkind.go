package proc

// ErrorKind says which runtime error an [Error] becomes (spec/exec.md §9).
// The text is part of the supervisor's wire format; it is never shown.
type ErrorKind string

// The kinds of an [Error].
const (
	// KindCapDenied is a refusal by the policy: E_CAP_DENIED.
	KindCapDenied ErrorKind = "cap_denied"
	// KindArgs is an invalid argument of the call: E_TOOL_ARGS.
	KindArgs ErrorKind = "args"
	// KindTool is a failure of the tool itself: E_TOOL.
	KindTool ErrorKind = "tool"
)

// Reason is the machine-readable reason of an [Error] or a [StartError].
// Its text is shown as is: it is the "reason" of the error's details.
type Reason string

// Reasons of an [Error] of kind [KindCapDenied].
const (
	// ReasonCrossRunNotAllowed: a job of another run, without exec.allowCrossRun.
	ReasonCrossRunNotAllowed Reason = "cross_run_not_allowed"
	// ReasonCwdOutsideRoot: a working directory outside the policy's root.
	ReasonCwdOutsideRoot Reason = "cwd_outside_root"
	// ReasonDetachNotAllowed: detach without exec.allowDetach.
	ReasonDetachNotAllowed Reason = "detach_not_allowed"
	// ReasonEnvNotAllowed: an environment variable the policy does not pass.
	ReasonEnvNotAllowed Reason = "env_not_allowed"
	// ReasonExecutableDenied: an executable on the policy's deny list.
	ReasonExecutableDenied Reason = "executable_denied"
	// ReasonExecutableNotAllowed: an executable not on the policy's allow list.
	ReasonExecutableNotAllowed Reason = "executable_not_allowed"
	// ReasonSandboxNotReadable: an executable (or its interpreter) outside
	// every root a confined command may read.
	ReasonSandboxNotReadable Reason = "sandbox_not_readable"
	// ReasonSecretNotAllowed: a secret the policy does not grant.
	ReasonSecretNotAllowed Reason = "secret_not_allowed"
	// ReasonShellNotAllowed: a shell the policy does not allow.
	ReasonShellNotAllowed Reason = "shell_not_allowed"
)

// Reason of an [Error] of kind [KindArgs].
const (
	// ReasonInvalidArgs: an argument out of range or of the wrong shape.
	ReasonInvalidArgs Reason = "invalid_args"
)

// Reasons of an [Error] of kind [KindTool] and of a [StartError].
const (
	// ReasonCwdNotFound: the working directory does not exist.
	ReasonCwdNotFound Reason = "cwd_not_found"
	// ReasonIOError: the job store could not be read or written.
	ReasonIOError Reason = "io_error"
	// ReasonJobLimit: no more jobs may start in this run.
	ReasonJobLimit Reason = "job_limit"
	// ReasonNotFound: the executable was not found.
	ReasonNotFound Reason = "not_found"
	// ReasonPermissionDenied: the executable may not be executed.
	ReasonPermissionDenied Reason = "permission_denied"
	// ReasonSandboxUnavailable: the sandbox the policy asks for cannot be set up.
	ReasonSandboxUnavailable Reason = "sandbox_unavailable"
	// ReasonSecretUnavailable: a granted secret cannot be read.
	ReasonSecretUnavailable Reason = "secret_unavailable"
	// ReasonSpawnFailed: the command could not be started.
	ReasonSpawnFailed Reason = "spawn_failed"
	// ReasonStoreUnavailable: no job store is configured.
	ReasonStoreUnavailable Reason = "store_unavailable"
	// ReasonStoreUnsafe: the job store directory is not safe to use.
	ReasonStoreUnsafe Reason = "store_unsafe"
)
