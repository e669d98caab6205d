package diag

// Error codes. They are stable: agents and hosts match on them.
const (
	// Static phase (exit 2).
	ELex               = "E_LEX"
	EParse             = "E_PARSE"
	EAST               = "E_AST"
	ENoReturn          = "E_NO_RETURN"
	EReturnNotLast     = "E_RETURN_NOT_LAST"
	EDupBinding        = "E_DUP_BINDING"
	EFnDup             = "E_FN_DUP"
	EUnknownCap        = "E_UNKNOWN_CAP"
	ECapValue          = "E_CAP_VALUE"
	EDupBudget         = "E_DUP_BUDGET"
	EUnknownBudget     = "E_UNKNOWN_BUDGET"
	EBudgetType        = "E_BUDGET_TYPE"
	EImportUnsupported = "E_IMPORT_UNSUPPORTED"
	EUndeclaredCap     = "E_UNDECLARED_CAP"
	ESpreadNotAllowed  = "E_SPREAD_NOT_ALLOWED"
	ECallEffect        = "E_CALL_EFFECT"
	EUnknownTool       = "E_UNKNOWN_TOOL"
	EUnbound           = "E_UNBOUND"
	EUnknownFn         = "E_UNKNOWN_FN"
	// EUnknownArg is reported only by `a0 check --strict`: a call names an
	// argument the function or tool does not take (at run time the same
	// call fails with E_FN or E_TOOL_ARGS).
	EUnknownArg = "E_UNKNOWN_ARG"
	// EInputDecl is a malformed `input { … }` header, or a use of
	// input.x where the header declares no x.
	EInputDecl = "E_INPUT_DECL"
	// EInput is an input given to a run that does not match the program's
	// input header (missing, undeclared, wrong type, unparsable). It is
	// found before the run starts and exits 2, like a static error.
	EInput = "E_INPUT"
	// Runtime (exit 4 unless noted).
	EType        = "E_TYPE"
	EPath        = "E_PATH"
	EForNotList  = "E_FOR_NOT_LIST"
	EMatchNotRec = "E_MATCH_NOT_RECORD"
	EMatchNoArm  = "E_MATCH_NO_ARM"
	EAssert      = "E_ASSERT" // exit 5
	EFn          = "E_FN"
	EBudget      = "E_BUDGET"
	ECapDenied   = "E_CAP_DENIED" // exit 3
	EPolicy      = "E_POLICY"     // exit 3
	EToolArgs    = "E_TOOL_ARGS"
	ETool        = "E_TOOL"
	ERuntime     = "E_RUNTIME"
	ECancelled   = "E_CANCELLED"
	EIO          = "E_IO"
	ETrace       = "E_TRACE"
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

var staticCodes = map[string]bool{
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
func ExitCode(code string, static bool) int {
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
