package hooks

import (
	"fmt"
	"strings"
)

// DenyMessage is the error result of a call a PreToolUse hook denied: the model is
// told which hook phase refused and why, so it can change course.
func DenyMessage(toolName, reason string) string {
	if reason == "" {
		reason = "no reason given"
	}
	return fmt.Sprintf("%s:%s hook denied this tool call: %s", PreToolUse, toolName, reason)
}

// DenyText is the error result of a call the PreToolUse hooks r denied: a blocking
// error (a prompt hook's ok: false) in Claude Code's words for it, "PreToolUse:Bash
// hook error: [prompt]: reason"; any other deny as DenyMessage.
func DenyText(toolName string, r Result) string {
	if r.HookError {
		return fmt.Sprintf("%s:%s hook error: %s", PreToolUse, toolName, r.Reason)
	}
	return DenyMessage(toolName, r.Reason)
}

// WithContext appends hooks' additionalContext to a tool result, as Claude Code
// does: in a <system-reminder> block after the tool's own output, naming the phase
// it came from, so the model can tell it from what the tool printed.
func WithContext(content string, e Event, toolName string, ctx []string) string {
	if len(ctx) == 0 {
		return content
	}
	return appendReminder(content, fmt.Sprintf("%s:%s hook additional context: %s", e, toolName, strings.Join(ctx, "\n")))
}

// WithFeedback appends PostToolUse blocking feedback (decision block, or exit 2's
// stderr) to a result: the tool has already run, so the model is shown the feedback
// next to what it did.
func WithFeedback(content string, e Event, toolName string, feedback []string) string {
	if len(feedback) == 0 {
		return content
	}
	return appendReminder(content, fmt.Sprintf("%s:%s hook blocking feedback: %s", e, toolName, strings.Join(feedback, "\n")))
}

func appendReminder(content, text string) string {
	block := "<system-reminder>\n" + text + "\n</system-reminder>"
	if content == "" {
		return block
	}
	return strings.TrimRight(content, "\n") + "\n\n" + block
}
