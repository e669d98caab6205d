// Package runtime compiles and runs A0 programs inside a Go program. It is
// the embedding API; the a0 command is one host built on it.
//
// A host builds an [Env] once with [NewEnv]: the tools programs may call
// ([WithTools]; package runtime/tools has the built-in ones, and package
// runtime/hosttool defines a host tool from a Go function and a JSON
// Schema), the
// capabilities runs are granted ([WithGrants]; deny-all by default) and
// ceilings on every run's budget ([WithBudgetCeiling]). [Env.Compile]
// parses and checks a program and returns a [Program] or the static
// diagnostics. [Program.Run] runs it and returns a [Result] (value and
// evidence) and, on failure, an [*Error] carrying the A0 error code;
// [ExitCode] maps the outcome to the a0 exit code.
//
// An Env and a Program are immutable and safe for concurrent use: one
// Program may run from many goroutines at once, each run with its own
// budget counters, evidence and tool resources. [RunOptions] carries what
// differs per run: grants, a further budget ceiling, a trace sink and host
// values for tools ([Call.Value]).
//
// Lifetimes: an Env holds no processes or files and needs no closing. A
// run closes the resources its tools opened ([Call.Resource], e.g. the
// background jobs of the exec tools) when it ends, however it ends, so a
// host only has to cancel the context it passed to stop a run. A [Session]
// (the REPL) keeps its resources across inputs and must be closed with
// [Session.Close].
//
// The full contract is spec/embedding.md in the repository.
package runtime
