package main

import (
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// The cost scenario's -v listing must tell a GetVersion marker and its search
// attribute upsert apart from the turn's own events: that is how an extra event
// per turn is named.
func TestEventKindNamesVersionMarkersAndUpserts(t *testing.T) {
	marker := &historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_MARKER_RECORDED,
		Attributes: &historypb.HistoryEvent_MarkerRecordedEventAttributes{MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{
			MarkerName: "Version",
			Details:    map[string]*commonpb.Payloads{"change-id": {Payloads: []*commonpb.Payload{{Data: []byte(`"some-change"`)}}}},
		}}}
	if got, want := eventKind(marker), `MarkerRecorded Version "some-change"`; got != want {
		t.Errorf("marker: %q, want %q", got, want)
	}
	upsert := &historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
		Attributes: &historypb.HistoryEvent_UpsertWorkflowSearchAttributesEventAttributes{UpsertWorkflowSearchAttributesEventAttributes: &historypb.UpsertWorkflowSearchAttributesEventAttributes{
			SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{"B": {}, "A": {}}},
		}}}
	if got, want := eventKind(upsert), "UpsertWorkflowSearchAttributes A,B"; got != want {
		t.Errorf("upsert: %q, want %q", got, want)
	}
	if got, want := eventKind(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED}), "ActivityTaskStarted"; got != want {
		t.Errorf("plain event: %q, want %q", got, want)
	}
}

// The throughput row's ceiling is cores / CPU per call.
func TestCeilingIsCoresOverCPUPerCall(t *testing.T) {
	if got := ceiling(10*time.Millisecond, 2); got != 200 {
		t.Errorf("10 ms on 2 cores: %v/s, want 200", got)
	}
	if got := ceiling(0, 2); got != 0 {
		t.Errorf("no CPU measured: %v, want 0 (no ceiling claimed)", got)
	}
}
