package permissions

// Disables reports whether a deny rule names the whole tool (no specifier), or the
// whole MCP server it belongs to: Claude Code then does not offer the tool to the
// model at all, and a call of it is answered as of a tool that does not exist.
func (p Policy) Disables(toolName string) bool {
	for _, r := range p.Deny {
		if r.Specifier != "" {
			continue
		}
		if r.Tool == toolName || serverRuleCovers(r.Tool, toolName) {
			return true
		}
	}
	return false
}
