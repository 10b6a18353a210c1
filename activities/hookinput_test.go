package activities

import (
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/hooks"
)

// Hooks see an Edit's input with Claude Code's default replace_all: false added;
// an input that sets it, and other tools' inputs, are sent as they are.
func TestEditInputDefaults(t *testing.T) {
	enc := func(name, input string) string {
		in := builtin(t, name).HookInput([]byte(input))
		s, err := hooks.Input{HookEventName: hooks.PreToolUse, ToolName: name, ToolInput: in}.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct{ name, in, want string }{
		{"Edit", `{"file_path":"/a","old_string":"x","new_string":"y"}`, `"tool_input":{"file_path":"/a","old_string":"x","new_string":"y","replace_all":false}`},
		{"Edit", `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":true}`, `"tool_input":{"file_path":"/a","old_string":"x","new_string":"y","replace_all":true}`},
		{"Write", `{"file_path":"/a","content":""}`, `"tool_input":{"file_path":"/a","content":""}`},
	} {
		if got := enc(c.name, c.in); !strings.Contains(got, c.want) {
			t.Errorf("%s %s: %s", c.name, c.in, got)
		}
	}
}
