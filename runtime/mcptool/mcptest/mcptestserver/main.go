// Command mcptestserver runs the test MCP server of package mcptest on
// stdin/stdout.
package main

import "github.com/a0lang/a0/runtime/mcptool/mcptest"

func main() { mcptest.Main() }
