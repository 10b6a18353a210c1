package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/toolpipe/toolpipe/toolenv"
)

// ConfigFile is the project's MCP configuration, in the working directory, as
// Claude Code reads it.
const ConfigFile = ".mcp.json"

// The transports a server entry can name in "type".
const (
	TypeStdio = "stdio"
	TypeHTTP  = "http"
	TypeSSE   = "sse"
)

// Server is one entry of mcpServers, with ${VAR} references expanded.
type Server struct {
	// Type is stdio, http or sse; an entry without one is stdio.
	Type string `json:"type,omitempty"`
	// Command, Args and Env start a stdio server; Env adds to the worker's environment.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// URL and Headers reach an http (streamable HTTP) or sse server.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Dial, set in code only (never in a file), connects instead (source.go).
	Dial Dial `json:"-"`
}

// Config is a parsed .mcp.json: servers by name.
type Config struct {
	Servers map[string]Server
	// Refused are the servers that are not started, by name, with why ("not
	// started: …", to follow "MCP server NAME is" or "failed:"): their
	// entries refer to variables the user does not let .mcp.json expand (Env).
	Refused map[string]string
	// secrets are, by server, the values its ${VAR} references expanded to: they
	// are redacted from whatever the Manager returns (a server's stderr, errors,
	// results), since those are stored in the workflow history.
	secrets map[string][]string
}

// Secrets returns the values server's ${VAR} references expanded to.
func (c Config) Secrets(server string) []string { return c.secrets[server] }

