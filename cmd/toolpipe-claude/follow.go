package main

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// follower turns one prompt's run into Claude Code's message stream, from what
// toolpipe keeps: the session's stored messages (each assistant block once its
// message, or its partial record while the model streams, has it), the turn's
// results as they are yielded (Collect), and the calls waiting for approval
// (can_use_tool). It reads; the session runs without it, so a follower that dies
// loses nothing.
type follower struct {
	dr *driver
	p  *prompt
	d  *durable

	// seq is the next stored message to send; sent counts the blocks of message
	// seq already sent (from its partial record).
	seq, sent int
	// uses are the tool_use blocks sent, by id; results the tool_results sent.
	uses    map[string]wire.Block
	results map[string]bool
	// asked are the approvals handled; collecting the turns whose results are
	// being collected.
	asked      map[string]bool
	collecting map[string]bool
	yielded    chan yieldedResult
	answers    chan answered

	// streaming are the tool_use ids of the message still streaming; held the
	// results that answer them, sent once it is complete, as Claude Code's stream
	// shows a message's blocks before its results.
	streaming map[string]bool
	held      []tool.Result

	// storing is set while sendStored walks the store: a result it finds is sent
	// in place, never by walking the store again from within.
	storing bool

	userMessages int
	denials      []permissionDenial
	interrupted  []interruptedCall
	lastStop     string
	apiTime      time.Duration
	partialOpen  bool
}

type yieldedResult struct {
	r tool.Result
}

// answered is a handled approval: the call was denied (its denial is reported) or
// allowed.
type answered struct {
	id     string
	denied bool
}

func newFollower(dr *driver, p *prompt, from int) *follower {
	return &follower{dr: dr, p: p, d: p.d, seq: from, uses: map[string]wire.Block{}, results: map[string]bool{},
		asked: map[string]bool{}, collecting: map[string]bool{}, streaming: map[string]bool{}, yielded: make(chan yieldedResult, 64), answers: make(chan answered, 16)}
}

// pollEvery is how often the follower looks at the session: its messages, its
// turn's approvals.
const pollEvery = 50 * time.Millisecond

// follow sends the prompt's messages until its run ends, and returns its result.
func (f *follower) follow(ctx context.Context) (workflows.SessionResult, error) {
	type outcome struct {
		res workflows.SessionResult
		err error
	}
	done := make(chan outcome, 1)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		res, err := f.d.result(wctx, f.p.session)
		done <- outcome{res, err}
	}()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return workflows.SessionResult{}, ctx.Err()
		case y := <-f.yielded:
			f.sendResult(y.r)
		case a := <-f.answers:
			f.noteAnswer(a)
		case o := <-done:
			f.drain()
			return o.res, o.err
		case <-tick.C:
			f.poll(wctx)
		}
	}
}

// drain sends what is left once the run has ended: the stored messages, the
// results collected and not yet sent.
func (f *follower) drain() {
	f.sendStored()
	for {
		select {
		case y := <-f.yielded:
			f.sendResult(y.r)
		case a := <-f.answers:
			f.noteAnswer(a)
		default:
			f.sendStored()
			return
		}
	}
}

// poll sends the newly stored messages and looks at the running turn.
func (f *follower) poll(ctx context.Context) {
	f.sendStored()
	st, err := f.d.state(ctx, f.p.session)
	if err != nil {
		return
	}
	if st.Phase == toolpipe.PhaseModel {
		f.apiTime += pollEvery
	}
	if st.TurnID == "" {
		return
	}
	if !f.collecting[st.TurnID] {
		f.collecting[st.TurnID] = true
		go f.collect(ctx, st.TurnID)
	}
	pending, err := f.d.pendingApprovals(ctx, st.TurnID)
	if err != nil {
		return
	}
	for _, pa := range pending {
		if f.asked[pa.ToolUseID] {
			continue
		}
		f.asked[pa.ToolUseID] = true
		f.sendUpTo(pa.ToolUseID) // the SDK sees the call before it is asked about it
		if _, ok := f.uses[pa.ToolUseID]; !ok {
			f.uses[pa.ToolUseID] = wire.Block{Type: wire.BlockToolUse, ID: pa.ToolUseID, Name: pa.Tool, Input: pa.Input}
		}
		go f.approval(ctx, st.TurnID, pa)
	}
}

// collect passes the turn's results on as it yields them.
func (f *follower) collect(ctx context.Context, turnID string) {
	_ = f.d.follow(ctx, turnID, func(r tool.Result) { // an error: the run's end drains what the store has
		select {
		case f.yielded <- yieldedResult{r}:
		case <-ctx.Done():
		}
	})
}

