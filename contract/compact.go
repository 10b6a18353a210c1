package contract

import (
	"errors"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/conversation"
)

// CompactRequest asks for the summary of Conversation, stored as message Seq.
type CompactRequest struct {
	// Model is the request the session would make next (its model, system prompt and
	// tools), so that the summary call reads the same cached prefix.
	Model conversation.ModelRequest `json:"model"`
	// Instructions are the user's or a PreCompact hook's additions to CompactPrompt.
	Instructions string `json:"instructions,omitempty"`
	// Trigger is "auto" (the window) or "manual" (`starter agent compact`).
	Trigger string `json:"trigger"`
	// Dir is where the whole conversation stays on disk, named in the summary message.
	Dir string `json:"dir,omitempty"`
	// KeepBytes bounds the most recent messages kept as they are after the summary
	// (keptTail); 0 keeps none, as sessions from before kept-turns did.
	KeepBytes int `json:"keep_bytes,omitempty"`
	// FitTokens, when set, is how many tokens the summary request may take: the
	// oldest messages are left out of it beforehand until its estimate fits, so that
	// a compaction answering a refusal is not refused too. RefusedTokens, when set,
	// is what the API counted for the refused request, which had the same messages:
	// it calibrates the estimate (tokens per byte); without it bytes/4 is assumed.
	FitTokens     int `json:"fit_tokens,omitempty"`
	RefusedTokens int `json:"refused_tokens,omitempty"`
}

// CompactReply is what the workflow learns: the stored summary message's size, the
// call's usage, how many of the oldest messages were left out of the summary request
// because even it was too long for the window, and the recent messages kept after
// the summary (the compacted conversation is the summary followed by Kept).
type CompactReply struct {
	Seq     int                       `json:"seq"`
	Size    int                       `json:"size"`
	Usage   conversation.Usage        `json:"usage"`
	Dropped int                       `json:"dropped,omitempty"`
	Kept    conversation.Conversation `json:"kept,omitempty"`
}

// Compacted is the conversation a compaction leaves: the summary stored as message seq
// of session, followed by the kept messages.
func Compacted(session string, seq, size int, kept conversation.Conversation) conversation.Conversation {
	return append(conversation.Conversation{}.Append(session, seq, 1, size), kept...)
}

// IsPromptTooLong says err is the API's refusal of a request over the context
// window, which the model activity types ErrPromptTooLong. Failures recorded before
// that type existed are ErrModelRejected with the API's text ("prompt is too long:
// N tokens > M maximum"); they are still recognised so that those histories replay.
func IsPromptTooLong(err error) bool {
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) {
		return false
	}
	switch appErr.Type() {
	case ErrPromptTooLong:
		return true
	case ErrModelRejected:
		return strings.Contains(appErr.Message(), PromptTooLongText)
	}
	return false
}

// PromptTooLongText opens the message of the API's 400 invalid_request_error for a
// request over the context window. The Messages API gives that refusal no error
// type of its own, so the model activity classifies it by this text, once, where
// it reads the API's answer.
const PromptTooLongText = "prompt is too long"
