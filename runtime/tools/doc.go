// Package tools holds the built-in A0 tools: fs.read, fs.write, fs.list,
// fs.exists, http.get, sh.exec and the background-job tools sh.start,
// sh.status, sh.tail, sh.wait, sh.kill and sh.jobs. A host opts in with
// runtime.WithTools(tools.Standard()...); an Env without them exposes no
// tools.
package tools

import "github.com/a0lang/a0/runtime"

// Standard returns every built-in tool.
func Standard() []runtime.Tool {
	return []runtime.Tool{FSRead{}, FSWrite{}, FSList{}, FSExists{}, HTTPGet{}, ShExec{},
		ShStart{}, ShStatus{}, ShTail{}, ShWait{}, ShKill{}, ShJobs{}}
}
