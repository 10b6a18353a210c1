package workflows

import (
	"errors"
	"fmt"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// modelFailure marks an error of the model call itself, as opposed to the turn's or
// the store's, so that the loop can end the prompt with it.
type modelFailure struct{ err error }

func (m modelFailure) Error() string { return m.err.Error() }
func (m modelFailure) Unwrap() error { return m.err }

// endPrompt decides what a failed step does: a model failure ends the prompt with
// its message (histories from before modelErrorEndsPrompt failed the workflow, and
// replay them so); anything else fails the session as before.
func (s *session) endPrompt(ctx workflow.Context, err error) bool {
	var mf modelFailure
	if !errors.As(err, &mf) || temporal.IsCanceledError(err) {
		return false
	}
	if workflow.GetVersion(ctx, modelErrorEndsPrompt, workflow.DefaultVersion, 1) < 1 {
		return false
	}
	s.failPrompt(modelErrorText(mf.err))
	return true
}

// failPrompt ends the current prompt with msg: the loop stops before the next model
// call, the error is an event for watchers and stays in the state for `agent status`.
func (s *session) failPrompt(msg string) {
	s.stopReason, s.lastError = StopModelError, msg
	s.note(SessionEvent{Kind: EventError, Text: msg})
}

// modelErrorText is what a user reads about a failed model call: the API's own
// message (the activity puts the status, type and message in it) and, when the call
// was retried, that the retries were used up.
func modelErrorText(err error) string {
	msg := err.Error()
	var app *temporal.ApplicationError
	var timeout *temporal.TimeoutError
	switch {
	case errors.As(err, &app):
		msg = app.Message()
	case errors.As(err, &timeout):
		msg = fmt.Sprintf("model: the call timed out (%s): the stream stalled or the worker was lost",
			strings.ToLower(strings.TrimPrefix(timeout.TimeoutType().String(), "TIMEOUT_TYPE_")))
		if timeout.TimeoutType() == enumspb.TIMEOUT_TYPE_UNSPECIFIED {
			msg = "model: " + timeout.Message()
		}
	}
	var act *temporal.ActivityError
	if errors.As(err, &act) && act.RetryState() == enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED {
		msg += " (retries used up)"
	}
	if errors.As(err, &act) && act.RetryState() == enumspb.RETRY_STATE_TIMEOUT {
		msg += " (the call's time ran out)"
	}
	return msg
}
