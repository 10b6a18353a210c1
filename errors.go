package toolpipe

import (
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/workflows"
)

// Errors are classified by these predicates, never by their text: each one looks
// through any wrapping (the SDK's, the Go API's "toolpipe: turn T: …").

// IsInvalidInput reports whether err says the caller's input is wrong, so that
// retrying the same call cannot help: a settings file or .mcp.json that does not
// parse, a session id that cannot name a directory, a malformed block, a prompt
// hook without a model, a turn id reused by another message (IsTurnCollision).
// `starter` exits 2 on such an error.
func IsInvalidInput(err error) bool {
	var in *InputError
	var col *TurnCollisionError
	return errors.As(err, &in) || errors.As(err, &col) || IsMalformedBlock(err) || IsTooManyTools(err)
}

// InputError is an input a turn or session cannot start with; its text says what
// is wrong and where (a file, its line and column).
type InputError struct{ Err error }

// Error is the wrapped error's text.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *InputError) Unwrap() error { return e.Err }

func invalid(format string, args ...any) error { return &InputError{Err: fmt.Errorf(format, args...)} }

// TurnCollisionError is StartTurn's refusal of a message whose tool_use ids name
// a turn of the session that another message started: ids name a turn within a
// session, so the message needs fresh ids or another session.
type TurnCollisionError struct {
	SessionID, TurnID string
	// IDs are the message's tool_use ids that named the turn.
	IDs []string
}

// Error says which ids collide and what to do: fresh ids, or another session.
func (e *TurnCollisionError) Error() string {
	ids := make([]string, len(e.IDs))
	for i, id := range e.IDs {
		ids[i] = fmt.Sprintf("%q", id)
	}
	return fmt.Sprintf("session %q already has turn %s with tool_use ids %s from a different message: ids name a turn within a session, "+
		"so give this message fresh tool_use ids or run it with another session (re-running the same message attaches to that turn)",
		e.SessionID, e.TurnID, strings.Join(ids, ", "))
}

// IsTurnCollision reports whether err is a TurnCollisionError.
func IsTurnCollision(err error) bool {
	var col *TurnCollisionError
	return errors.As(err, &col)
}

// IsNotFound reports whether err says the turn or session does not exist.
func IsNotFound(err error) bool {
	var nf *serviceerror.NotFound
	return errors.As(err, &nf)
}

// IsDuplicateToolUseID reports whether AddBlocks was refused a block whose id the
// turn already has: expected of a client that sends its blocks again after a crash.
func IsDuplicateToolUseID(err error) bool { return rejected(err, workflows.ErrDuplicateToolUseID) }

// IsMalformedBlock reports whether a block was refused for having no id or name,
// an id that cannot name a file, or an input that is not JSON.
func IsMalformedBlock(err error) bool { return rejected(err, workflows.ErrMalformedBlock) }

// IsTooManyTools reports whether a turn would have held more calls than it may
// (MaxToolsPerTurn).
func IsTooManyTools(err error) bool { return rejected(err, workflows.ErrTooManyTools) }

// IsIntakeClosed reports whether AddBlocks came after CloseIntake.
func IsIntakeClosed(err error) bool { return rejected(err, workflows.ErrIntakeClosed) }

// IsNotAwaitingApproval reports whether Approve or Deny named a call that does not
// wait for approval (any more).
func IsNotAwaitingApproval(err error) bool { return rejected(err, workflows.ErrNotAwaitingApproval) }

// IsWorkerLost reports whether err is the failure of a tool attempt whose worker
// died (another worker found it dead) or shut down under it: the call may have
// partially run. A turn reports it to the model as an interrupted call; a
// program's own workflow that runs toolpipe's activities sees the error.
func IsWorkerLost(err error) bool {
	return rejected(err, workflows.ErrWorkerLost) || rejected(err, workflows.ErrWorkerShutdown)
}

// MaxToolsPerTurn bounds one turn's calls, so that its history and state stay
// bounded.
const MaxToolsPerTurn = 2000

// MaxToolsPerTurn is the bound the Turn workflow enforces: this does not compile
// when the two differ.
var _ = [1]struct{}{}[MaxToolsPerTurn-workflows.MaxToolsPerTurn]

func rejected(err error, errType string) bool {
	var ae *temporal.ApplicationError
	return errors.As(err, &ae) && ae.Type() == errType
}
