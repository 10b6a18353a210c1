package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// The README's offline example: a scripted model drives three tool calls in the
// example project, and the session's progress is shown as it happens.
func TestAgentFakeModelExample(t *testing.T) {
	root := repoRoot(t)
	cmd := starter(t, t.TempDir(), "agent", "--workdir", root, "--session", "demo",
		"--fake-model", filepath.Join(root, "examples", "agent-script.json"), "What is left to do in examples/project?")
	cmd.Dir = root
	out, stderr := output(t, "agent", cmd)
	for _, want := range []string{
		"> What is left to do in examples/project?",
		"  -> Glob(examples/project/*.go) [toolu_a1]",
		"  <- toolu_a2 examples/project/main.go:7:", // relative, as Claude Code prints it
		"  <- toolu_a3 9 examples/project/main.go",
		"examples/project/main.go has 9 lines and one TODO: greet the user by name.",
		"(session ended: end_turn)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Off a terminal, stderr has a line per model call and plain progress lines for
	// every turn's tools (agent_view.go).
	for _, want := range []string{
		"● model call 1: ", "● model call 3: ",
		"  toolu_a1 Glob(examples/project/*.go): done",
		"  toolu_a2 Grep(",
		"  toolu_a3 Bash(wc -l examples/project/main.go): done",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "\x1b") {
		t.Errorf("escape sequences on a stderr that is not a terminal:\n%q", stderr)
	}
}

// The process running the session (worker and embedded server) is killed while a
// tool runs; `starter agent --session S` attaches again, the session finishes, and
// nothing that completed ran twice: the finished tool and the model calls.
func TestAgentCrashAndResume(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("a1", "Bash", `{"command":"echo done >> count"}`)}},
		{Content: []wire.Block{toolUseBlock("a2", "Bash", `{"command":"echo started >> running; sleep 120"}`)}},
		{Content: []wire.Block{{Type: "text", Text: "finished"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	args := []string{"agent", "--session", "crash", "--workdir", work, "--heartbeat-timeout", "2s"}
	first := starter(t, state, append(args, "count and wait")...)
	first.Env = append(first.Env, "ANTHROPIC_BASE_URL="+fake.URL(), "ANTHROPIC_API_KEY=k-e2e")
	killWhenRunning(t, first, filepath.Join(work, "running")) // e2e_test.go

	second := starter(t, state, args...)
	second.Env = append(second.Env, "ANTHROPIC_BASE_URL="+fake.URL(), "ANTHROPIC_API_KEY=k-e2e")
	out, _ := output(t, "attach", second)
	if !strings.Contains(string(out), "finished") || !strings.Contains(string(out), "(session ended: end_turn)") {
		t.Fatalf("after resume:\n%s", out)
	}
	for file, want := range map[string]string{"count": "done\n", "running": "started\n"} {
		if b, _ := os.ReadFile(filepath.Join(work, file)); string(b) != want {
			t.Errorf("%s is %q, want %q: a tool ran again", file, b, want)
		}
	}
	reqs := fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3: a model call ran twice", len(reqs))
	}
	last := reqs[2].Messages[len(reqs[2].Messages)-1]
	if len(last.Content) != 1 || last.Content[0].ToolUseID != "a2" || !last.Content[0].IsError ||
		!strings.Contains(last.Content[0].Content, "worker running this tool was lost") {
		t.Fatalf("the interrupted tool's result: %+v", last)
	}
}

func toolUseBlock(id, name, input string) wire.Block {
	return wire.Block{Type: "tool_use", ID: id, Name: name, Input: json.RawMessage(input)}
}
