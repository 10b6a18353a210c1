package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// turnIntake hands streamed tool_use blocks to Turn workflows with their AddBlocks and
// CloseIntake updates, and Task blocks to Sessions with their StartTask update,
// through the client of the worker running the model activity. tools are the
// worker's, whose input limits apply (tool.Registry.DropOversizeInput).
type turnIntake struct{ tools *tool.Registry }

func (turnIntake) client(ctx context.Context) (client.Client, error) {
	if !activity.IsActivity(ctx) {
		return nil, fmt.Errorf("turn intake: no Temporal client outside an activity")
	}
	return activity.GetClient(ctx), nil
}

// Deliver adds b to the turn. A rejected update is not an error when the turn
// already tracks the block (an earlier attempt of the model call delivered it: the
// turn says DuplicateToolUseID) or has finished (its intake was closed once every
// block was in).
func (ti turnIntake) Deliver(ctx context.Context, turnID string, b tool.Block) error {
	c, err := ti.client(ctx)
	if err != nil {
		return err
	}
	// An input over its tool's limit is dropped before it is stored (tool.Registry.DropOversizeInput).
	err = update(ctx, c, turnID, "", workflows.AddBlocksUpdate, []tool.Block{ti.tools.DropOversizeInput(b)})
	if err == nil || workflows.Rejected(err, workflows.ErrDuplicateToolUseID) || finished(ctx, c, turnID) {
		return nil
	}
	return fmt.Errorf("add %s: %w", b.ID, err)
}

// Close closes the turn's intake; a turn that has finished is closed already.
func (ti turnIntake) Close(ctx context.Context, turnID string) error {
	c, err := ti.client(ctx)
	if err != nil {
		return err
	}
	if err := update(ctx, c, turnID, "", workflows.CloseIntakeUpdate); err != nil && !finished(ctx, c, turnID) {
		return fmt.Errorf("close intake: %w", err)
	}
	return nil
}

// DeliverTask hands a Task block to the session run that streamed it, which starts
// the sub-agent at once; the session answers a block it already has with success.
func (ti turnIntake) DeliverTask(ctx context.Context, sessionID, runID, turnID string, b tool.Block) error {
	c, err := ti.client(ctx)
	if err != nil {
		return err
	}
	req := workflows.StartTaskRequest{TurnID: turnID, ID: b.ID, Input: b.Input}
	if err := update(ctx, c, sessionID, runID, workflows.StartTaskUpdate, req); err != nil {
		return fmt.Errorf("start task %s: %w", b.ID, err)
	}
	return nil
}

// OpenTurn has the session run start the turn of the model call now streaming; the
// session answers a turn it has started already with success.
func (ti turnIntake) OpenTurn(ctx context.Context, sessionID, runID, turnID string) error {
	c, err := ti.client(ctx)
	if err != nil {
		return err
	}
	if err := update(ctx, c, sessionID, runID, workflows.OpenTurnUpdate, workflows.OpenTurnRequest{TurnID: turnID}); err != nil {
		return fmt.Errorf("open turn %s: %w", turnID, err)
	}
	return nil
}

// updateTries bounds the tries of one update the server cut short.
const updateTries = 4

// update sends an update and waits for its result. The server may end the wait with
// Canceled while the workflow is busy (a turn completing as its intake closes); the
// updates sent here are idempotent, so such a cut is tried again while ctx lives.
func update(ctx context.Context, c client.Client, id, runID, name string, args ...any) error {
	var err error
	for try := 1; try <= updateTries; try++ {
		if err = updateOnce(ctx, c, id, runID, name, args...); err == nil {
			return nil
		}
		var cut *client.WorkflowUpdateServiceTimeoutOrCanceledError
		if !errors.As(err, &cut) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(try) * 50 * time.Millisecond):
		}
	}
	return err
}

func updateOnce(ctx context.Context, c client.Client, id, runID, name string, args ...any) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, RunID: runID, UpdateName: name, Args: args, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return err
	}
	return h.Get(ctx, nil)
}

// finished reports whether the turn's workflow is no longer running.
func finished(ctx context.Context, c client.Client, turnID string) bool {
	d, err := c.DescribeWorkflowExecution(ctx, turnID, "")
	return err == nil && d.WorkflowExecutionInfo.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
}
