package workflows

import (
	"encoding/json"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
)

// transcribes reports whether the turn keeps a transcript: hooks are configured and
// given a path. Turns from before hookTranscript replay without it.
func (t *turn) transcribes(ctx workflow.Context) bool {
	s := t.in.Settings
	if s == nil || s.TranscriptPath == "" || !s.Hooks.ToolGates() {
		return false
	}
	return workflow.GetVersion(ctx, hookTranscript, workflow.DefaultVersion, 1) >= 1
}

// entryBase is what every transcript entry of the turn shares.
func (t *turn) entryBase(ctx workflow.Context) hooks.EntryBase {
	return hooks.EntryBase{SessionID: t.in.SessionID, Cwd: t.in.Workdir, PromptID: t.promptID(ctx),
		PermissionMode: t.permissionMode(), Time: workflow.Now(ctx)}
}

// useUUID is the transcript id of the assistant entry of a tool_use block.
func (t *turn) useUUID(ctx workflow.Context, id string) string {
	return hooks.StableUUID("tool_use", workflow.GetInfo(ctx).WorkflowExecution.ID, id)
}

// transcribeUse writes the tool_use block as an assistant entry before its hooks
// run, so that a hook reading the transcript finds the call it is asked about.
func (t *turn) transcribeUse(ctx workflow.Context, b tool.Block) {
	if !t.transcribes(ctx) {
		return
	}
	block, _ := json.Marshal(map[string]any{"type": wire.BlockToolUse, "id": b.ID, "name": b.Name, "input": b.Input})
	msgID := hooks.StableUUID("message", workflow.GetInfo(ctx).WorkflowExecution.ID)
	t.appendTranscript(ctx, t.entryBase(ctx).AssistantEntry(t.useUUID(ctx, b.ID), t.in.TranscriptParent, msgID, block))
}

// transcribeResult writes a call's result as a user entry answering its tool_use.
func (t *turn) transcribeResult(ctx workflow.Context, r tool.Result, response json.RawMessage) {
	if !t.transcribes(ctx) {
		return
	}
	uuid := hooks.StableUUID("tool_result", workflow.GetInfo(ctx).WorkflowExecution.ID, r.ToolUseID)
	t.appendTranscript(ctx, t.entryBase(ctx).ToolResultEntry(uuid, t.useUUID(ctx, r.ToolUseID), r.ToolUseID, r.Content, r.IsError, response))
}

// appendTranscript runs the append activity and waits for it. A transcript that
// cannot be written does not fail the call: hooks are told its path all the same
// and the turn notes the problem for the user.
func (t *turn) appendTranscript(ctx workflow.Context, entries ...hooks.Entry) {
	if err := appendTranscript(ctx, t.in.Settings.TranscriptPath, entries); err != nil && !temporal.IsCanceledError(err) {
		t.notice("", "the transcript could not be written: "+failureMessage(err))
	}
}

// appendTranscript appends entries to the transcript at path. It is quick and
// idempotent (entries are skipped by uuid), so it is retried a few times.
func appendTranscript(ctx workflow.Context, path string, entries []hooks.Entry) error {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		Summary:             "Transcript",
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: 5},
	})
	waitCtx, _ := workflow.NewDisconnectedContext(ctx)
	return workflow.ExecuteActivity(actx, contract.TranscriptActivityName,
		hooks.TranscriptAppend{Path: path, Entries: entries}).Get(waitCtx, nil)
}
