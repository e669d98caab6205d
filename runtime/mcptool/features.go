package mcptool

import (
	"encoding/json"

	"github.com/a0lang/a0/lang/diag"
	"github.com/a0lang/a0/runtime"
)

// Features a0 does not offer (spec/mcp.md §6.1). A tool that needs one is
// listed as unavailable and refused before the server sees the call.
//
// Only tasks can be told from a listing: a tool whose
// execution.taskSupport is "required" (MCP 2025-11-25) must be called as a
// task, which a0 does not do. a0 reads it from the raw tools/list pages
// (server.list). Sampling and elicitation are requests a server sends
// during a call; a0 declares neither capability and answers them with
// "method not found", so the call fails with the server's message.

// featureTasks is the feature a task-only tool needs.
const featureTasks = "tasks"

// unavailableTools returns, by server tool name, the feature each tool
// listed in pages needs that a0 does not offer.
func unavailableTools(pages []json.RawMessage) map[string]string {
	var out map[string]string
	for _, p := range pages {
		var page struct {
			Tools []struct {
				Name      string `json:"name"`
				Execution *struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			} `json:"tools"`
		}
		if json.Unmarshal(p, &page) != nil {
			continue
		}
		for _, t := range page.Tools {
			if t.Execution != nil && t.Execution.TaskSupport == "required" {
				if out == nil {
					out = map[string]string{}
				}
				out[t.Name] = featureTasks
			}
		}
	}
	return out
}

// unavailableText is the reason shown in listings ("requires tasks"), or
// "".
func (e *entry) unavailableText() string {
	if e.unavailable == "" {
		return ""
	}
	return "requires " + e.unavailable
}

// unavailableError refuses a call to a tool that needs a feature a0 does
// not offer, before the server sees it.
func (e *entry) unavailableError(server string) error {
	msg := "Tool '" + e.name + "' cannot be called: the MCP server '" + server + "' runs it only as a task (execution.taskSupport \"required\"), and a0 does not offer MCP tasks."
	hint := "Use another tool of the server, or one whose taskSupport is \"optional\"; 'a0 tools' marks the tools a0 cannot call as [unavailable: …]."
	return &runtime.Error{Diagnostic: diag.Diagnostic{Code: diag.ETool, Message: msg, Hint: hint},
		Details: details("tool", e.name, "server", server, "reason", "unsupported_feature", "feature", e.unavailable)}
}
