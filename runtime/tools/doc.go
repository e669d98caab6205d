// Package tools holds the built-in A0 tools: fs.read, fs.write, fs.list,
// fs.exists, http.get and sh.exec. A host opts in with
// runtime.WithTools(tools.Standard()...); an Env without them exposes no
// tools.
package tools

import "github.com/a0lang/a0/runtime"

// Standard returns every built-in tool.
func Standard() []runtime.Tool {
	return []runtime.Tool{FSRead{}, FSWrite{}, FSList{}, FSExists{}, HTTPGet{}, ShExec{}}
}
