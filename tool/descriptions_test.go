package tool

import (
	"fmt"
	"strings"
	"testing"
)

func description(t *testing.T, name string) string {
	t.Helper()
	for _, at := range APITools() {
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
	bash, _ := Lookup(BashName)
	grep, _ := Lookup(GrepName)
	write, _ := Lookup(WriteName)
	for _, c := range []struct{ tool, want string }{
		{BashName, num(BashDefaultTimeoutMs) + " (2 minutes) by default"},
		{BashName, fmt.Sprintf("at most %s (%d minutes)", num(BashMaxTimeoutMs), BashMaxTimeoutMs/60_000)},
		{BashName, fmt.Sprintf("Output over %s characters is saved to a file", num(bash.MaxResultSizeChars))},
		{BashName, fmt.Sprintf("at most %s bytes", num(MaxArgBytes))},
		{GrepName, fmt.Sprintf("Output over %s characters is saved to a file", num(grep.MaxResultSizeChars))},
		{WriteName, fmt.Sprintf("Content is at most %d MB", write.MaxInputBytes>>20)},
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
		{ReadName, "absolute path"},
		{WriteName, "absolute path"},
		{EditName, "absolute path"},
		{EditName, "Read the file first"},
		{WriteName, "must have been Read"},
		{ReadName, "Read a file before you Edit or Write it"},
		{ReadName, "in one message: independent Reads run in parallel"},
		{GlobName, "in one message and they run in parallel"},
		{GrepName, "in one message and run in parallel"},
		{BashName, "Glob finds files by name, Grep searches contents, Read shows a file"},
		{GlobName, "instead of find or ls with Bash"},
		{GrepName, "rather than grep or rg in Bash"},
		{EditName, "without the line-number prefix"},
		{ReadName, "offset"},
		{GrepName, "files_with_matches (the default)"},
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
