package mcptools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/mcptest"
	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/tool"
)

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func newManager(t *testing.T) *mcptools.Manager {
	// The tests' own variables, as a user would allow them (mcp-env-allow).
	m := mcptools.NewManager(mcptools.WithEnvAllow([]string{"MCPTEST_*"}))
	t.Cleanup(func() { m.Close() })
	return m
}

func call(t *testing.T, m *mcptools.Manager, work, name, input string) tool.Output {
	t.Helper()
	out, err := m.Call(testContext(t), work, name, json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

func TestManagerListsAndCallsStdioAndHTTP(t *testing.T) {
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	url := mcptest.StartHTTP(t, "MCPTEST_TOKEN=tok", "MCPTEST_NOTES="+filepath.Join(work, "http-notes.txt"))
	os.Setenv("MCPTEST_TEST_TOKEN", "tok")
	t.Cleanup(func() { os.Unsetenv("MCPTEST_TEST_TOKEN") })
	mcptest.Config(t, work, map[string]any{
		"local": mcptest.Stdio(t, notes),
		"web":   map[string]any{"type": "http", "url": url, "headers": map[string]string{"Authorization": "Bearer ${MCPTEST_TEST_TOKEN}"}},
	})
	m := newManager(t)
	specs, failures, err := m.ListTools(testContext(t), work)
	if err != nil || len(failures) > 0 {
		t.Fatalf("list: %v %+v", err, failures)
	}
	byName := map[string]tool.MCPSpec{}
	var names []string
	for _, s := range specs {
		byName[s.Name] = s
		names = append(names, s.Name)
	}
	want := []string{"mcp__local__crash", "mcp__local__echo", "mcp__local__fail", "mcp__local__gate", "mcp__local__pid", "mcp__local__write_note",
		"mcp__web__crash", "mcp__web__echo", "mcp__web__fail", "mcp__web__gate", "mcp__web__pid", "mcp__web__write_note"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("tools %v, want %v", names, want)
	}
	if !byName["mcp__local__echo"].ReadOnly || byName["mcp__web__write_note"].ReadOnly {
		t.Fatalf("readOnlyHint not carried: %+v", specs)
	}
	def, err := byName["mcp__local__echo"].Definition()
	if err != nil {
		t.Fatal(err)
	}
	if def.ValidateInput(json.RawMessage(`{"text":1}`)) == nil || def.ValidateInput(json.RawMessage(`{"text":"x"}`)) != nil {
		t.Fatal("the listed input schema does not validate as the server declared it")
	}

	for _, server := range []string{"local", "web"} {
		if out := call(t, m, work, "mcp__"+server+"__echo", `{"text":"hi"}`); out.IsError || out.Content != "echo: hi" {
			t.Fatalf("%s echo: %+v", server, out)
		}
		if out := call(t, m, work, "mcp__"+server+"__fail", `{}`); !out.IsError || !strings.Contains(out.Content, "always fails") {
			t.Fatalf("%s fail: %+v", server, out)
		}
		if out := call(t, m, work, "mcp__"+server+"__nope", `{}`); !out.IsError || !strings.Contains(out.Content, "has no tool nope") {
			t.Fatalf("%s unknown tool: %+v", server, out)
		}
	}
	call(t, m, work, "mcp__local__write_note", `{"text":"one"}`)
	call(t, m, work, "mcp__web__write_note", `{"text":"two"}`)
	for file, want := range map[string]string{notes: "one\n", filepath.Join(work, "http-notes.txt"): "two\n"} {
		if b, _ := os.ReadFile(file); string(b) != want {
			t.Fatalf("%s holds %q, want %q", file, b, want)
		}
	}
	if out := call(t, m, work, "mcp__other__echo", `{}`); !out.IsError || !strings.Contains(out.Content, "not configured") {
		t.Fatalf("unconfigured server: %+v", out)
	}
}

// A server that crashes gives an error result; the next call starts it again.
func TestManagerReconnectsAfterCrash(t *testing.T) {
	work := t.TempDir()
	mcptest.Config(t, work, map[string]any{"local": mcptest.Stdio(t, filepath.Join(work, "notes.txt"))})
	m := newManager(t)
	if out := call(t, m, work, "mcp__local__echo", `{"text":"before"}`); out.Content != "echo: before" {
		t.Fatalf("echo: %+v", out)
	}
	out := call(t, m, work, "mcp__local__crash", `{}`)
	if !out.IsError || !strings.Contains(out.Content, "MCP server local is unavailable") ||
		!strings.Contains(out.Content, "it will be reconnected on the next call") {
		t.Fatalf("crash: %+v", out)
	}
	if !strings.Contains(out.Content, "crashing on request") {
		t.Errorf("the server's stderr is not in the error: %q", out.Content)
	}
	if out := call(t, m, work, "mcp__local__echo", `{"text":"after"}`); out.IsError || out.Content != "echo: after" {
		t.Fatalf("after the crash: %+v", out)
	}
}

// A server that cannot start is an error result (and a listing failure), never a hang.
func TestManagerServerThatCannotStart(t *testing.T) {
	work := t.TempDir()
	mcptest.Config(t, work, map[string]any{"broken": map[string]any{"command": filepath.Join(work, "no-such-binary")}})
	m := newManager(t)
	specs, failures, err := m.ListTools(testContext(t), work)
	if err != nil || len(specs) != 0 || len(failures) != 1 || failures[0].Server != "broken" ||
		!strings.Contains(failures[0].Error, "cannot connect") {
		t.Fatalf("list: %v %+v %+v", err, specs, failures)
	}
	if out := call(t, m, work, "mcp__broken__x", `{}`); !out.IsError || !strings.Contains(out.Content, "MCP server broken is unavailable") {
		t.Fatalf("call: %+v", out)
	}
}

// Close stops the stdio servers: their processes are gone, and later calls fail.
func TestManagerCloseStopsServers(t *testing.T) {
	work := t.TempDir()
	mcptest.Config(t, work, map[string]any{"local": mcptest.Stdio(t, filepath.Join(work, "notes.txt"))})
	m := mcptools.NewManager()
	pid, err := strconv.Atoi(call(t, m, work, "mcp__local__pid", `{}`).Content)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	// Close waits for the server to exit and reaps it: its pid is gone.
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Fatalf("server process %d after Close: kill 0 gives %v, want ESRCH", pid, err)
	}
	if _, err := m.Call(testContext(t), work, "mcp__local__echo", json.RawMessage(`{"text":"x"}`)); err != mcptools.ErrClosed {
		t.Fatalf("call after Close: %v", err)
	}
}
