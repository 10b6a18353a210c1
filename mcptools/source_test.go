package mcptools_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolpipe/toolpipe/internal/mcptest"
	"github.com/toolpipe/toolpipe/mcptools"
)

// A Manager with a Source lists and calls the servers the source adds to the
// working directory's .mcp.json (Claude Code's --mcp-config), one that wins over a
// server of the same name in the file, and servers reached by Dial in this process
// (the Claude Agent SDK's in-process servers), each connected once.
func TestSourceAddsServers(t *testing.T) {
	work := t.TempDir()
	mcptest.Config(t, work, map[string]any{
		"local":  mcptest.Stdio(t, filepath.Join(work, "notes.txt")),
		"shadow": map[string]any{"command": "/nonexistent/server"},
	})
	server := mcp.NewServer(&mcp.Implementation{Name: "calc", Version: "1"}, nil)
	type args struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "add", Description: "Adds."}, func(ctx context.Context, req *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sum " + string(rune('0'+in.A+in.B))}}}, nil, nil
	})
	dials := 0
	dial := func(ctx context.Context) (mcp.Transport, error) {
		dials++
		client, srv := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, srv, nil); err != nil {
			return nil, err
		}
		return client, nil
	}
	extra := mcptools.Config{Servers: map[string]mcptools.Server{
		"calc":   {Type: "sdk", Dial: dial},
		"shadow": {Type: "sdk", Dial: dial},
	}}
	m := mcptools.NewManager(mcptools.WithSource(func(workdir string, env mcptools.Env) (mcptools.Config, bool, error) {
		base, _, err := mcptools.Load(workdir, env)
		return mcptools.Merge(base, extra), true, err
	}))
	t.Cleanup(func() { m.Close() })
	specs, failures, err := m.ListTools(testContext(t), work)
	if err != nil || len(failures) > 0 {
		t.Fatalf("list: %v %+v", err, failures)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	got := strings.Join(names, ",")
	if !strings.Contains(got, "mcp__calc__add") || !strings.Contains(got, "mcp__shadow__add") || !strings.Contains(got, "mcp__local__") {
		t.Fatalf("tools: %s", got)
	}
	if out := call(t, m, work, "mcp__calc__add", `{"a":2,"b":3}`); out.IsError || out.Content != "sum 5" {
		t.Fatalf("call: %+v", out)
	}
	if dials != 2 {
		t.Fatalf("each in-process server is dialled once, got %d dials", dials)
	}
}
