package main

import (
	"errors"
	"fmt"
	"testing"

	"go.temporal.io/api/serviceerror"
)

// A change sent between prompts meets the session's run in one of two ways once
// it has ended: the update's validator says "has ended", or the server answers
// NotFound for a completed workflow (what TestSetModelAndPermissionMode met under
// load). Both are the next prompt's change; any other error is the program's.
func TestRunEndedKnowsBothEndings(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("update: %w", serviceerror.NewNotFound("workflow execution already completed")),
		serviceerror.NewNotFound("workflow update was aborted by closing workflow"),
		errors.New("the session has ended (end_turn): start it again with the new settings"),
	} {
		if !runEnded(err) {
			t.Errorf("runEnded(%v) = false", err)
		}
	}
	if runEnded(serviceerror.NewUnavailable("connection refused")) {
		t.Error("an unavailable server counts as an ended run")
	}
}
