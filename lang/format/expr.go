package format

import "github.com/a0lang/a0/lang/ast"

// Expr formats one expression in canonical layout (as Program would print
// it at the top level). Diagnostics use it to show a fix with the
// program's own operands.
func Expr(e ast.Expr) string { return (&printer{}).expr(e, 0) }
