package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
)

// CallModel streams the next assistant message of a session and stores it under
// req.Seq. As each tool_use block finishes streaming it is recorded in the store and
// handed to the running turn (req.TurnID), so tools start before the message ends;
// when the message ends the turn's intake is closed.
//
// A retry never hands over different blocks than an earlier attempt did: a message
// already stored is used as it is (the model is not asked again), and a stream that
// broke after a tool_use was handed over is finished with the blocks it had, since
// those tools are already running. Only a stream that broke before any tool_use is
// asked again from scratch.
func (a *Agent) CallModel(ctx context.Context, req conversation.ModelRequest) (conversation.ModelReply, error) {
	ctx = context.WithValue(ctx, turnOpenedKey{}, new(atomic.Bool))
	if a.convs.HasMessage(req.SessionID, req.Seq) {
		msg, err := a.convs.ReadMessage(req.SessionID, req.Seq)
		if err != nil {
			return conversation.ModelReply{}, storeError(err)
		}
		return a.finish(ctx, req, msg, conversation.Usage{}, true, false)
	}
	partial, err := a.convs.ReadPartial(req.SessionID, req.Seq)
	if err != nil {
		return conversation.ModelReply{}, storeError(err)
	}
	if hasToolUse(partial) {
		msg := conversation.Message{Role: wire.RoleAssistant, Content: partial, StopReason: wire.StopToolUse}
		return a.finish(ctx, req, msg, conversation.Usage{}, true, true)
	}
	if a.cfg.APIKey == "" {
		return conversation.ModelReply{}, temporal.NewApplicationErrorWithOptions(
			"model: the worker has no API key: set ANTHROPIC_API_KEY in its environment",
			contract.ErrModelNotConfigured, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	msgs, err := a.convs.Load(req.Conversation)
	if err != nil {
		return conversation.ModelReply{}, storeError(err)
	}
	params, err := buildParams(a.cfg.Tools, req, msgs)
	if err != nil {
		return conversation.ModelReply{}, temporal.NewApplicationErrorWithOptions("model: "+err.Error(),
			contract.ErrModelRejected, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	msg, usage, err := a.stream(ctx, req, params)
	if err != nil {
		return conversation.ModelReply{}, err
	}
	return a.finish(ctx, req, msg, usage, false, false)
}

// stream runs the streaming request, recording and delivering each tool_use block
// as it completes.
func (a *Agent) stream(ctx context.Context, req conversation.ModelRequest, params anthropic.MessageNewParams) (conversation.Message, conversation.Usage, error) {
	var blocks []wire.Block
	acc, err := a.consume(ctx, params, func(sctx context.Context, c anthropic.ContentBlockUnion) error {
		b, ok := toBlock(c)
		if !ok {
			return nil
		}
		blocks = append(blocks, b)
		if b.Type != wire.BlockToolUse {
			return nil
		}
		// Recorded before it is handed over: whatever the turn has, a retry finds.
		if err := a.convs.WritePartial(req.SessionID, req.Seq, blocks); err != nil {
			return storeError(err)
		}
		return a.deliver(sctx, req, b)
	}, func() int { return len(blocks) })
	if err != nil {
		return conversation.Message{}, conversation.Usage{}, err
	}
	msg := conversation.Message{Role: wire.RoleAssistant, Content: blocks, StopReason: string(acc.StopReason)}
	return msg, usageOf(acc), nil
}

// consume runs one streaming request to its end: every model call (a turn's message,
// a compaction's summary) goes through it, so each gets the same keep-alive, idle
// timeout and error classification, and a stream cut before message_stop is an
// error, never a shorter message. onBlock, when set, sees each content block as it
// completes; progress counts what was handed over, for the heartbeat.
func (a *Agent) consume(ctx context.Context, params anthropic.MessageNewParams,
	onBlock func(context.Context, anthropic.ContentBlockUnion) error, progress func() int) (anthropic.Message, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	alive := a.keepAlive(sctx, cancel)
	defer alive.stop()

	s := a.client.Messages.NewStreaming(sctx, params)
	defer s.Close()
	var acc anthropic.Message
	for s.Next() {
		ev := s.Current()
		n := 0
		if progress != nil {
			n = progress()
		}
		alive.touch(n)
		if err := acc.Accumulate(ev); err != nil {
			return anthropic.Message{}, temporal.NewApplicationErrorWithOptions(
				"model: malformed stream: "+err.Error(), contract.ErrModelUnavailable, temporal.ApplicationErrorOptions{})
		}
		if onBlock == nil || ev.Type != "content_block_stop" || int(ev.Index) >= len(acc.Content) {
			continue
		}
		if err := onBlock(sctx, acc.Content[ev.Index]); err != nil {
			return anthropic.Message{}, err
		}
	}
	if err := s.Err(); err != nil {
		if ctx.Err() != nil { // the activity was cancelled or timed out
			return anthropic.Message{}, ctx.Err()
		}
		if alive.idle() {
			err = fmt.Errorf("no event for %s: %w", a.cfg.IdleTimeout, err)
		}
		return anthropic.Message{}, modelError(err)
	}
	if acc.StopReason == "" {
		return anthropic.Message{}, temporal.NewApplicationErrorWithOptions(
			"model: the stream ended before the message did", contract.ErrModelUnavailable, temporal.ApplicationErrorOptions{})
	}
	noteModelResponse(ctx, acc) // telemetry_model.go
	return acc, nil
}

// usageOf is the usage the API reported for a message.
func usageOf(m anthropic.Message) conversation.Usage {
	return conversation.Usage{
		InputTokens: m.Usage.InputTokens, OutputTokens: m.Usage.OutputTokens,
		CacheCreationInputTokens: m.Usage.CacheCreationInputTokens, CacheReadInputTokens: m.Usage.CacheReadInputTokens,
	}
}

// finish stores the message (an earlier stored one wins), makes sure the turn has
// every tool_use block (again, when redeliver: they may predate a crash), closes the
// turn's intake and describes the message for the workflow.
func (a *Agent) finish(ctx context.Context, req conversation.ModelRequest, msg conversation.Message, usage conversation.Usage, redeliver, cut bool) (conversation.ModelReply, error) {
	stored, err := a.convs.WriteMessage(req.SessionID, req.Seq, msg)
	if err != nil {
		return conversation.ModelReply{}, storeError(err)
	}
	if redeliver {
		for _, b := range stored.Content {
			if b.Type == wire.BlockToolUse {
				if err := a.deliver(ctx, req, b); err != nil {
					return conversation.ModelReply{}, err
				}
			}
		}
	}
	turnCalls := hasTurnCalls(stored.Content)
	if req.OpenTurn && turnCalls {
		// The stream opened it with its first block; a stored message handed over
		// again opens it here if no block did (idempotent either way).
		if err := a.openTurn(ctx, req); err != nil {
			return conversation.ModelReply{}, err
		}
	}
	if req.TurnID != "" && (!req.OpenTurn || turnCalls) { // a turn never opened has no intake to close
		if err := a.cfg.Intake.Close(ctx, req.TurnID); err != nil {
			return conversation.ModelReply{}, intakeError("turn "+req.TurnID, err)
		}
	}
	// The head now includes the message, so a session resumed later continues after it.
	head := conversation.Head{
		Conversation: req.Conversation.Append(req.SessionID, req.Seq, 1, stored.Size()),
		Next:         req.Seq + 1, Forked: req.Forked, LastTurn: req.LastTurn, TurnsNumbered: req.TurnsNumbered,
		Parent: req.Parent, ForkedAt: req.ForkedAt,
	}
	if req.OpenTurn && turnCalls {
		head.LastTurn = req.Turn
	}
	if err := a.convs.WriteHead(req.SessionID, head); err != nil {
		return conversation.ModelReply{}, storeError(err)
	}
	if err := a.convs.RemovePartial(req.SessionID, req.Seq); err != nil {
		a.log.Warn("model: could not remove the partial message", "session", req.SessionID, "seq", req.Seq, "error", err)
	}
	return describe(a.cfg.Tools, req, stored, usage, cut), nil
}

// agentName is what Claude Code 2.1.328 calls its sub-agent tool, which it still
// answers to as Task: a model trained on it calls Agent. Where toolpipe offers Task,
// an Agent call is a Task call (the stored message keeps the name the model used,
// as Claude Code's transcript does); where it does not, the Turn answers that Agent
// is not available, in Claude Code's words (tool.UnknownToolMessage).
const agentName = "Agent"

// isTask reports whether a tool_use block of the reply to req is a Task call, which
// the Session runs itself.
func isTask(req conversation.ModelRequest, name string) bool {
	return name == tool.TaskName || req.Task && name == agentName
}

// deliver hands a tool_use block to the turn; Task blocks are the Session's own, handed
// to it when it takes them as they stream (req.TaskIntake), else it reads them from
// the reply.
func (a *Agent) deliver(ctx context.Context, req conversation.ModelRequest, b wire.Block) error {
	if req.TurnID == "" {
		return nil
	}
	if isTask(req, b.Name) {
		if !req.TaskIntake || !activity.IsActivity(ctx) {
			return nil
		}
		wf := activity.GetInfo(ctx).WorkflowExecution
		if err := a.cfg.Intake.DeliverTask(ctx, wf.ID, wf.RunID, req.TurnID, tool.Block{ID: b.ID, Name: tool.TaskName, Input: b.Input}); err != nil {
			return intakeError("session "+wf.ID, err)
		}
		return nil
	}
	if err := a.openTurn(ctx, req); err != nil {
		return err
	}
	if err := a.cfg.Intake.Deliver(ctx, req.TurnID, tool.Block{ID: b.ID, Name: b.Name, Input: b.Input}); err != nil {
		return intakeError("turn "+req.TurnID, err)
	}
	return nil
}

// turnOpenedKey holds, in a CallModel attempt's context, whether it has had the
// session open the turn (an *atomic.Bool).
type turnOpenedKey struct{}

// openTurn has the calling session start the turn (req.OpenTurn), once per attempt,
// before the first block is handed to it; a session that has it already says so.
func (a *Agent) openTurn(ctx context.Context, req conversation.ModelRequest) error {
	opened, _ := ctx.Value(turnOpenedKey{}).(*atomic.Bool)
	if !req.OpenTurn || !activity.IsActivity(ctx) || (opened != nil && opened.Load()) {
		return nil
	}
	wf := activity.GetInfo(ctx).WorkflowExecution
	if err := a.cfg.Intake.OpenTurn(ctx, wf.ID, wf.RunID, req.TurnID); err != nil {
		return intakeError("session "+wf.ID, err)
	}
	if opened != nil {
		opened.Store(true)
	}
	return nil
}

// hasTurnCalls says a message has a tool call for a Turn: a tool_use that is not
// Task (Task calls are the session's sub-agents).
func hasTurnCalls(blocks []wire.Block) bool {
	for _, b := range blocks {
		if b.Type == wire.BlockToolUse && b.Name != tool.TaskName {
			return true
		}
	}
	return false
}

// describe is what the workflow learns of a stored message; tools name its calls
// (a program's own tool by its own Subject).
func describe(tools *tool.Registry, req conversation.ModelRequest, m conversation.Message, usage conversation.Usage, cut bool) conversation.ModelReply {
	r := conversation.ModelReply{Seq: req.Seq, Size: m.Size(), StopReason: m.StopReason, Usage: usage, Cut: cut}
	for _, b := range m.Content {
		if b.Type != wire.BlockToolUse {
			continue
		}
		tu := conversation.ToolUse{ID: b.ID, Name: b.Name, Summary: tools.Describe(tool.Block{ID: b.ID, Name: b.Name, Input: b.Input})}
		if isTask(req, b.Name) {
			tu.Name, tu.Input = tool.TaskName, b.Input
		}
		tu.File = conversation.EditedFile(b.Name, b.Input) // the session's history (turns.go)
		r.ToolUses = append(r.ToolUses, tu)
	}
	r.Text = m.Text()
	if len(r.Text) > conversation.MaxReplyText {
		r.Text, r.TextTruncated = r.Text[:conversation.MaxReplyText], true
	}
	return r
}

// toBlock converts a finished content block; ok is false for types toolpipe does not
// keep (it asks for no thinking or server tools) and for empty texts, which the API
// would refuse in a later request.
func toBlock(c anthropic.ContentBlockUnion) (wire.Block, bool) {
	switch c.Type {
	case wire.BlockText:
		return wire.Block{Type: wire.BlockText, Text: c.Text}, c.Text != ""
	case wire.BlockToolUse:
		in := json.RawMessage(c.Input)
		// A later request must carry a JSON object; an input cut short (max_tokens)
		// becomes {} and fails the tool's schema check instead.
		var obj map[string]json.RawMessage
		if len(in) == 0 || json.Unmarshal(in, &obj) != nil || obj == nil {
			in = json.RawMessage("{}")
		}
		return wire.Block{Type: wire.BlockToolUse, ID: c.ID, Name: c.Name, Input: in}, true
	}
	return wire.Block{}, false
}

func hasToolUse(blocks []wire.Block) bool {
	for _, b := range blocks {
		if b.Type == wire.BlockToolUse {
			return true
		}
	}
	return false
}

// streamAlive heartbeats while events flow and cancels the stream when none came
// for the idle timeout: a hung connection then becomes a retry, not a stuck call.
type streamAlive struct {
	last    chan int
	done    chan struct{}
	expired chan struct{}
}

func (a *Agent) keepAlive(ctx context.Context, cancel context.CancelFunc) *streamAlive {
	s := &streamAlive{last: make(chan int, 1), done: make(chan struct{}), expired: make(chan struct{})}
	if !activity.IsActivity(ctx) {
		return s
	}
	go func() {
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		lastEvent, blocks := time.Now(), 0
		for {
			select {
			case <-s.done:
				return
			case <-ctx.Done():
				return
			case blocks = <-s.last:
				lastEvent = time.Now()
			case <-t.C:
				if time.Since(lastEvent) > a.cfg.IdleTimeout {
					close(s.expired)
					cancel()
					return
				}
				activity.RecordHeartbeat(ctx, blocks)
			}
		}
	}()
	return s
}

func (s *streamAlive) touch(blocks int) {
	select {
	case s.last <- blocks:
	default:
	}
}

func (s *streamAlive) stop() { close(s.done) }

func (s *streamAlive) idle() bool {
	select {
	case <-s.expired:
		return true
	default:
		return false
	}
}

func storeError(err error) error {
	if e := missingInStore(err); e != nil {
		return e
	}
	return temporal.NewApplicationErrorWithOptions("conversation store: "+err.Error(), contract.ErrConversationStore,
		temporal.ApplicationErrorOptions{Cause: err})
}

// intakeError: what (a turn or a session) did not take a block.
func intakeError(what string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return temporal.NewApplicationErrorWithOptions(fmt.Sprintf("%s: %v", what, err), contract.ErrTurnIntake,
		temporal.ApplicationErrorOptions{Cause: err})
}
