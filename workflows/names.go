package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// typeNames is how a workflow names the activities and child workflows it
// schedules: prefixed (contract.Prefix) since change prefixed-names, so that a
// program's own "Read" or "Session" can share the worker; a workflow recorded
// before it keeps scheduling the names it scheduled (contract.Unprefixed), which
// a worker with LegacyNames still registers.
type typeNames struct{ legacy bool }

// useTypeNames decides once, at the workflow's start, which names it schedules.
func useTypeNames(ctx workflow.Context) typeNames {
	return typeNames{legacy: workflow.GetVersion(ctx, prefixedNames, workflow.DefaultVersion, 1) < 1}
}

// of is the name this workflow schedules for contract's name.
func (n typeNames) of(name string) string {
	if n.legacy {
		return contract.Unprefixed(name)
	}
	return name
}

// tool is the activity type of a call of the tool name: every MCP tool's calls
// are one activity type (MCPCall), whose input names the tool.
func (n typeNames) tool(name string) string {
	if tool.IsMCPName(name) {
		return n.of(contract.MCPCallActivityName)
	}
	return n.of(contract.ToolActivity(name))
}
