package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/toolpipe/toolpipe"
)

// A closed workflow is never queried: a query needs a worker polling its task queue,
// and the starter that ran it has usually exited, so the query would wait for its
// timeout (10 s). Its result and state come from its history (the Go API's
// Turn.State and Session.State, closed.go at the root).

// closure says whether the workflow described by d has closed, how ("completed",
// "failed", "terminated"…) and when.
func closure(d *workflowservice.DescribeWorkflowExecutionResponse) (how string, at time.Time, closed bool) {
	info := d.GetWorkflowExecutionInfo()
	if info.GetCloseTime() == nil {
		return "", time.Time{}, false
	}
	return strings.ToLower(strings.TrimPrefix(info.GetStatus().String(), "WORKFLOW_EXECUTION_STATUS_")), info.GetCloseTime().AsTime(), true
}

// describe describes the workflow id; one that does not exist is bad input (exit 2),
// named as what ("turn", "session", "workflow").
func (e *env) describe(ctx context.Context, id, what string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
	var notFound *serviceerror.NotFound
	switch {
	case err == nil:
		return d, nil
	case errors.As(err, &notFound):
		return nil, badInput("no %s with workflow id %s on %s (namespace %s): %s", what, id, e.where(), e.conn.Namespace, idHint[what])
	}
	return nil, fmt.Errorf("describe %s: %w", id, err)
}

// idHint says where the ids of what come from.
var idHint = map[string]string{
	"turn":            "check the id (`starter run` prints it on stderr: turn turn-…)",
	"session":         "check the session's name (`starter agent` prints it on stderr: session S (workflow session-S))",
	"turn or session": "check the id (`starter run` prints a turn's on stderr, turn turn-…; a session S is session-S)",
}

// where names the server this command talks to, for messages.
func (e *env) where() string {
	if e.conn.Embedded {
		return "the embedded server of " + e.cfg.StateDir
	}
	return e.conn.Address
}

// sessionState reads a session's state: a closed session's from its history, a
// running one's by a query, answered here when its starter has exited (queues.go).
// On a cluster, a running one whose queue no worker polls is not queried: the query
// would wait for its timeout (pollers.go).
func (e *env) sessionState(ctx context.Context, id string) (toolpipe.SessionState, error) {
	e.answerQueries(ctx, id)
	if err := e.unpolled(ctx, id, "session"); err != nil {
		return toolpipe.SessionState{}, err
	}
	return e.api.Session(strings.TrimPrefix(id, "session-")).State(ctx)
}

// turnState reads a turn's state as sessionState does.
func (e *env) turnState(ctx context.Context, id string) (toolpipe.TurnState, error) {
	e.answerQueries(ctx, id)
	if err := e.unpolled(ctx, id, "turn"); err != nil {
		return toolpipe.TurnState{}, err
	}
	return e.api.Turn(id).State(ctx)
}

// sessionPhase is the phase agent status shows: paused when the starter running
// the session has exited (paused is its note, queues.go), whatever phase the
// session was in then.
func sessionPhase(st toolpipe.SessionState, paused string) string {
	phase := strings.TrimSpace(string(st.Phase) + " " + st.StopReason)
	if paused != "" {
		return "paused: its starter exited (it was in phase " + phase + "); `starter agent --session " + st.SessionID + "` resumes it"
	}
	return phase
}

// callStatus is a call's state as status commands show it: a call of a paused
// turn is not executing, whatever the turn last recorded.
func callStatus(t toolpipe.ToolState, paused bool) string {
	s := string(t.Status)
	if paused && t.Status == toolpipe.StatusExecuting {
		s = "paused (it was executing when its starter exited)"
	}
	if t.IsError {
		s += " (error)"
	}
	return s
}
