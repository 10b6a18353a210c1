package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// register installs the turn's updates, signal and query.
func (t *turn) register(ctx workflow.Context) error {
	if err := workflow.SetUpdateHandlerWithOptions(ctx, AddBlocksUpdate,
		func(ctx workflow.Context, blocks []tool.Block) (int, error) {
			if !t.ready {
				// The turn is starting (its MCP tools are being listed, or its start
				// input's blocks are not in yet): the blocks wait, so that their
				// names resolve and they come after the input's, and are checked
				// again against what arrived meanwhile.
				if err := workflow.Await(ctx, func() bool { return t.ready }); err != nil {
					return 0, err
				}
				if err := validateBlocks(t.tracker, blocks); err != nil {
					return 0, err
				}
			}
			t.add(blocks)
			return len(t.tracker.Tools()), nil
		},
		workflow.UpdateHandlerOptions{
			Validator: func(ctx workflow.Context, blocks []tool.Block) error {
				if t.closed {
					return rejection(ErrIntakeClosed, "the turn's intake is closed: no more tool_use blocks can be added")
				}
				return validateBlocks(t.tracker, blocks)
			},
			Description: "Add streamed tool_use blocks to the running turn; returns how many it tracks.",
		}); err != nil {
		return fmt.Errorf("turn: %w", err)
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, CloseIntakeUpdate,
		func(ctx workflow.Context) error {
			t.closed = true
			return nil
		},
		workflow.UpdateHandlerOptions{Description: "The assistant message has ended: no more tool_use blocks will come."}); err != nil {
		return fmt.Errorf("turn: %w", err)
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, CollectUpdate,
		func(ctx workflow.Context, req CollectRequest) (CollectResponse, error) {
			if err := workflow.Await(ctx, func() bool { return len(t.emitted) > req.From || t.finished() }); err != nil {
				return CollectResponse{}, err
			}
			resp := CollectResponse{Results: t.emitted[req.From:], Next: len(t.emitted), Done: t.finished()}
			if resp.Done {
				final := t.result()
				final.Results = nil
				resp.Final = &final
			}
			return resp, nil
		},
		workflow.UpdateHandlerOptions{
			Validator: func(ctx workflow.Context, req CollectRequest) error {
				if req.From < 0 || req.From > len(t.emitted) {
					return rejection(ErrBadCursor, "cursor %d is out of range: %d results were yielded so far", req.From, len(t.emitted))
				}
				return nil
			},
			Description: "Wait for and return the tool_results yielded since the cursor, in arrival order.",
		}); err != nil {
		return fmt.Errorf("turn: %w", err)
	}
	workflow.Go(ctx, func(ctx workflow.Context) {
		ch := workflow.GetSignalChannelWithOptions(ctx, InterruptSignal,
			workflow.SignalChannelOptions{Description: "The user sent a new message (or interrupted, no_message): stop the tools whose interrupt behaviour is cancel."})
		for {
			var req InterruptRequest
			ch.Receive(ctx, &req) // none before InterruptRequest existed: a new message
			t.interrupt(req)
		}
	})
	if err := t.registerApprovals(ctx); err != nil {
		return err
	}
	if err := workflow.SetQueryHandlerWithOptions(ctx, StateQuery, t.state,
		workflow.QueryHandlerOptions{Description: "Every tool's state, and whether the turn is interruptible now."}); err != nil {
		return fmt.Errorf("turn: %w", err)
	}
	return nil
}

// state is the State query's answer.
func (t *turn) state() (TurnState, error) {
	s := TurnState{Interruptible: t.tracker.Interruptible(), IntakeClosed: t.closed, Errored: t.tracker.Errored()}
	for _, x := range t.tracker.Tools() {
		ts := ToolState{
			ID: x.Block.ID, Name: x.Block.Name, Description: x.Description,
			Status: x.Status, Safe: x.Safe, Interrupt: x.Interrupt,
		}
		if x.Result != nil {
			ts.IsError = x.Result.IsError
			ts.Error = errorFirstLine(*x.Result)
		}
		if t.awaitingApproval(x.Block.ID) {
			ts.Status = StatusAwaitingApproval
		}
		s.Tools = append(s.Tools, ts)
	}
	s.Pending, s.Notices = t.pendingList(), t.gate.notices
	return s, nil
}
