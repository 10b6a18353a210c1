package main

import (
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/toolpipe/toolpipe/activities"
)

// After a retry the server still holds the previous attempt's heartbeat details
// until the new attempt heartbeats: the progress line must not show that attempt's
// last output line as this one's (it did, issue 32).
func TestProgressAfterARetryShowsNoOldOutput(t *testing.T) {
	details, err := converter.GetDefaultDataConverter().ToPayloads(activities.Progress{ToolUseID: "b1", LastLine: "attempt 1 was here"})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	pending := func(heartbeat, started time.Time, attempt int32) *workflowservice.DescribeWorkflowExecutionResponse {
		return &workflowservice.DescribeWorkflowExecutionResponse{PendingActivities: []*workflowpb.PendingActivityInfo{{
			ActivityType: &commonpb.ActivityType{Name: "Bash"}, Attempt: attempt, HeartbeatDetails: details,
			LastHeartbeatTime: timestamppb.New(heartbeat), LastStartedTime: timestamppb.New(started),
		}}}
	}
	retried := pendingTools(pending(t0, t0.Add(5*time.Second), 2))
	if len(retried) != 1 || retried[0].ToolUseID != "b1" || retried[0].LastLine != "" || retried[0].Attempt != 2 {
		t.Errorf("attempt 2 before its first heartbeat: %+v, want b1 with no last line", retried)
	}
	beating := pendingTools(pending(t0.Add(6*time.Second), t0.Add(5*time.Second), 2))
	if len(beating) != 1 || beating[0].LastLine != "attempt 1 was here" {
		t.Errorf("an attempt that heartbeat: %+v, want its last line", beating)
	}
}
