package toolpipe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/toolpipe/toolpipe/searchattr"
)

// Client starts and drives Turns and Sessions on one task queue: the queue of a
// worker that has toolpipe's plugin (NewPlugin). It owns what a turn or session
// is started with: its workflow id (TurnID, SessionWorkflowID), the settings it
// enforces, the files the session read before, whether the working directory has
// MCP servers, and whether the namespace has toolpipe's search attributes.
type Client struct {
	c         client.Client
	queue     string
	namespace string
	stateDir  string
	log       *slog.Logger
	// promptCheck refuses settings with prompt hooks (WithPromptHookCheck).
	promptCheck func() error
	// answers says whether a query about a workflow would be answered now
	// (WithQueryCheck).
	answers func(ctx context.Context, workflowID string) bool
	// tools are the program's own tools the workers have (WithTools): settings'
	// rules may name them.
	tools map[string]bool

	attrsOnce sync.Once
	attrsSet  bool // WithSearchAttributes
	attrs     bool
	failed    bool // the namespace has ToolpipeFailedCalls too
}

// ClientOption configures a Client.
type ClientOption func(*Client)

// WithStateDir names the state directory the workers of the task queue share.
// The client reads there the files a session's earlier turns read (so that an
// Edit may follow a Read of an earlier turn) and records the new ones when a turn
// ends; a closed turn's or session's state is read from its history, and the
// payloads too large for history (a 5 MB Write) from its payload store.
func WithStateDir(dir string) ClientOption { return func(c *Client) { c.stateDir = dir } }

// WithTools names the program's own tools its workers run (the Tools of
// NewPlugin's Options), so that the settings' permission rules may name them as
// they name a built-in tool; a rule naming a tool that is neither is skipped with
// a warning.
func WithTools(tools ...*Tool) ClientOption {
	return func(c *Client) {
		if c.tools == nil {
			c.tools = map[string]bool{}
		}
		for _, t := range tools {
			if t != nil {
				c.tools[t.Name()] = true
			}
		}
	}
}

// WithNamespace names the Temporal client's namespace (the SDK's client does not
// say it), for the search-attribute check; default "default".
func WithNamespace(ns string) ClientOption { return func(c *Client) { c.namespace = ns } }

// WithLogger sets where the client's warnings go when a turn or session gives no
// Warn function; nil means slog.Default().
func WithLogger(l *slog.Logger) ClientOption { return func(c *Client) { c.log = l } }

// WithSearchAttributes says whether the namespace has toolpipe's search
// attributes (ToolpipeSessionID, ToolpipeStatus, ToolpipeFailedCalls), instead of asking the server
// once (ListSearchAttributes): the embedded server always has them.
func WithSearchAttributes(has bool) ClientOption {
	return func(c *Client) { c.attrsSet, c.attrs, c.failed = true, has, has }
}

// WithPromptHookCheck has the client call check before it starts a turn or
// session whose settings have prompt hooks (hooks that ask a model): its error
// refuses the start (IsInvalidInput). A process that runs the queue's worker
// itself, with the model of its own environment, checks that it has one: without
// it every such hook would fail and let its call through.
func WithPromptHookCheck(check func() error) ClientOption {
	return func(c *Client) { c.promptCheck = check }
}

// WithQueryCheck has the client ask answers, before it queries a workflow that has
// closed, whether a worker polls its task queue now: a query nobody answers waits
// for its timeout (10 s). Session.Follow asks a closed session for its last events
// only when answers says so; without the option it asks, waiting at most 2 s.
func WithQueryCheck(answers func(ctx context.Context, workflowID string) bool) ClientOption {
	return func(c *Client) { c.answers = answers }
}

// NewClient wraps a Temporal client for the given task queue.
func NewClient(c client.Client, taskQueue string, opts ...ClientOption) *Client {
	cl := &Client{c: c, queue: taskQueue, namespace: client.DefaultNamespace}
	for _, o := range opts {
		o(cl)
	}
	if cl.log == nil {
		cl.log = slog.Default()
	}
	return cl
}

// TaskQueue is the queue the client starts turns and sessions on.
func (c *Client) TaskQueue() string { return c.queue }

// searchAttributes reports whether the namespace has toolpipe's required search
// attributes and ToolpipeFailedCalls, asking the server once per client.
func (c *Client) searchAttributes(ctx context.Context) (required, failedCalls bool) {
	c.attrsOnce.Do(func() {
		if !c.attrsSet {
			c.attrs, c.failed = searchattr.Present(ctx, c.c.OperatorService(), c.namespace)
		}
	})
	return c.attrs, c.attrs && c.failed
}

// warner is the warn function of a turn or session: the caller's, else the log.
func (c *Client) warner(warn func(string)) func(string) {
	if warn != nil {
		return warn
	}
	return func(msg string) { c.log.Warn("toolpipe: " + msg) }
}

// update runs update name on the workflow id (a kind, "turn" or "session") until it
// completes, and decodes its result into out (nil for none). Turns and sessions ask
// through here alike, and an error names the workflow and what was asked (what).
func update(ctx context.Context, c client.Client, kind, id, what, name string, out any, args ...any) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: name, Args: args,
		WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, out)
	}
	if err != nil {
		return fmt.Errorf("toolpipe: %s %s: %s: %w", kind, id, what, err)
	}
	return nil
}

// query asks the workflow id (a kind, "turn" or "session") queryType and decodes the
// answer into a T; an error names the workflow and what was asked (what), as update's.
func query[T any](ctx context.Context, c client.Client, kind, id, what, queryType string, args ...any) (T, error) {
	var r T
	v, err := c.QueryWorkflow(ctx, id, "", queryType, args...)
	if err == nil {
		err = v.Get(&r)
	}
	if err != nil {
		return r, fmt.Errorf("toolpipe: %s %s: %s: %w", kind, id, what, err)
	}
	return r, nil
}

// transient reports whether err is the server being away for a moment (an embedded
// server restarting in another process): worth asking again.
func transient(err error) bool {
	var unavailable *serviceerror.Unavailable
	if errors.As(err, &unavailable) {
		return true
	}
	if s, ok := status.FromError(err); ok {
		switch s.Code() {
		case codes.Unavailable, codes.DeadlineExceeded:
			return true
		}
	}
	return false
}

// pause waits d or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// Closure says that a workflow had closed when it was attached to: how
// ("completed", "failed", "terminated", …) and when.
type Closure struct {
	How string
	At  time.Time
}
