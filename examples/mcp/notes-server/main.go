// Command notes-server is a small MCP server for the examples/mcp demo: a
// notes store in notes.jsonl (in its working directory) with a read-only
// search tool and an add-note tool that writes.
//
//	go build -o notes-mcp ./notes-server
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"log"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const store = "notes.jsonl"

// Note is one stored note.
type Note struct {
	Text string   `json:"text"`
	Tags []string `json:"tags"`
}

func load() []Note {
	f, err := os.Open(store)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []Note
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var n Note
		if json.Unmarshal(sc.Bytes(), &n) == nil {
			out = append(out, n)
		}
	}
	return out
}

// SearchIn is the search tool's input.
type SearchIn struct {
	Query string `json:"query" jsonschema:"words to look for, case-insensitive"`
	Limit int    `json:"limit,omitempty" jsonschema:"the most notes to return (default 10)"`
}

// SearchOut is its structured result.
type SearchOut struct {
	Query string `json:"query"`
	Notes []Note `json:"notes"`
	Total int    `json:"total"`
}

// AddIn is the add-note tool's input.
type AddIn struct {
	Text string   `json:"text" jsonschema:"the note"`
	Tags []string `json:"tags,omitempty" jsonschema:"labels for the note"`
}

func search(_ context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	limit := in.Limit
	if limit <= 0 {
		limit = 10
	}
	out := SearchOut{Query: in.Query, Notes: []Note{}}
	for _, n := range load() {
		if strings.Contains(strings.ToLower(n.Text), strings.ToLower(in.Query)) {
			out.Total++
			if len(out.Notes) < limit {
				out.Notes = append(out.Notes, n)
			}
		}
	}
	return nil, out, nil
}

func addNote(_ context.Context, _ *mcp.CallToolRequest, in AddIn) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Text) == "" {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "a note needs some text"}}}, nil, nil
	}
	f, err := os.OpenFile(store, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b, _ := json.Marshal(Note(in))
	if _, err := f.Write(append(b, '\n')); err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "saved"}}}, nil, nil
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "search", Description: "Find notes containing the query.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, search)
	mcp.AddTool(s, &mcp.Tool{Name: "add-note", Description: "Store a new note."}, addNote)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