// Names lists the servers, sorted.
func (c Config) Names() []string {
	names := make([]string, 0, len(c.Servers))
	for n := range c.Servers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// serverName is what Claude Code accepts as a server name; "__" is refused on top,
// since it separates the server from the tool in mcp__SERVER__TOOL.
var serverName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Env says which ${VAR} references of .mcp.json are expanded, and from where. A
// repository's .mcp.json could otherwise send the worker's secrets anywhere
// (an HTTP server whose headers say ${ANTHROPIC_API_KEY}): only the variables the
// user names (mcp-env-allow, read from the user's own configuration, never from
// the repository) are expanded, and a server whose entry refers to any other is
// refused with a notice that says how to allow it.
type Env struct {
	// Allow are the names (shell patterns such as DOCS_*) that may be expanded.
	Allow []string
	// Lookup finds a value; nil means toolenv.LookupEnv (the environment and the
	// held secrets).
	Lookup func(string) (string, bool)
}

// allowed reports whether name may be expanded.
func (e Env) allowed(name string) bool {
	for _, p := range e.Allow {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// HowToAllow is what the notice of a refused server says to do.
const HowToAllow = "add them to mcp-env-allow in your own configuration (~/.config/toolpipe/toolpipe.yaml: mcp-env-allow: [NAME]), " +
	"or give the worker --mcp-env-allow NAME or TOOLPIPE_MCP_ENV_ALLOW=NAME"

// Load reads <workdir>/.mcp.json. found is false (and the error nil) when there is
// no such file. ${VAR} and ${VAR:-default} are expanded as env allows.
func Load(workdir string, env Env) (cfg Config, found bool, err error) {
	path := filepath.Join(workdir, ConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, false, nil
	}
	if err != nil {
		return Config{}, true, fmt.Errorf("mcp: read %s: %w", path, err)
	}
	cfg, err = Parse(data, path, env)
	return cfg, true, err
}

// Parse parses a .mcp.json document; file names it in errors. Every error says what
// is wrong and where, so that a user can fix the file.
func Parse(data []byte, file string, env Env) (Config, error) {
	getenv := env.Lookup
	if getenv == nil {
		getenv = toolenv.LookupEnv
	}
	var doc struct {
		MCPServers map[string]Server `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return Config{}, fmt.Errorf("%s: %s", file, jsonError(data, err))
	}
	if doc.MCPServers == nil {
		return Config{}, fmt.Errorf(`%s: no "mcpServers" object; write {"mcpServers": {"NAME": {"command": "..."}}}`, file)
	}
	cfg := Config{Servers: map[string]Server{}}
	for name, s := range doc.MCPServers {
		if refs := disallowed(s, env); len(refs) > 0 {
			if cfg.Refused == nil {
				cfg.Refused = map[string]string{}
			}
			cfg.Refused[name] = fmt.Sprintf("not started: %s refers to %s, and the worker expands only the variables its user allows; to let it, %s",
				file, "${"+strings.Join(refs, "}, ${")+"}", HowToAllow)
			continue
		}
		var secrets []string
		s, err := checkServer(name, s, func(name string) (string, bool) {
			val, ok := getenv(name)
			if ok && val != "" {
				secrets = append(secrets, val)
			}
			return val, ok
		})
		if err != nil {
			return Config{}, fmt.Errorf("%s: server %q: %w", file, name, err)
		}
		cfg.Servers[name] = s
		if cfg.secrets == nil {
			cfg.secrets = map[string][]string{}
		}
		cfg.secrets[name] = secrets
	}
	return cfg, nil
}

// checkServer validates one entry and expands its ${VAR} references.
func checkServer(name string, s Server, getenv func(string) (string, bool)) (Server, error) {
	if !serverName.MatchString(name) || strings.Contains(name, "__") {
		return Server{}, errors.New(`a server name may hold only letters, digits, '-' and '_', and no "__"`)
	}
	if s.Type == "" {
		s.Type = TypeStdio
		if s.Command == "" && s.URL != "" {
			return Server{}, fmt.Errorf(`"url" needs "type": "http" (or "sse")`)
		}
	}
	switch s.Type {
	case TypeStdio:
		if s.Command == "" {
			return Server{}, errors.New(`a stdio server needs "command"`)
		}
		if s.URL != "" || len(s.Headers) > 0 {
			return Server{}, errors.New(`a stdio server takes "command", "args" and "env", not "url" or "headers"`)
		}
	case TypeHTTP, TypeSSE:
		if s.URL == "" {
			return Server{}, fmt.Errorf(`an %s server needs "url"`, s.Type)
		}
		if s.Command != "" || len(s.Args) > 0 || len(s.Env) > 0 {
			return Server{}, fmt.Errorf(`an %s server takes "url" and "headers", not "command", "args" or "env"`, s.Type)
		}
	default:
		return Server{}, fmt.Errorf(`unknown "type" %q; use "stdio", "http" or "sse"`, s.Type)
	}
	var missing []string
	expand := func(v string) string {
		out, miss := expandVars(v, getenv)
		missing = append(missing, miss...)
		return out
	}
	s.Command, s.URL = expand(s.Command), expand(s.URL)
	for i := range s.Args {
		s.Args[i] = expand(s.Args[i])
	}
	for k, v := range s.Env {
		s.Env[k] = expand(v)
	}
	for k, v := range s.Headers {
		s.Headers[k] = expand(v)
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return Server{}, fmt.Errorf("missing environment variables: %s (set them, or write ${VAR:-default})",
			strings.Join(slices.Compact(missing), ", "))
	}
	if s.Type != TypeStdio && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
		return Server{}, fmt.Errorf("url %q is not an http or https URL", s.URL)
	}
	return s, nil
}

// disallowed lists, sorted, the variables s refers to that env does not allow.
func disallowed(s Server, env Env) []string {
	fields := append([]string{s.Command, s.URL}, s.Args...)
	for _, v := range s.Env {
		fields = append(fields, v)
	}
	for _, v := range s.Headers {
		fields = append(fields, v)
	}
	var out []string
	for _, f := range fields {
		for _, m := range varRef.FindAllStringSubmatch(f, -1) {
			if !env.allowed(m[1]) && !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	slices.Sort(out)
	return out
}

// RefusedNames lists the refused servers, sorted.
func (c Config) RefusedNames() []string {
	names := make([]string, 0, len(c.Refused))
	for n := range c.Refused {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// varRef is ${NAME} or ${NAME:-default}, Claude Code's expansion syntax.
var varRef = regexp.MustCompile(`\$\{([^}:]+)(?::-([^}]*))?\}`)

// expandVars replaces ${VAR} references and returns the names that have no value.
func expandVars(s string, getenv func(string) (string, bool)) (string, []string) {
	var missing []string
	out := varRef.ReplaceAllStringFunc(s, func(m string) string {
		sub := varRef.FindStringSubmatch(m)
		if v, ok := getenv(sub[1]); ok {
			return v
		}
		if strings.Contains(m, ":-") {
			return sub[2]
		}
		missing = append(missing, sub[1])
		return m
	})
	return out, missing
}

// jsonError describes a decoding error with its line and column.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := position(data, se.Offset-1) // Offset is just past the bad byte
		return fmt.Sprintf("line %d, column %d: invalid JSON: %v", line, col, se)
	case errors.As(err, &te):
		line, col := position(data, te.Offset)
		field := te.Field
		if field == "" {
			field = "the document"
		}
		return fmt.Sprintf("line %d, column %d: %s must be %s, not %s", line, col, field, jsonKind(te.Type.String()), te.Value)
	}
	return err.Error()
}

func jsonKind(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case strings.HasPrefix(goType, "[]"):
		return "an array of strings"
	case strings.HasPrefix(goType, "map["):
		return "an object"
	}
	return "an object"
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = int(off) - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}