// sendStored sends the messages stored since the last look, and the blocks of the
// one streaming now.
func (f *follower) sendStored() {
	if f.storing {
		return
	}
	f.storing = true
	defer func() { f.storing = false }()
	for {
		m, ok := f.d.message(f.p.session, f.seq)
		if !ok {
			f.sendPartial(f.d.partial(f.p.session, f.seq))
			return
		}
		switch m.Role {
		case wire.RoleAssistant:
			f.sendBlocks(m.Content, m.StopReason, true)
		case wire.RoleUser:
			for _, b := range m.Content {
				if b.Type == wire.BlockToolResult {
					f.sendResult(tool.Result{ToolUseID: b.ToolUseID, Content: b.Content, IsError: b.IsError})
				}
			}
		}
		f.seq, f.sent = f.seq+1, 0
	}
}

// sendPartial sends the blocks of the streaming message not sent yet.
func (f *follower) sendPartial(blocks []wire.Block) {
	if len(blocks) > f.sent {
		f.sendBlocks(blocks, "", false)
	}
}

// sendBlocks sends blocks[f.sent:] of message f.seq as assistant messages, one a
// block, as Claude Code does; final says the message is complete.
func (f *follower) sendBlocks(blocks []wire.Block, stop string, final bool) {
	id := messageID(f.p.session, f.seq)
	if f.dr.o.partial && !f.partialOpen && (len(blocks) > f.sent || final) {
		f.partialOpen = true
		// As Claude Code's: the status of the request, then its message_start.
		_ = f.dr.ch.send(map[string]any{"type": "system", "subtype": "status", "status": "requesting",
			"session_id": f.p.session, "uuid": newUUID()})
		var ttft int64
		_ = f.dr.ch.send(partialMessage{Type: "stream_event", SessionID: f.p.session, UUID: newUUID(), APIMessageID: id,
			TTFTMS: &ttft, ThinkingDisplay: "updates",
			Event: map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
				"model": f.p.model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": apiUsage{}}}})
	}
	for i := f.sent; i < len(blocks); i++ {
		b := blocks[i]
		streamed := f.dr.o.partial && f.streamBlock(i, b)
		if b.Type == wire.BlockToolUse {
			f.uses[b.ID] = b
			if !final {
				f.streaming[b.ID] = true
			}
		}
		_ = f.dr.ch.send(assistantMessage{Type: "assistant", SessionID: f.p.session, UUID: newUUID(), Timestamp: now(),
			Message: apiMessage{ID: id, Type: "message", Role: wire.RoleAssistant, Model: f.p.model, Content: []wire.Block{b}}})
		if streamed {
			// Claude Code sends a block's assistant message before its
			// content_block_stop.
			f.streamEvent(map[string]any{"type": "content_block_stop", "index": i})
		}
	}
	f.sent = len(blocks)
	if final {
		f.lastStop = stop
		clear(f.streaming)
		held := f.held
		f.held = nil
		defer func() {
			for _, r := range held {
				f.sendResult(r)
			}
		}()
		if f.dr.o.partial {
			f.streamEvent(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
				"usage": map[string]int{"output_tokens": 0}})
			f.streamEvent(map[string]any{"type": "message_stop"})
		}
		f.partialOpen = false
	}
}

// streamBlock sends a block as the stream events that made it, but for its
// content_block_stop, and says whether it did. toolpipe's model activity keeps
// blocks, not their deltas: each arrives as one delta.
func (f *follower) streamBlock(i int, b wire.Block) bool {
	switch b.Type {
	case wire.BlockText:
		f.streamEvent(map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]string{"type": "text", "text": ""}})
		f.streamEvent(map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]string{"type": "text_delta", "text": b.Text}})
	case wire.BlockToolUse:
		f.streamEvent(map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
		f.streamEvent(map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]string{"type": "input_json_delta", "partial_json": string(b.Input)}})
	default:
		return false
	}
	return true
}

func (f *follower) streamEvent(ev any) {
	_ = f.dr.ch.send(partialMessage{Type: "stream_event", Event: ev, SessionID: f.p.session, UUID: newUUID(),
		APIMessageID: messageID(f.p.session, f.seq)})
}

// sendUpTo sends the streaming message's blocks up to the tool_use id, when they
// are recorded and not sent yet.
func (f *follower) sendUpTo(id string) {
	if _, ok := f.uses[id]; ok {
		return
	}
	f.sendStored()
}

// sendResult sends one tool_result, once, after its tool_use.
func (f *follower) sendResult(r tool.Result) {
	if f.results[r.ToolUseID] {
		return
	}
	f.sendUpTo(r.ToolUseID)
	if f.streaming[r.ToolUseID] {
		f.held = append(f.held, r)
		return
	}
	f.results[r.ToolUseID] = true
	use, ok := f.uses[r.ToolUseID]
	if !ok {
		// A call of an earlier prompt's message (a session resumed after its
		// process was killed): its tool_use was sent by that process.
		use = f.storedUse(r.ToolUseID)
	}
	f.noteResult(use, r)
	f.userMessages++
	_ = f.dr.ch.send(toolResult(wire.ToolResultBlock(r.ToolUseID, r.Content, r.IsError), use.Name, use.Input, f.p.session))
}

