package tools

// Every built-in tool refuses argument names it does not take
// (runtime.ClosedArgs): a misspelt `path` or `timeoutMs` is an
// E_TOOL_ARGS naming the unknown key, the valid ones and the likely
// rename, before the call counts or anything starts, not a silently
// ignored option (spec/tools.md). The job tools say so in jobs.go.

// ClosedArgs implements runtime.ClosedArgs.
func (FSRead) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (FSWrite) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (FSList) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (FSExists) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs.
func (HTTPGet) ClosedArgs() bool { return true }

// ClosedArgs implements runtime.ClosedArgs: `timeout_ms` for `timeoutMs`
// would otherwise run a command without the timeout its caller meant.
func (ShExec) ClosedArgs() bool { return true }
