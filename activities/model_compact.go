package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
)

// CompactPrompt is what the model is asked when a conversation is compacted: a
// summary in fixed sections, so that nothing the work depends on is lost.
const CompactPrompt = `Your context window is nearly full, so this conversation will be replaced by a summary that you write now. Write the summary of the conversation so far that you would need to carry on the work without it. Use these sections:

1. Goals: what the user asked for, in their words where it matters, and any later changes of mind.
2. Decisions: what was decided and why, approaches tried and dropped.
3. Files: every file read, created or changed, by absolute path, with what was learnt or changed in each.
4. Errors: errors met (commands, messages) and how they were resolved, or that they were not.
5. Open work: what is still to do, and the very next step.

Be specific: names, paths, commands, numbers and snippets of code that matter. Do not call tools. Reply with the summary only.`

// CompactConversation asks the model for a summary of the whole conversation and
// stores it as a user message under req.Model.Seq; the conversation continues from
// the summary followed by the most recent messages that fit req.KeepBytes. A summary
// already stored (a retry after a crash) is returned as it is, with the same kept
// messages. When the summary request is itself too long, the oldest messages are left
// out, halving what is sent, up to four times.
func (a *Agent) CompactConversation(ctx context.Context, req contract.CompactRequest) (contract.CompactReply, error) {
	mr := req.Model
	msgs, err := a.convs.Load(mr.Conversation)
	if err != nil {
		return contract.CompactReply{}, storeError(err)
	}
	nKept, kept := keptTail(msgs, mr.Conversation.Refs(), req.KeepBytes)
	if a.convs.HasMessage(mr.SessionID, mr.Seq) {
		m, err := a.convs.ReadMessage(mr.SessionID, mr.Seq)
		if err != nil {
			return contract.CompactReply{}, storeError(err)
		}
		return contract.CompactReply{Seq: mr.Seq, Size: m.Size(), Kept: kept}, nil
	}
	if a.cfg.APIKey == "" {
		return contract.CompactReply{}, temporal.NewApplicationErrorWithOptions(
			"model: the worker has no API key: set ANTHROPIC_API_KEY in its environment",
			contract.ErrModelNotConfigured, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	prompt := CompactPrompt
	if s := strings.TrimSpace(req.Instructions); s != "" {
		prompt += "\n\nAdditional instructions for this summary:\n" + s
	}
	drop := fitDrop(a.cfg.Tools, mr, msgs, prompt, req.FitTokens, req.RefusedTokens)
	for tries := 0; ; tries++ {
		send := append(cleanStart(msgs[drop:]), conversation.UserText(prompt))
		params, err := buildParams(a.cfg.Tools, mr, send)
		if err != nil {
			return contract.CompactReply{}, temporal.NewApplicationErrorWithOptions("model: "+err.Error(),
				contract.ErrModelRejected, temporal.ApplicationErrorOptions{NonRetryable: true})
		}
		text, usage, err := a.summarize(ctx, params)
		if err != nil && tries < 4 && contract.IsPromptTooLong(err) && len(msgs)-drop > 2 {
			drop += (len(msgs) - drop) / 2
			continue
		}
		if err != nil {
			return contract.CompactReply{}, err
		}
		if strings.TrimSpace(text) == "" {
			return contract.CompactReply{}, temporal.NewApplicationErrorWithOptions("model: the summary came back empty",
				contract.ErrModelUnavailable, temporal.ApplicationErrorOptions{})
		}
		m := conversation.UserText(SummaryMessage(text, req.Dir, nKept))
		stored, err := a.convs.WriteMessage(mr.SessionID, mr.Seq, m)
		if err != nil {
			return contract.CompactReply{}, storeError(err)
		}
		// A session resumed from the store continues from the summary and the kept
		// messages too.
		head := conversation.Head{Conversation: contract.Compacted(mr.SessionID, mr.Seq, stored.Size(), kept),
			Next: mr.Seq + 1, Forked: mr.Forked, LastTurn: mr.LastTurn, TurnsNumbered: mr.TurnsNumbered,
			Parent: mr.Parent, ForkedAt: mr.ForkedAt}
		if err := a.convs.WriteHead(mr.SessionID, head); err != nil {
			return contract.CompactReply{}, storeError(err)
		}
		return contract.CompactReply{Seq: mr.Seq, Size: stored.Size(), Usage: usage, Dropped: drop, Kept: kept}, nil
	}
}

// fitDrop is how many of the oldest messages the summary request leaves out from the
// start so that its estimate fits fit tokens (0: no bound, none left out). The
// estimate is the request's JSON size at the tokens per byte the refused request had
// (refused tokens for the same messages without the prompt), else at bytes/4. At
// least the last two messages are always sent.
func fitDrop(tools *tool.Registry, mr conversation.ModelRequest, msgs []conversation.Message, prompt string, fit, refused int) int {
	if fit <= 0 || len(msgs) <= 2 {
		return 0
	}
	size := func(send []conversation.Message) int {
		p, err := buildParams(tools, mr, send)
		if err != nil {
			return 0 // the request itself reports it
		}
		b, err := json.Marshal(p)
		if err != nil {
			return 0
		}
		return len(b)
	}
	perByte := 1.0 / 4
	if refused > 0 {
		if b := size(msgs); b > 0 {
			perByte = float64(refused) / float64(b)
		}
	}
	fits := func(drop int) bool {
		return float64(size(append(cleanStart(msgs[drop:]), conversation.UserText(prompt))))*perByte <= float64(fit)
	}
	if fits(0) {
		return 0
	}
	// The smallest drop that fits: the estimate shrinks as more is left out.
	lo, hi := 1, len(msgs)-2
	for lo < hi {
		mid := (lo + hi) / 2
		if fits(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// SummaryMessage is the user message a compacted session continues from; kept is how
// many of the most recent messages follow it as they were.
func SummaryMessage(summary, dir string, kept int) string {
	var b strings.Builder
	b.WriteString("This session continues an earlier conversation that was compacted to fit the context window. Its summary:\n\n")
	b.WriteString(strings.TrimSpace(summary))
	if dir != "" {
		fmt.Fprintf(&b, "\n\nThe whole earlier conversation is stored under %s, one JSON file per message, if a detail is missing.", dir)
	}
	if kept > 0 {
		fmt.Fprintf(&b, "\n\nThe %d most recent messages of the conversation follow this summary as they were.", kept)
	}
	b.WriteString("\n\nContinue the work from where it stopped, without asking the user to repeat anything.")
	return b.String()
}

// cleanStart drops leading messages until the first is a user message that answers
// no tool call: a cut conversation must not open with orphaned tool_results.
func cleanStart(msgs []conversation.Message) []conversation.Message {
	for len(msgs) > 0 {
		m := msgs[0]
		orphan := m.Role != wire.RoleUser
		for _, b := range m.Content {
			orphan = orphan || b.Type == wire.BlockToolResult
		}
		if !orphan {
			break
		}
		msgs = msgs[1:]
	}
	return msgs
}

// summarize streams the summary's text; tool calls, which it was told not to make,
// are ignored.
func (a *Agent) summarize(ctx context.Context, params anthropic.MessageNewParams) (string, conversation.Usage, error) {
	acc, err := a.consume(ctx, params, nil, nil)
	if err != nil {
		return "", conversation.Usage{}, err
	}
	var text strings.Builder
	for _, c := range acc.Content {
		if c.Type == wire.BlockText {
			text.WriteString(c.Text)
		}
	}
	return text.String(), usageOf(acc), nil
}
