package toolpipe

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// A query is answered by a worker replaying the workflow, so a query about a
// workflow that has closed waits for its timeout (10 s) when nothing polls its task
// queue: the starter that ran it has exited, or no worker of the cluster serves that
// queue any more. A closed workflow's state is in its history: what it was started
// with, the blocks streamed into it and its result. State reads it from there.

// closedRun is what the history of a closed run says.
type closedRun struct {
	status    enumspb.WorkflowExecutionStatus
	closeTime time.Time
	input     *commonpb.Payloads
	// added are the AddBlocks updates the run accepted, in order.
	added []*commonpb.Payloads
	// result is the completed run's result; failure says why any other run ended.
	result  *commonpb.Payloads
	failure string
}

// closed reports whether the latest run of workflow id has closed, and if so what
// its history says; nil while it runs.
func closed(ctx context.Context, c client.Client, id string) (*closedRun, error) {
	d, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return nil, err
	}
	info := d.GetWorkflowExecutionInfo()
	if info.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING || info.GetCloseTime() == nil {
		return nil, nil
	}
	r := &closedRun{status: info.GetStatus(), closeTime: info.GetCloseTime().AsTime()}
	iter := c.GetWorkflowHistory(ctx, id, info.GetExecution().GetRunId(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		r.read(ev)
	}
	return r, nil
}

// read keeps what one history event says about the run.
func (r *closedRun) read(ev *historypb.HistoryEvent) {
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes:
		r.input = a.WorkflowExecutionStartedEventAttributes.GetInput()
	case *historypb.HistoryEvent_WorkflowExecutionUpdateAcceptedEventAttributes:
		if in := a.WorkflowExecutionUpdateAcceptedEventAttributes.GetAcceptedRequest().GetInput(); in.GetName() == workflows.AddBlocksUpdate {
			r.added = append(r.added, in.GetArgs())
		}
	case *historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes:
		r.result = a.WorkflowExecutionCompletedEventAttributes.GetResult()
	case *historypb.HistoryEvent_WorkflowExecutionFailedEventAttributes:
		r.failure = innermost(a.WorkflowExecutionFailedEventAttributes.GetFailure())
	case *historypb.HistoryEvent_WorkflowExecutionTerminatedEventAttributes:
		r.failure = "terminated"
		if why := a.WorkflowExecutionTerminatedEventAttributes.GetReason(); why != "" {
			r.failure += ": " + why
		}
	case *historypb.HistoryEvent_WorkflowExecutionTimedOutEventAttributes:
		r.failure = "timed out"
	case *historypb.HistoryEvent_WorkflowExecutionCanceledEventAttributes:
		r.failure = "cancelled"
	}
}

// innermost is the message of a failure's deepest cause: the reason, without the
// wrappers' ids.
func innermost(f *failurepb.Failure) string {
	msg := f.GetMessage()
	for c := f.GetCause(); c != nil; c = c.GetCause() {
		msg = c.GetMessage()
	}
	return msg
}

// How is how the run closed, in lower case: "completed", "failed", "terminated"…
func (r *closedRun) how() string {
	return strings.ToLower(strings.TrimPrefix(r.status.String(), "WORKFLOW_EXECUTION_STATUS_"))
}

// decode decodes payloads, reading those kept outside history (over 128 KiB) from
// the state directory's payload store.
func (c *Client) decode(ctx context.Context, p *commonpb.Payloads, out ...any) error {
	if p == nil {
		return errors.New("the history holds no payload here")
	}
	resolved := make([]*commonpb.Payload, len(p.GetPayloads()))
	for i, pl := range p.GetPayloads() {
		var err error
		if resolved[i], err = c.resolve(ctx, pl); err != nil {
			return err
		}
	}
	return converter.GetDefaultDataConverter().FromPayloads(&commonpb.Payloads{Payloads: resolved}, out...)
}

// storageReference is the message type of the SDK's external storage reference
// payloads (encoding json/protobuf).
var storageReference = string((*sdkpb.ExternalStorageReference)(nil).ProtoReflect().Descriptor().FullName())

