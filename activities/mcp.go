package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/tool"
)

// MCPServers is what the MCP activities need of the worker's MCP client sessions
// (mcptools.Manager).
type MCPServers interface {
	ListTools(ctx context.Context, workdir string) ([]tool.MCPSpec, []tool.MCPFailure, error)
	Call(ctx context.Context, workdir, name string, input json.RawMessage) (tool.Output, error)
	Close() error
}

// ListMCPTools connects to every configured server (once per worker; later listings
// reuse the sessions) and lists their tools. A server that cannot be reached is a
// tool.MCPFailure in the result, so one broken server does not hide the others' tools.
func (a *Activities) ListMCPTools(ctx context.Context, req contract.ListMCPToolsRequest) (contract.ListMCPToolsResult, error) {
	stop := keepAlive(ctx, "", nil)
	defer stop()
	specs, failures, err := a.mcp.ListTools(ctx, req.Workdir)
	if err != nil {
		if ctx.Err() != nil {
			return contract.ListMCPToolsResult{}, ctx.Err()
		}
		return contract.ListMCPToolsResult{}, temporal.NewApplicationErrorWithOptions(err.Error(), contract.ErrBadMCPConfig,
			temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	return contract.ListMCPToolsResult{Tools: specs, Failures: failures}, nil
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
