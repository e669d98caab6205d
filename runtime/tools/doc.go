// Package tools holds the built-in A0 tools: fs.read, fs.write, fs.list,
// fs.exists, http.get, sh.exec and the background-job tools sh.start,
// sh.status, sh.tail, sh.wait, sh.kill and sh.jobs. A host opts in with
// runtime.WithTools(tools.New(cfg)...), cfg being a typed [Config] (made
// from a policy with [FromPolicy]); an Env without them exposes no tools.
package tools
