package mcptools

// Parses is how many times m parsed a .mcp.json.
func Parses(m *Manager) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.parses
}
