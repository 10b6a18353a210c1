// Package mcptools connects toolpipe to MCP servers configured in a project's
// .mcp.json (Claude Code's format): it parses and validates the file, keeps one
// client session per working directory and server in the worker, lists the servers'
// tools as tool.MCPSpec and calls them, reconnecting a server that crashed on the
// next call. Workflows never see the configuration (it may hold secrets in env and
// headers): only tool specs and results travel through history.
package mcptools
