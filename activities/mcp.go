package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/tool"
)

// The MCP activities: one listing per turn (or session) and one activity type for
// every MCP tool call, whose input names the tool (mcp__SERVER__TOOL).
const (
	ListMCPToolsActivityName = "ListMCPTools"
	MCPCallActivityName      = "MCPCall"
)

// ErrBadMCPConfig: the working directory's .mcp.json is invalid; retrying cannot
// help until it is fixed.
const ErrBadMCPConfig = "BadMCPConfig"

// MCPServers is what the MCP activities need of the worker's MCP client sessions
// (mcptools.Manager).
type MCPServers interface {
	ListTools(ctx context.Context, workdir string) ([]tool.MCPSpec, []tool.MCPFailure, error)
	Call(ctx context.Context, workdir, name string, input json.RawMessage) (tool.Output, error)
	Close() error
}

// ListMCPToolsRequest asks for the tools of the servers in Workdir's .mcp.json.
type ListMCPToolsRequest struct {
	Workdir string `json:"workdir"`
}

// ListMCPToolsResult lists the tools, sorted by name (a Session passes Tools on as
// TurnInput.MCPTools and, through tool.APIToolsWithMCP, to the model), and the
// servers that could not be reached.
type ListMCPToolsResult struct {
	Tools    []tool.MCPSpec    `json:"tools,omitempty"`
	Failures []tool.MCPFailure `json:"failures,omitempty"`
}

// ListMCPTools connects to every configured server (once per worker; later listings
// reuse the sessions) and lists their tools. A server that cannot be reached is a
// tool.MCPFailure in the result, so one broken server does not hide the others' tools.
func (a *Activities) ListMCPTools(ctx context.Context, req ListMCPToolsRequest) (ListMCPToolsResult, error) {
	stop := keepAlive(ctx, "", nil)
	defer stop()
	specs, failures, err := a.mcp.ListTools(ctx, req.Workdir)
	if err != nil {
		if ctx.Err() != nil {
			return ListMCPToolsResult{}, ctx.Err()
		}
		return ListMCPToolsResult{}, temporal.NewApplicationErrorWithOptions(err.Error(), ErrBadMCPConfig,
			temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	return ListMCPToolsResult{Tools: specs, Failures: failures}, nil
}

// MCPCall calls one MCP tool. The server's answer, or why the server is unavailable,
// is the result; only a cancelled call or a worker shutting down fails the activity.
func (a *Activities) MCPCall(ctx context.Context, call tool.Call) (tool.Output, error) {
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	out, err := a.mcp.Call(ctx, call.Workdir, call.Name, call.Input)
	switch {
	case errors.Is(err, mcptools.ErrClosed):
		// Another worker can run it: this one is going away.
		return tool.Output{}, fmt.Errorf("mcp: %w", err)
	case err != nil:
		return tool.Output{}, err
	}
	return a.limit(call, out), nil
}

// observedMCP is MCPCall with the span and metrics of a tool call, named after the
// MCP tool rather than the activity type all MCP tools share.
func (a *Activities) observedMCP(ctx context.Context, call tool.Call) (tool.Output, error) {
	return a.observed(call.Name, a.MCPCall)(ctx, call)
}

// Close closes the MCP sessions and stops the stdio servers this worker started.
func (a *Activities) Close() error {
	return a.mcp.Close()
}
