package toolpipe

import (
	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// The conversions between the Go API's types (types.go) and the workflows' wire
// types: the one place that knows both.

func wireBlocks(bs []Block) []tool.Block {
	out := make([]tool.Block, len(bs))
	for i, b := range bs {
		out[i] = activities.Builtins().DropOversizeInput(tool.Block(b))
	}
	return out
}

func toolResults(rs []tool.Result) []ToolResult {
	out := make([]ToolResult, len(rs))
	for i, r := range rs {
		out[i] = ToolResult(r)
	}
	return out
}

func notices(ns []workflows.Notice) []Notice {
	if ns == nil {
		return nil
	}
	out := make([]Notice, len(ns))
	for i, n := range ns {
		out[i] = Notice(n)
	}
	return out
}

func turnResult(r workflows.TurnResult) TurnResult {
	return TurnResult{Results: toolResults(r.Results), ReadFiles: r.Context.ReadFiles, Stop: r.Stop, StopReason: r.StopReason, Notices: notices(r.Notices)}
}

func toolState(t workflows.ToolState) ToolState {
	return ToolState{ID: t.ID, Name: t.Name, Description: t.Description, Status: CallStatus(t.Status), Safe: t.Safe,
		Interrupt: Interrupt(t.Interrupt), IsError: t.IsError}
}

func pending(ps []workflows.PendingApproval) []PendingApproval {
	if ps == nil {
		return nil
	}
	out := make([]PendingApproval, len(ps))
	for i, p := range ps {
		out[i] = PendingApproval(p)
	}
	return out
}

func turnState(s workflows.TurnState) TurnState {
	st := TurnState{Interruptible: s.Interruptible, IntakeClosed: s.IntakeClosed, Errored: s.Errored,
		Pending: pending(s.Pending), Notices: notices(s.Notices)}
	for _, t := range s.Tools {
		st.Tools = append(st.Tools, toolState(t))
	}
	return st
}

func usage(u conversation.Usage) Usage { return Usage(u) }

func backgroundTasks(ts []hooks.BackgroundTask) []BackgroundTask {
	if ts == nil {
		return nil
	}
	out := make([]BackgroundTask, len(ts))
	for i, t := range ts {
		out[i] = BackgroundTask(t)
	}
	return out
}

func sessionState(s workflows.SessionState) SessionState {
	return SessionState{SessionID: s.SessionID, Phase: SessionPhase(s.Phase), TurnID: s.TurnID, TurnNumber: s.TurnNumber, Turns: s.Turns, LastTurn: s.LastTurn, Messages: s.Messages,
		Bytes: s.Bytes, PendingUser: s.PendingUser, Seen: s.Seen, Replaced: s.Replaced, Runs: s.Runs, Usage: usage(s.Usage),
		StopReason: s.StopReason, LastError: s.LastError, LastUsage: usage(s.LastUsage), Cost: s.Cost, Model: s.Model,
		ContextWindow: s.ContextWindow, Compactions: s.Compactions, BackgroundTasks: backgroundTasks(s.BackgroundTasks), Placement: placement(s.Placement)}
}

func sessionEvent(e workflows.SessionEvent) SessionEvent {
	return SessionEvent{Kind: EventKind(e.Kind), Text: e.Text, ToolUseID: e.ToolUseID, IsError: e.IsError, Turn: e.Turn, TurnID: e.TurnID}
}

func sessionResult(r workflows.SessionResult) SessionResult {
	return SessionResult{SessionID: r.SessionID, StopReason: r.StopReason, HookReason: r.HookReason, Text: r.Text, Turns: r.Turns, LastTurn: r.LastTurn,
		Usage: usage(r.Usage), Error: r.Error, Cost: r.Cost, Messages: r.Conversation.Len(), Bytes: r.Conversation.Bytes()}
}

func placement(p *contract.Placement) *Placement {
	if p == nil {
		return nil
	}
	return &Placement{Host: p.Host, Queue: p.Queue, Generation: p.Generation}
}
