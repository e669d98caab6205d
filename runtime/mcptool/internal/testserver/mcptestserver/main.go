// Command mcptestserver runs the test MCP server on stdin/stdout. With the
// argument "exit" it fails at once instead (a server that never starts);
// with "hang" it never answers.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/a0lang/a0/runtime/mcptool/internal/testserver"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "exit":
			fmt.Fprintln(os.Stderr, "cannot open the database")
			os.Exit(2)
		case "hang":
			time.Sleep(time.Hour)
		}
	}
	if err := testserver.New().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}
