package permissions

import "github.com/toolpipe/toolpipe/tool"

// isCustomTool reports whether name is a custom tool registered in this process
// (tool.Register): rules may name it, without a specifier, as they name MCP tools.
// A process that does not register it (a starter loading settings for a cluster's
// workers) reports such a rule as ErrUnknownTool.
func isCustomTool(name string) bool {
	_, ok := tool.Lookup(name)
	return ok && !tool.IsBuiltin(name)
}
