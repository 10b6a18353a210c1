package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// mcpListTimeout bounds the ListMCPTools activity: starting or reaching every
// configured server and listing its tools.
const mcpListTimeout = 2 * time.Minute

// mcpListAttempts: a listing is read-only, so it is retried when its worker is lost.
const mcpListAttempts = 3

// useMCPSpecs adds MCP tools to the turn. A spec whose schema does not compile is
// left out with a notice: calls to it get the unknown-tool error.
func (t *turn) useMCPSpecs(specs []tool.MCPSpec) {
	for _, s := range specs {
		d, err := s.Definition()
		if err != nil {
			t.notice("", fmt.Sprintf("MCP tool %s is left out: %v", s.Name, err))
			continue
		}
		t.mcp[s.Name] = d
	}
}

// listMCP lists the MCP tools of the working directory's servers (ListMCPTools).
// Only turns whose input asks for it run it, so histories of turns without MCP
// replay unchanged. A failed listing leaves the turn with the built-in tools.
func (t *turn) listMCP(ctx workflow.Context) {
	res, err := listMCPTools(ctx, t.in.Workdir, t.opts.HeartbeatTimeout)
	if err != nil {
		t.notice("", "MCP tools are unavailable in this turn: "+failureMessage(err))
		return
	}
	for _, f := range res.Failures {
		t.notice("", mcpFailureText(f))
	}
	t.useMCPSpecs(res.Tools)
}

// listMCPTools runs the ListMCPTools activity for a turn or a session: read-only, so
// retried a few times, except when the .mcp.json itself is wrong.
func listMCPTools(ctx workflow.Context, workdir string, heartbeat time.Duration) (contract.ListMCPToolsResult, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: mcpListTimeout,
		HeartbeatTimeout:    heartbeat,
		Summary:             "List MCP tools of " + workdir,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: mcpListAttempts,
			NonRetryableErrorTypes: []string{contract.ErrBadMCPConfig},
		},
	})
	var res contract.ListMCPToolsResult
	err := workflow.ExecuteActivity(actx, contract.ListMCPToolsActivityName,
		contract.ListMCPToolsRequest{Workdir: workdir}).Get(ctx, &res)
	return res, err
}

// mcpFailureText tells the user which server could not be reached and why.
func mcpFailureText(f tool.MCPFailure) string {
	return fmt.Sprintf("MCP server %s failed: %s", f.Server, f.Error)
}

// lookup resolves a tool name for this turn: its MCP tools, the original tools of
// the worker's registry, then the registry's other tools as this turn recorded them
// (turn_custom.go).
func (t *turn) lookup(name string) (*tool.Definition, bool) {
	if tool.IsMCPName(name) {
		d, ok := t.mcp[name]
		return d, ok
	}
	if tool.IsOriginal(name) {
		return t.tools.Lookup(name)
	}
	return t.lookupRecorded(name)
}

// turnTools is the turn's view of the tools for its tracker.
type turnTools struct{ t *turn }

func (v turnTools) Lookup(name string) (*tool.Definition, bool) { return v.t.lookup(name) }

func (v turnTools) UnknownToolMessage(name string) string { return v.t.tools.UnknownToolMessage(name) }

// activityType is the activity a tool call runs as: a built-in tool's own name, one
// MCPCall for every MCP tool (its input names the tool).
func activityType(name string) string {
	if tool.IsMCPName(name) {
		return contract.MCPCallActivityName
	}
	return name
}