// storedUse is the tool_use block id of a message stored before the prompt's
// first, found by walking back from there.
func (f *follower) storedUse(id string) wire.Block {
	for seq := f.seq - 1; seq >= 1; seq-- {
		m, ok := f.d.message(f.p.session, seq)
		if !ok {
			break
		}
		for _, b := range m.Content {
			if b.Type == wire.BlockToolUse && b.ID == id {
				return b
			}
		}
	}
	return wire.Block{Type: wire.BlockToolUse, ID: id}
}

// noteResult records what a result says the result message must report: a call
// refused by a hook or a rule (permission_denials), a call a lost worker
// interrupted.
func (f *follower) noteResult(use wire.Block, r tool.Result) {
	if !r.IsError {
		return
	}
	switch {
	case strings.Contains(r.Content, "interrupted: the worker running this tool was lost"):
		f.interrupted = append(f.interrupted, interruptedCall{ToolUseID: r.ToolUseID, Tool: use.Name, Message: r.Content})
	case strings.HasPrefix(r.Content, "PreToolUse:") && strings.Contains(r.Content, " hook error: "),
		strings.HasPrefix(r.Content, "Permission to ") && strings.Contains(r.Content, "denied"):
		f.deny(use)
	}
}

func (f *follower) deny(use wire.Block) {
	for _, d := range f.denials {
		if d.ToolUseID == use.ID {
			return
		}
	}
	in := use.Input
	if len(in) == 0 {
		in = json.RawMessage("{}")
	}
	f.denials = append(f.denials, permissionDenial{ToolName: use.Name, ToolUseID: use.ID, ToolInput: in})
}

func (f *follower) noteAnswer(a answered) {
	if a.denied {
		f.deny(f.uses[a.id])
	}
}

// messageID is the id of stored message seq, the same in every process: the
// API's own ids are not kept.
func messageID(session string, seq int) string {
	return "msg_tp_" + strings.ReplaceAll(session, "-", "")[:min(len(session), 16)] + "_" + itoa(seq)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// result is the prompt's result message, from the run's result and what the
// stream showed.
func (f *follower) result(res workflows.SessionResult, err error) resultMessage {
	r := newResult(f.p.session, "success", false, f.p.start)
	r.Toolpipe = &resultToolpipe{Workflow: f.d.workflowID(f.p.session), Interrupted: f.interrupted}
	r.PermissionDenials = append(r.PermissionDenials, f.denials...)
	if err != nil {
		r.Subtype, r.IsError, r.TerminalReason = "error_during_execution", true, "error"
		r.Errors = []string{"toolpipe: session " + f.p.session + ": " + err.Error()}
		r.NumTurns = f.userMessages + 1
		return r
	}
	if res.StopReason == workflows.StopInterrupted || f.p.interrupted.Load() {
		// As Claude Code tells the conversation after an interrupt.
		_ = f.dr.ch.send(textMessage("[Request interrupted by user for tool use]", f.p.session))
		f.userMessages++
	}
	text := res.Text
	switch {
	case res.StopReason == workflows.StopInterrupted || f.p.interrupted.Load():
		r.Subtype, r.IsError, r.TerminalReason = "error_during_execution", true, "aborted_tools"
		r.Errors = []string{"the user interrupted the prompt"}
	case res.StopReason == workflows.StopMaxTurns:
		r.Subtype, r.IsError, r.TerminalReason = "error_max_turns", true, "max_turns"
		r.Errors = []string{"Reached maximum number of turns (" + itoa(res.Turns) + ")"}
	case res.StopReason == workflows.StopMaxBudget:
		r.Subtype, r.IsError, r.TerminalReason = "error_max_budget_usd", true, "max_budget"
		r.Errors = []string{"Reached maximum budget ($" + strings.TrimRight(strings.TrimRight(jsonFloat(f.dr.o.maxBudget), "0"), ".") + ")"}
	case res.StopReason == workflows.StopModelError:
		r.Subtype, r.IsError, r.TerminalReason = "error_during_execution", true, "model_error"
		r.Errors = []string{"API Error: " + res.Error}
	default:
		r.Result = &text
		r.successTimings = &successTimings{}
		if res.StopReason == workflows.StopHook {
			r.TerminalReason = "hook_stopped"
		}
	}
	r.NumTurns = f.userMessages + 1
	if f.lastStop != "" {
		stop := f.lastStop
		r.StopReason = &stop
	}
	r.TotalCostUSD = res.Cost
	r.Usage = usageOf(res.Usage)
	r.ModelUsage = modelUsageOf(f.p.model, res.Usage, res.Cost)
	r.ModelUsageSince = r.ModelUsage
	r.DurationAPIMS = f.apiTime.Milliseconds()
	return r
}

func jsonFloat(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}
