//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPServerShutdownStopsRuns: when the client goes away, the server
// cancels the runs still going and exits only after their cleanup, so no
// command outlives it.
func TestMCPServerShutdownStopsRuns(t *testing.T) {
	cs, stop := mcpSessionStop(t, `{"version":1,"allow":["sh.exec"]}`)
	dir, _ := os.Getwd()
	pidFile := filepath.Join(dir, "pid")
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "a0_run", Arguments: map[string]any{
		"source": "cap { sh.exec: true }\ndo sh.exec { cmd: \"echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 60\" } -> r\nreturn r",
	}})
	var pid int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
	}
	if pid == 0 {
		t.Fatal("the command did not start")
	}
	start := time.Now()
	stop()
	if err := syscall.Kill(pid, 0); err == nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("command %d still running after the server exited", pid)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("shutdown took %v", d)
	}
}
