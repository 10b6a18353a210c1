package mcptools

import (
	"context"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Source says which servers a working directory has. The default is Load: the
// directory's .mcp.json. A process that adds servers of its own (Claude Code's
// --mcp-config, the Claude Agent SDK's in-process servers: cmd/toolpipe-claude)
// gives its worker another one (WithSource).
type Source func(workdir string, env Env) (cfg Config, found bool, err error)

// WithSource makes s the Manager's source of servers.
func WithSource(s Source) Option { return func(m *Manager) { m.source = s } }

// Dial connects to a server that runs in this process, or that this process
// reaches by its own means, instead of starting or reaching it as its entry says:
// the Claude Agent SDK's servers, whose messages cross the SDK's control channel.
type Dial func(ctx context.Context) (mcp.Transport, error)

// Merge returns base with the servers of extra added; a server both name is
// extra's, as Claude Code's --mcp-config entries win over .mcp.json's. Refusals
// and redactions go with their servers.
func Merge(base, extra Config) Config {
	out := Config{Servers: maps.Clone(base.Servers), Refused: maps.Clone(base.Refused), secrets: maps.Clone(base.secrets)}
	if out.Servers == nil {
		out.Servers = map[string]Server{}
	}
	for name, s := range extra.Servers {
		out.Servers[name] = s
		delete(out.Refused, name)
		if out.secrets != nil {
			delete(out.secrets, name)
		}
	}
	for name, why := range extra.Refused {
		if out.Refused == nil {
			out.Refused = map[string]string{}
		}
		out.Refused[name] = why
		delete(out.Servers, name)
	}
	for name, vals := range extra.secrets {
		if out.secrets == nil {
			out.secrets = map[string][]string{}
		}
		out.secrets[name] = vals
	}
	return out
}

// load is the working directory's servers, from the Manager's source.
func (m *Manager) load(workdir string) (Config, bool, error) {
	if m.source != nil {
		return m.source(workdir, m.vars)
	}
	return m.loadFile(workdir) // manager.go
}
