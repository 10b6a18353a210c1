package activities

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

func description(t *testing.T, name string) string {
	t.Helper()
	for _, at := range Builtins().APITools() {
		if at.Name == name {
			return at.Description
		}
	}
	t.Fatalf("no API tool %s", name)
	return ""
}

// Each description states the limits this package holds, as their constants say:
// changing a limit without its text fails here. (Limits of other packages are checked
// in activities/model_tools_test.go.)
func TestDescriptionsStateTheirLimits(t *testing.T) {
	bash := builtin(t, tool.BashName)
	grep := builtin(t, tool.GrepName)
	write := builtin(t, tool.WriteName)
	for _, c := range []struct{ tool, want string }{
		{tool.BashName, num(BashDefaultTimeoutMs) + " (2 minutes) by default"},
		{tool.BashName, fmt.Sprintf("at most %s (%d minutes)", num(BashMaxTimeoutMs), BashMaxTimeoutMs/60_000)},
		{tool.BashName, fmt.Sprintf("Output over %s characters is saved to a file", num(bash.MaxResultSizeChars()))},
		{tool.BashName, fmt.Sprintf("at most %s bytes", num(MaxArgBytes))},
		{tool.GrepName, fmt.Sprintf("Output over %s characters is saved to a file", num(grep.MaxResultSizeChars()))},
		{tool.WriteName, fmt.Sprintf("Content is at most %d MB", write.MaxInputBytes()>>20)},
	} {
		if d := description(t, c.tool); !strings.Contains(d, c.want) {
			t.Errorf("%s's description does not say %q:\n%s", c.tool, c.want, d)
		}
	}
}

// The descriptions give the advice a model needs to use the tools well: absolute
// paths, Read before Edit and Write, independent reads and searches in one message,
// the search tools instead of Bash.
func TestDescriptionsGiveUsage(t *testing.T) {
	for _, c := range []struct{ tool, want string }{
		{tool.ReadName, "absolute path"},
		{tool.WriteName, "absolute path"},
		{tool.EditName, "absolute path"},
		{tool.EditName, "Read the file first"},
		{tool.WriteName, "must have been Read"},
		{tool.ReadName, "Read a file before you Edit or Write it"},
		{tool.ReadName, "in one message: independent Reads run in parallel"},
		{tool.GlobName, "in one message and they run in parallel"},
		{tool.GrepName, "in one message and run in parallel"},
		{tool.BashName, "Glob finds files by name, Grep searches contents, Read shows a file"},
		{tool.GlobName, "instead of find or ls with Bash"},
		{tool.GrepName, "rather than grep or rg in Bash"},
		{tool.EditName, "without the line-number prefix"},
		{tool.ReadName, "offset"},
		{tool.GrepName, "files_with_matches (the default)"},
	} {
		if d := description(t, c.tool); !strings.Contains(d, c.want) {
			t.Errorf("%s's description does not say %q", c.tool, c.want)
		}
	}
}

func TestNum(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 131_071: "131,071", 1_234_567: "1,234,567"} {
		if got := num(n); got != want {
			t.Errorf("num(%d) = %q, want %q", n, got, want)
		}
	}
}
