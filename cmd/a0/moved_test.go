package main

import (
	"slices"

	"github.com/a0lang/a0/runtime/help"
	"github.com/a0lang/a0/runtime/mcpserver"
)

// Names the tests use from code that moved out of cmd/a0: the help
// topics (runtime/help), the MCP server (runtime/mcpserver) and helpers.
var (
	helpTopicNames  = help.Topics()
	helpStdlibNames = help.StdlibNames()
	helpStdlibIndex = help.StdlibIndex
	helpTopicTexts  = func() map[string]string {
		m := map[string]string{}
		for _, n := range helpTopicNames {
			m[n], _ = help.Text(n)
		}
		return m
	}()
	topicStdlib = helpTopicTexts["stdlib"]
	contains    = slices.Contains[[]string]
)

const (
	mcpToolsURI = mcpserver.ToolsURI
	mcpMaxDepth = mcpserver.MaxDepth
)
