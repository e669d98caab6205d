package diag

// Code is a diagnostic's stable error code ("E_PARSE", "E_TOOL", …).
//
// It is an alias of string, not a defined type, so that host code that
// joins a code with text (d.Code + ": " + d.Message) keeps compiling: the
// named constants below are the typed vocabulary, the field stays a
// plain string for embedders.
type Code = string

// Error codes. They are stable: agents and hosts match on them.
const (
	// Static phase (exit 2).
	ELex               Code = "E_LEX"
	EParse             Code = "E_PARSE"
	EAST               Code = "E_AST"
	ENoReturn          Code = "E_NO_RETURN"
	EReturnNotLast     Code = "E_RETURN_NOT_LAST"
	EDupBinding        Code = "E_DUP_BINDING"
	EFnDup             Code = "E_FN_DUP"
	EUnknownCap        Code = "E_UNKNOWN_CAP"
	ECapValue          Code = "E_CAP_VALUE"
	EDupBudget         Code = "E_DUP_BUDGET"
	EUnknownBudget     Code = "E_UNKNOWN_BUDGET"
	EBudgetType        Code = "E_BUDGET_TYPE"
	EImportUnsupported Code = "E_IMPORT_UNSUPPORTED"
	EUndeclaredCap     Code = "E_UNDECLARED_CAP"
	ESpreadNotAllowed  Code = "E_SPREAD_NOT_ALLOWED"
	ECallEffect        Code = "E_CALL_EFFECT"
	EUnknownTool       Code = "E_UNKNOWN_TOOL"
	EUnbound           Code = "E_UNBOUND"
	EUnknownFn         Code = "E_UNKNOWN_FN"
	// EUnknownArg is reported only by `a0 check --strict`: a call names an
	// argument the function or tool does not take (at run time the same
	// call fails with E_FN or E_TOOL_ARGS).
	EUnknownArg Code = "E_UNKNOWN_ARG"
	// EInputDecl is a malformed `input { … }` header, or a use of
	// input.x where the header declares no x.
	EInputDecl Code = "E_INPUT_DECL"
	// EInput is an input given to a run that does not match the program's
	// input header (missing, undeclared, wrong type, unparsable). It is
	// found before the run starts and exits 2, like a static error.
	EInput Code = "E_INPUT"
	// Runtime (exit 4 unless noted).
	EType        Code = "E_TYPE"
	EPath        Code = "E_PATH"
	EForNotList  Code = "E_FOR_NOT_LIST"
	EMatchNotRec Code = "E_MATCH_NOT_RECORD"
	EMatchNoArm  Code = "E_MATCH_NO_ARM"
	EAssert      Code = "E_ASSERT" // exit 5
	EFn          Code = "E_FN"
	EBudget      Code = "E_BUDGET"
	ECapDenied   Code = "E_CAP_DENIED" // exit 3
	EPolicy      Code = "E_POLICY"     // exit 3
	EToolArgs    Code = "E_TOOL_ARGS"
	ETool        Code = "E_TOOL"
	ERuntime     Code = "E_RUNTIME"
	ECancelled   Code = "E_CANCELLED"
	EIO          Code = "E_IO"
	ETrace       Code = "E_TRACE"
)

// Process exit codes.
const (
	ExitOK      = 0
	ExitUsage   = 1
	ExitStatic  = 2
	ExitCap     = 3
	ExitRuntime = 4
	ExitAssert  = 5
)

var staticCodes = map[Code]bool{
	ELex: true, EParse: true, EAST: true, ENoReturn: true, EReturnNotLast: true,
	EDupBinding: true, EFnDup: true, EUnknownCap: true, ECapValue: true,
	EDupBudget: true, EUnknownBudget: true, EBudgetType: true,
	EImportUnsupported: true, EUndeclaredCap: true, ECallEffect: true,
	EUnknownTool: true, EUnbound: true, EUnknownFn: true, ESpreadNotAllowed: true, EUnknownArg: true,
	EInputDecl: true,
	// Under `a0 check --strict`: a literal tool argument of the wrong type.
	EToolArgs: true,
}

// ExitCode maps a code to the process exit code. static tells whether the
// diagnostic came from the static phase (parse/validate), where every code
// exits 2.
func ExitCode(code Code, static bool) int {
	if static && staticCodes[code] {
		return ExitStatic
	}
	switch code {
	case EInput:
		return ExitStatic
	case ECallEffect, EUnknownTool:
		// Found at run time only for tools whose mode or existence is
		// learnt from an MCP server at their first call (spec/mcp.md §6).
		return ExitStatic
	case ECapDenied, EPolicy:
		return ExitCap
	case EAssert:
		return ExitAssert
	}
	return ExitRuntime
}
