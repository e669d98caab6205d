package tools

// The file and HTTP tools refuse argument names they do not take
// (runtime.ClosedArgs): a misspelt `path` or `encoding` is an E_TOOL_ARGS
// naming the unknown key and the expected ones, not a silently ignored
// option (spec/tools.md). sh.exec keeps the exec contract: unknown
// arguments are ignored and listed as ignoredArgs in its trace event.

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
