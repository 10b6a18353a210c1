package fakeanthropic

import (
	"fmt"
	"strings"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/wire"
)

// checkMessages refuses what the real API refuses, with its messages: a role other
// than user or assistant, a first message that is not the user's, an empty message
// (but a final assistant one), a tool_use not answered by tool_result blocks in the
// next message, and a tool_result whose tool_use is not in the previous message.
// Consecutive messages of one role count as one turn, as the API combines them.
func checkMessages(msgs []conversation.Message) error {
	type turn struct {
		role  string
		first int // index of its first message
		uses  []string
		// results by tool_use id, with where they are (messages.N.content.K).
		results map[string]string
	}
	var turns []*turn
	for i, m := range msgs {
		if m.Role != wire.RoleUser && m.Role != wire.RoleAssistant {
			return fmt.Errorf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		if len(m.Content) == 0 && !(i == len(msgs)-1 && m.Role == wire.RoleAssistant) {
			return fmt.Errorf("messages.%d: all messages must have non-empty content except for the optional final assistant message", i)
		}
		if len(turns) == 0 || turns[len(turns)-1].role != m.Role {
			turns = append(turns, &turn{role: m.Role, first: i, results: map[string]string{}})
		}
		t := turns[len(turns)-1]
		for k, b := range m.Content {
			switch b.Type {
			case wire.BlockToolUse:
				t.uses = append(t.uses, b.ID)
			case wire.BlockToolResult:
				t.results[b.ToolUseID] = fmt.Sprintf("messages.%d.content.%d", i, k)
			}
		}
	}
	if len(turns) > 0 && turns[0].role != wire.RoleUser {
		return fmt.Errorf("messages: first message must use the \"user\" role")
	}
	for n, t := range turns {
		if t.role == wire.RoleAssistant && len(t.uses) > 0 && n+1 < len(turns) {
			var missing []string
			for _, id := range t.uses {
				if _, ok := turns[n+1].results[id]; !ok {
					missing = append(missing, id)
				}
			}
			if len(missing) > 0 {
				return fmt.Errorf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. "+
					"Each `tool_use` block must have a corresponding `tool_result` block in the next message.", t.first, strings.Join(missing, ", "))
			}
		}
		if t.role != wire.RoleUser {
			continue
		}
		for id, where := range t.results {
			if n == 0 || !contains(turns[n-1].uses, id) {
				return fmt.Errorf("%s: unexpected `tool_use_id` found in `tool_result` blocks: %s. "+
					"Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", where, id)
			}
		}
	}
	return nil
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
