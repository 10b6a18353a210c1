package activities

import (
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/wire"
)

// keptTail chooses the most recent messages a compacted conversation keeps after its
// summary, as they were sent: the longest tail of msgs (parallel to refs) whose size
// stays within keepBytes and within half of the conversation (so that a compaction,
// a manual one of a short conversation too, always at least halves what is sent),
// and that opens where a request may continue from a summary
// (a user message): with an assistant message, whose tool calls the tail's next
// message answers, or with a user message that answers no tool call. A tail never
// opens with tool_result blocks, whose tool_use would be gone, so every kept call
// keeps its result. It returns how many messages are kept and their conversation,
// with exact sizes. Kept messages are the stored bytes the budget produced, so their
// replaced results stay replaced.
func keptTail(msgs []conversation.Message, refs []conversation.Ref, keepBytes int) (int, conversation.Conversation) {
	if keepBytes <= 0 || len(msgs) != len(refs) {
		return 0, nil
	}
	total := 0
	for _, m := range msgs {
		total += m.Size()
	}
	keepBytes = min(keepBytes, total/2)
	start, size := len(msgs), 0
	for i := len(msgs) - 1; i >= 0; i-- {
		size += msgs[i].Size()
		if size > keepBytes {
			break
		}
		if canOpenTail(msgs[i]) {
			start = i
		}
	}
	var kept conversation.Conversation
	for i := start; i < len(msgs); i++ {
		kept = kept.Append(refs[i].Session, refs[i].Seq, 1, msgs[i].Size())
	}
	return len(msgs) - start, kept
}

// canOpenTail says a kept tail may start with m right after the summary (a user
// message): an assistant message that says something (an empty one is never sent, so
// what follows it would open the tail), or a user message with no tool_result.
func canOpenTail(m conversation.Message) bool {
	if len(m.Content) == 0 {
		return false
	}
	if m.Role == wire.RoleAssistant {
		for _, b := range m.Content {
			if b.Text != "" || b.Type == wire.BlockToolUse {
				return true
			}
		}
		return false
	}
	for _, b := range m.Content {
		if b.Type == wire.BlockToolResult {
			return false
		}
	}
	return m.Role == wire.RoleUser
}
