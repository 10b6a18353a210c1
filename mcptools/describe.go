package mcptools

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Describe says, for people, what workdir's .mcp.json would do if it took effect:
// the programs it would start and the servers it would connect to, ${VAR}
// references as written (nothing is expanded). A workspace's own files take
// effect only when the user trusts it (internal/config, trust.go). found is false
// when there is no such file.
func Describe(workdir string) (effects []string, found bool) {
	path := filepath.Join(workdir, ConfigFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		return []string{"fail to load: " + err.Error()}, true
	}
	var doc struct {
		MCPServers map[string]Server `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return []string{"fail to load: " + jsonError(data, err)}, true
	}
	names := make([]string, 0, len(doc.MCPServers))
	for n := range doc.MCPServers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		s := doc.MCPServers[n]
		switch {
		case s.Command != "":
			effects = append(effects, fmt.Sprintf("start the MCP server %s: %s", n, shorten(strings.Join(append([]string{s.Command}, s.Args...), " "))))
		case s.URL != "":
			effects = append(effects, fmt.Sprintf("connect to the MCP server %s at %s", n, shorten(s.URL)))
		}
	}
	if len(effects) == 0 {
		effects = append(effects, "configure no MCP server")
	}
	return effects, true
}

// shorten keeps a description to one readable line.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > 120 {
		s = string([]rune(s)[:119]) + "…"
	}
	return s
}
