package activities

import (
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// Activity summaries (each tool's Summary) are markdown in the Temporal UI: every
// argument is a code span, so globs, underscores and backticks show as typed.
func TestActivitySummary(t *testing.T) {
	long := "/very/long/" + strings.Repeat("deep/", 20) + "main.go"
	for _, c := range []struct {
		name, input, want string
	}{
		{tool.BashName, `{"command":"npm test"}`, "Bash: `npm test`"},
		{tool.BashName, `{"command":"echo ` + "`date`" + `\n  && ls"}`, "Bash: `` echo `date` && ls ``"},
		{tool.BashName, `{}`, "Bash"},
		{tool.ReadName, `{"file_path":"/src/main_test.go"}`, "Read: `/src/main_test.go`"},
		{tool.ReadName, `{"file_path":"` + long + `"}`, "Read: `…" + long[len(long)-79:] + "`"},
		{tool.GlobName, `{"pattern":"**/*.go"}`, "Glob: `**/*.go`"},
		{tool.GrepName, `{"pattern":"TODO","path":"src/"}`, "Grep: `TODO` in `src/`"},
		{tool.GrepName, `{"pattern":"func \\w+","glob":"*.go","path":"pkg"}`, "Grep: `func \\w+` in files `*.go` in `pkg`"},
		{tool.WebFetchName, `{"url":"https://example.com/a_b","prompt":"x"}`, "WebFetch: `https://example.com/a_b`"},
		// An MCP tool shows its whole input (its fields have no fixed names), on one line.
		{"mcp__x__y", `{"pattern": "p",` + "\n" + ` "n": 1}`, "mcp__x__y: `{\"pattern\":\"p\",\"n\":1}`"},
		{"mcp__x__y", `{"text":"` + strings.Repeat("a", 100) + `"}`, "mcp__x__y: `{\"text\":\"" + strings.Repeat("a", 70) + "…`"},
		{tool.EditName, `not json`, "Edit"},
	} {
		def, ok := Builtins().Lookup(c.name)
		if !ok {
			var err error
			if def, err = (tool.MCPSpec{Name: c.name}).Definition(); err != nil {
				t.Fatal(err)
			}
		}
		if got := def.Summary([]byte(c.input)); got != c.want {
			t.Errorf("summary(%s %s) = %q, want %q", c.name, c.input, got, c.want)
		}
	}
}