// resolve returns the payload a storage reference stands for, or p itself.
func (c *Client) resolve(ctx context.Context, p *commonpb.Payload) (*commonpb.Payload, error) {
	if string(p.GetMetadata()["encoding"]) != "json/protobuf" || string(p.GetMetadata()["messageType"]) != storageReference {
		return p, nil
	}
	var ref sdkpb.ExternalStorageReference
	if err := protojson.Unmarshal(p.GetData(), &ref); err != nil {
		return nil, fmt.Errorf("a payload stored outside history: %w", err)
	}
	if c.stateDir == "" {
		return nil, errors.New("a payload is stored outside history, in the state directory's payload store: create the client WithStateDir to read it")
	}
	d, err := persistence.NewPayloadDriver(filepath.Join(c.stateDir, persistence.PayloadDirName))
	if err != nil {
		return nil, err
	}
	if ref.GetDriverName() != d.Name() {
		return nil, fmt.Errorf("a payload is stored outside history by driver %q, not toolpipe's %q", ref.GetDriverName(), d.Name())
	}
	out, err := d.Retrieve(converter.StorageDriverRetrieveContext{Context: ctx},
		[]converter.StorageDriverClaim{{ClaimData: ref.GetClaimData()}})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// turnState is a closed turn's state as its history tells it: each call that has a
// result in arrival order, then those left without one (StatusUnfinished).
func (c *Client) turnState(ctx context.Context, r *closedRun) (TurnState, error) {
	st := TurnState{IntakeClosed: true}
	var in workflows.TurnInput
	if err := c.decode(ctx, r.input, &in); err != nil {
		return st, fmt.Errorf("its start input: %w", err)
	}
	blocks := append([]tool.Block(nil), in.Blocks...)
	for _, p := range r.added {
		var more []tool.Block
		if err := c.decode(ctx, p, &more); err != nil {
			return st, fmt.Errorf("streamed blocks: %w", err)
		}
		blocks = append(blocks, more...)
	}
	byID := map[string]tool.Block{}
	for _, b := range blocks {
		if _, ok := byID[b.ID]; !ok {
			byID[b.ID] = b
		}
	}
	var res workflows.TurnResult
	if r.result != nil {
		if err := c.decode(ctx, r.result, &res); err != nil {
			return st, fmt.Errorf("its result: %w", err)
		}
	}
	st.Notices = notices(res.Notices)
	done := map[string]bool{}
	for _, x := range res.Results {
		done[x.ToolUseID] = true
		st.Tools = append(st.Tools, closedCall(byID[x.ToolUseID], x.ToolUseID, StatusYielded, x.IsError))
		st.Errored = st.Errored || strings.HasPrefix(x.Content, "Cancelled: parallel tool call ")
	}
	for _, b := range blocks {
		if !done[b.ID] {
			done[b.ID] = true
			st.Tools = append(st.Tools, closedCall(b, b.ID, StatusUnfinished, false))
		}
	}
	return st, nil
}

// closedCall is one call of a closed turn; b is zero when the history does not
// hold its block.
func closedCall(b tool.Block, id string, status CallStatus, isError bool) ToolState {
	ts := ToolState{ID: id, Name: b.Name, Status: status, IsError: isError, Interrupt: InterruptBlock}
	if b.Name != "" {
		ts.Description = activities.Builtins().Describe(b)
	}
	if def, ok := activities.Builtins().Lookup(b.Name); ok {
		ts.Safe, ts.Interrupt = def.IsConcurrencySafe(b.Input), Interrupt(def.InterruptBehavior())
	}
	return ts
}

// sessionState is a closed session's state as its last run's history tells it: the
// result when it completed, what it was started with otherwise.
func (c *Client) sessionState(ctx context.Context, r *closedRun) (SessionState, error) {
	st := SessionState{Phase: PhaseDone}
	var in workflows.SessionInput
	if err := c.decode(ctx, r.input, &in); err != nil {
		return st, fmt.Errorf("its start input: %w", err)
	}
	st.SessionID, st.Model, st.ContextWindow, st.Compactions = in.SessionID, in.Model.Model, in.Model.ContextWindow, in.Model.Compactions
	if r.result == nil {
		st.LastError = r.how()
		if r.failure != "" && r.failure != st.LastError {
			st.LastError += ": " + r.failure
		}
		return st, nil
	}
	var res workflows.SessionResult
	if err := c.decode(ctx, r.result, &res); err != nil {
		return st, fmt.Errorf("its result: %w", err)
	}
	st.Turns, st.LastTurn, st.Usage, st.Cost, st.StopReason, st.LastError = res.Turns, res.LastTurn, usage(res.Usage), res.Cost, res.StopReason, res.Error
	st.Messages, st.Bytes = res.Conversation.Len(), res.Conversation.Bytes()
	if res.Budget != nil {
		st.Seen, st.Replaced = len(res.Budget.SeenIDs), len(res.Budget.Replacements)
	}
	return st, nil
}
