package tools_test

import "testing"

// TestToolArgIssueOrder: type issues are listed in the order of the
// tool's parameters, which keeps the reference's order for the arguments
// it has (sh.exec: cmd, cwd, timeoutMs, env).
func TestToolArgIssueOrder(t *testing.T) {
	t.Parallel()
	dir := realTemp(t)
	cases := []struct{ src, want string }{
		{`return do sh.exec { env: { HOME: 1 }, timeoutMs: "soon", cwd: false, cmd: "true" }`,
			"E_TOOL_ARGS Invalid arguments for tool 'sh.exec': cwd: Expected string, received boolean; timeoutMs: Expected number, received string; env.HOME: Expected string, received number"},
		{`return call? http.get { headers: [], url: 7 }`,
			"E_TOOL_ARGS Invalid arguments for tool 'http.get': url: Expected string, received number; headers: Expected object, received array"},
		{`return do fs.write { format: 1, path: null, data: 2 }`,
			"E_TOOL_ARGS Invalid arguments for tool 'fs.write': path: Expected string, received null; format: Expected string, received number"},
	}
	for _, c := range cases {
		if got := run(t, dir, c.src).json(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}
