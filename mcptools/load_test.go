package mcptools_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/mcptest"
	"github.com/toolpipe/toolpipe/mcptools"
)

// A worker parses a working directory's .mcp.json once, not at every listing and
// every call (issue 25 item 6: each hop once), and an edit of the file still takes
// effect at the next call.
func TestManagerParsesTheConfigOncePerVersion(t *testing.T) {
	work := t.TempDir()
	mcptest.Config(t, work, map[string]any{"local": mcptest.Stdio(t, filepath.Join(work, "notes.txt"))})
	m := newManager(t)
	if _, failures, err := m.ListTools(testContext(t), work); err != nil || len(failures) > 0 {
		t.Fatalf("list: %v %+v", err, failures)
	}
	for range 3 {
		if out := call(t, m, work, "mcp__local__echo", `{"text":"hi"}`); out.IsError {
			t.Fatalf("echo: %+v", out)
		}
	}
	if n := mcptools.Parses(m); n != 1 {
		t.Fatalf("a listing and three calls parsed .mcp.json %d times; want once", n)
	}
	mcptest.Config(t, work, map[string]any{"other": mcptest.Stdio(t, filepath.Join(work, "notes.txt"))})
	if out := call(t, m, work, "mcp__local__echo", `{"text":"hi"}`); !out.IsError || !strings.Contains(out.Content, "not configured") {
		t.Fatalf("after the edit removed server local: %+v", out)
	}
	if n := mcptools.Parses(m); n != 2 {
		t.Fatalf("after an edit: %d parses; want 2", n)
	}
}
