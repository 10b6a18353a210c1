package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/workflows"
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

// alreadyFinished says on stderr that the turn id had finished before this command
// attached to it, and reports whether it had: its results then come from its
// history, and nothing is followed.
func (e *env) alreadyFinished(ctx context.Context, id string, stderr io.Writer) bool {
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return false
	}
	how, at, closed := closure(d)
	if !closed {
		return false
	}
	fmt.Fprintf(stderr, "turn %s had already finished (%s at %s): its results come from its history; no tool ran again\n",
		id, how, at.Local().Format(time.RFC3339))
	return true
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
func (e *env) sessionState(ctx context.Context, id string) (workflows.SessionState, error) {
	e.answerQueries(ctx, id)
	if err := e.unpolled(ctx, id, "session"); err != nil {
		return workflows.SessionState{}, err
	}
	return e.api.Session(strings.TrimPrefix(id, "session-")).State(ctx)
}

// turnState reads a turn's state as sessionState does.
func (e *env) turnState(ctx context.Context, id string) (workflows.TurnState, error) {
	e.answerQueries(ctx, id)
	if err := e.unpolled(ctx, id, "turn"); err != nil {
		return workflows.TurnState{}, err
	}
	return e.api.Turn(id).State(ctx)
}

// sessionPhase is the phase agent status shows: paused when the starter running
// the session has exited (paused is its note, queues.go), whatever phase the
// session was in then.
func sessionPhase(st workflows.SessionState, paused string) string {
	phase := strings.TrimSpace(string(st.Phase) + " " + st.StopReason)
	if paused != "" {
		return "paused: its starter exited (it was in phase " + phase + "); `starter agent --session " + st.SessionID + "` resumes it"
	}
	return phase
}

// callStatus is a call's state as status commands show it: a call of a paused
// turn is not executing, whatever the turn last recorded.
func callStatus(t workflows.ToolState, paused bool) string {
	s := string(t.Status)
	if paused && t.Status == scheduler.Executing {
		s = "paused (it was executing when its starter exited)"
	}
	if t.IsError {
		s += " (error)"
	}
	return s
}
