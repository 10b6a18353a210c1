package testenv

import (
	"encoding/json"
	"testing"

	"github.com/toolpipe/toolpipe/wire"
)

// CheckExampleTurn asserts that out is the tool_result message the README's example
// turn (examples/turn.json, run with the repository root root as working directory)
// must print, wherever it ran: the embedded default or a cluster.
func CheckExampleTurn(t testing.TB, root string, out []byte) {
	_ = root // results are relative to it, as Claude Code prints them
	t.Helper()
	m := DecodeUserMessage(t, out)
	want := []struct {
		id, content string
		isError     bool
	}{
		{"toolu_01", "examples/project/main.go", false}, // relative to the working directory, as Claude Code prints it
		{"toolu_02", "examples/project/main.go:7:\t// TODO: greet the user by name", false},
		{"toolu_03", "9 examples/project/main.go", false},
		{"toolu_04", "(Bash completed with no output)", false},
		{"toolu_05", "<tool_use_error>Error: No such tool available: Frobnicate</tool_use_error>", true},
	}
	if m.Role != "user" || len(m.Content) != len(want) {
		t.Fatalf("got %s", out)
	}
	for i, w := range want {
		c := m.Content[i]
		if c.Type != "tool_result" || c.ToolUseID != w.id || c.Content != w.content || c.IsError != w.isError {
			t.Errorf("result %d: %+v, want %+v", i, c, w)
		}
	}
}

// UserMessage is the tool_result user message `starter run` prints, as the
// end-to-end tests read it.
type UserMessage struct {
	Role    string       `json:"role"`
	Content []wire.Block `json:"content"`
}

// DecodeUserMessage parses out as a UserMessage, failing the test when it is not one.
func DecodeUserMessage(t testing.TB, out []byte) UserMessage {
	t.Helper()
	var m UserMessage
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("stdout is not a user message: %v\n%s", err, out)
	}
	return m
}
