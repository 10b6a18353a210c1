package main

// The one adapter between toolpipe-claude and toolpipe's Go API and worker set-up:
// connecting (the embedded default, or the configured cluster), the in-process
// worker, and every call on a Session or Turn. The rest of the command speaks
// the Claude Agent SDK's protocol and knows only the methods below, so a change of
// the Go API is a change of this file.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	common "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	updatepb "go.temporal.io/api/update/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// durable is toolpipe underneath one toolpipe-claude process.
type durable struct {
	cfg   config.Config
	log   *slog.Logger
	conn  *connect.Conn
	api   *toolpipe.Client
	convs *persistence.Conversations
	// queue is the task queue this process starts sessions on: a queue of its own
	// (plugin.ProcessQueue) served by its own worker, or a cluster's.
	queue string
	// mcp is the worker's MCP manager, whose source adds this process's servers.
	mcp *mcptools.Manager

	mu      sync.Mutex
	workers []servedQueue
	closing bool
}

// servedQueue is a worker this process runs and the lock of its queue.
type servedQueue struct {
	w    sdkworker.Worker
	lock *plugin.QueueLock
}

// openDurable connects and, on the embedded default or when own is set (the
// query's hooks or MCP servers live in this process), runs a worker of this
// process on a task queue of its own, whose MCP servers come from source.
func openDurable(ctx context.Context, cfg config.Config, log *slog.Logger, own bool, source mcptools.Source) (*durable, error) {
	conn, err := connect.Dial(ctx, connect.Options{StateDir: cfg.StateDir, Port: cfg.Port, UI: cfg.UI, UIPort: cfg.UIPort,
		Logger: log, Mode: connect.Auto})
	if err != nil {
		return nil, err
	}
	convs, err := persistence.NewConversations(cfg.StateDir)
	if err != nil {
		conn.Close()
		return nil, err
	}
	d := &durable{cfg: cfg, log: log, conn: conn, convs: convs, queue: cfg.TaskQueue,
		mcp: mcptools.NewManager(mcptools.WithLogger(log), mcptools.WithEnvAllow(cfg.MCPEnvAllow), mcptools.WithSource(source))}
	if conn.Embedded || own {
		d.queue = plugin.ProcessQueue(cfg.TaskQueue)
		if err := d.serve(d.queue, nil, false); err != nil {
			conn.Close()
			return nil, err
		}
	}
	d.api = toolpipe.NewClient(conn.Client, d.queue, toolpipe.WithStateDir(cfg.StateDir))
	return d, nil
}

// shutdownGrace: the tools of a session this process runs are stopped this long
// after it exits, and reported stopped by the shutdown.
const shutdownGrace = time.Second // as a starter's

// sweepWait bounds how long adopting a dead process's queue waits for the new
// worker's sweep, which reports that process's running tools lost.
const sweepWait = 30 * time.Second

// serve runs a worker on queue; lock is its lock when already held. swept says to
// wait until the worker has reported the tools of dead workers lost: a message
// sent to an adopted session then finds them interrupted, not running.
func (d *durable) serve(queue string, lock *plugin.QueueLock, swept bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closing {
		lock.Release()
		return errors.New("shutting down")
	}
	if lock == nil {
		var ok bool
		var err error
		if lock, ok, err = plugin.TryLockQueue(d.cfg.StateDir, queue); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("task queue %s is served by another process", queue)
		}
	}
	done := make(chan struct{})
	var once sync.Once
	w, err := plugin.Start(plugin.Config{LegacyNames: true, Client: d.conn.Client, TaskQueue: queue, StateDir: d.cfg.StateDir, Logger: d.log,
		WebFetchAllowPrivate: d.cfg.WebFetchAllowPrivate, WebFetchTimeout: d.cfg.WebFetchTimeout, Overrides: d.cfg.Overrides(d.log),
		MCPEnvAllow: d.cfg.MCPEnvAllow, ShutdownGrace: shutdownGrace, MCP: sharedMCP{d.mcp},
		Swept: func(int) { once.Do(func() { close(done) }) }})
	if err != nil {
		lock.Release()
		return fmt.Errorf("in-process worker: %w", err)
	}
	d.workers = append(d.workers, servedQueue{w: w, lock: lock})
	if swept {
		d.mu.Unlock()
		select {
		case <-done:
		case <-time.After(sweepWait):
		}
		d.mu.Lock()
	}
	return nil
}

// sharedMCP hands the one Manager to every worker of the process; it is closed
// once, by close.
type sharedMCP struct{ *mcptools.Manager }

func (sharedMCP) Close() error { return nil }

// close stops the workers (running tools are cancelled and reported stopped) and
// the connection; another client of the state directory takes the server over.
func (d *durable) close() {
	d.mu.Lock()
	d.closing = true
	ws := d.workers
	d.workers = nil
	d.mu.Unlock()
	for _, s := range ws {
		s.w.Stop()
		s.lock.Release()
	}
	_ = d.mcp.Close()
	d.conn.Close()
}

// sessionStatus is whether a session's workflow runs, ended, or never ran.
type sessionStatus int

const (
	sessionNone sessionStatus = iota
	sessionRunning
	sessionClosed
)

func (d *durable) status(ctx context.Context, id string) (sessionStatus, error) {
	desc, err := d.conn.Client.DescribeWorkflowExecution(ctx, toolpipe.SessionWorkflowID(id), "")
	if err != nil {
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			return sessionNone, nil
		}
		return sessionNone, fmt.Errorf("session %s: %w", id, err)
	}
	if desc.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		return sessionRunning, nil
	}
	return sessionClosed, nil
}

// start starts a prompt: a new run of the session's workflow (a session that ran
// before continues its stored conversation). The input is the SDK's whole query
// (a fork, the SDK's approvals and servers), more than the Go API's
// SessionOptions prepare, so it is started as toolpipe.Client.StartSession starts
// one: the same id, queue, reuse policy and summaries.
func (d *durable) start(ctx context.Context, in workflows.SessionInput) error {
	in.SearchAttributes = d.conn.HasSearchAttributes(ctx)
	in.FailedCallsAttribute = d.conn.HasFailedCallsAttribute(ctx)
	_, err := d.conn.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: toolpipe.SessionWorkflowID(in.SessionID), TaskQueue: d.queue,
		WorkflowIDReusePolicy:                    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		StaticSummary:                            workflows.SessionStaticSummary(in),
		StaticDetails:                            workflows.SessionStaticDetails(in),
	}, contract.SessionWorkflowName, in)
	if err != nil {
		return fmt.Errorf("start session %s: %w", in.SessionID, err)
	}
	return nil
}

// resume gives the running session id the user's message text and makes sure the
// session runs. When the process that ran it exited (killed, say), this process
// serves its queue now and the session resumes, its lost tools reported
// interrupted; the message is admitted by the server before this process serves
// the queue, so the session's first workflow task has it and the first model call
// after the interrupted calls answers it with their results, whatever order the
// machine's load gives the sweep and the worker's tasks (sent after them, it could
// arrive after that call and cost one more). When that process still runs, the
// message is sent to it and this one takes over once it exits.
func (d *durable) resume(ctx context.Context, id, text string) (note string, err error) {
	desc, err := d.conn.Client.DescribeWorkflowExecution(ctx, toolpipe.SessionWorkflowID(id), "")
	if err != nil {
		return "", fmt.Errorf("session %s: %w", id, err)
	}
	queue := desc.GetExecutionConfig().GetTaskQueue().GetName()
	if queue == d.queue || !plugin.IsProcessQueue(queue, d.cfg.TaskQueue) {
		return "", d.send(ctx, id, text)
	}
	lock, ok, err := plugin.TryLockQueue(d.cfg.StateDir, queue)
	if err != nil {
		return "", err
	}
	if !ok {
		go func() {
			if lock, err := plugin.WaitLockQueue(d.cfg.StateDir, queue); err == nil {
				_ = d.serve(queue, lock, false)
			}
		}()
		return fmt.Sprintf("session %s is running in another process: following it (this process takes over if that one exits)", id), d.send(ctx, id, text)
	}
	updateID := newUUID()
	sent := make(chan error, 1)
	go func() {
		h, err := d.conn.Client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: toolpipe.SessionWorkflowID(id),
			UpdateID: updateID, UpdateName: contract.SendUpdate, Args: []any{workflows.SendRequest{Text: text}},
			WaitForStage: client.WorkflowUpdateStageCompleted})
		if err == nil {
			err = h.Get(ctx, nil)
		}
		sent <- err
	}()
	if err := d.admitted(ctx, id, updateID, sent); err != nil {
		lock.Release()
		return "", err
	}
	if err := d.serve(queue, lock, true); err != nil {
		return "", err
	}
	return fmt.Sprintf("session %s was paused (the process running it exited): resuming it in this process", id), <-sent
}

// admitted waits until the server holds the update updateID of session id (its
// registry has it: no worker has seen it yet), or the update ends first (sent: the
// run had ended, say).
func (d *durable) admitted(ctx context.Context, id, updateID string, sent chan error) error {
	req := &workflowservice.PollWorkflowExecutionUpdateRequest{Namespace: d.conn.Namespace,
		UpdateRef:  &updatepb.UpdateRef{WorkflowExecution: &common.WorkflowExecution{WorkflowId: toolpipe.SessionWorkflowID(id)}, UpdateId: updateID},
		WaitPolicy: &updatepb.WaitPolicy{LifecycleStage: enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED}}
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		_, err := d.conn.Client.WorkflowService().PollWorkflowExecutionUpdate(ctx, req)
		var nf *serviceerror.NotFound
		if err == nil {
			return nil
		} else if !errors.As(err, &nf) {
			return fmt.Errorf("session %s: message: %w", id, err)
		}
		select { // not in the registry yet: the update's call is on its way
		case err := <-sent:
			sent <- err
			if err != nil {
				return fmt.Errorf("session %s: message: %w", id, err)
			}
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// send is a user message for the running session.
func (d *durable) send(ctx context.Context, id, text string) error {
	_, err := d.api.Session(id).Send(ctx, text)
	return err
}

// interrupt stops the running turn's cancel-able calls and ends the prompt.
func (d *durable) interrupt(ctx context.Context, id string) error {
	return d.conn.Client.SignalWorkflow(ctx, toolpipe.SessionWorkflowID(id), "", contract.InterruptPromptSignal, nil)
}

// configure changes the permission mode or model of what comes next in the
// running session.
func (d *durable) configure(ctx context.Context, id string, req workflows.ConfigureRequest) error {
	h, err := d.conn.Client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: toolpipe.SessionWorkflowID(id),
		UpdateName: contract.ConfigureUpdate, Args: []any{req}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	return err
}

// state is where the session stands (a closed one's from its history).
func (d *durable) state(ctx context.Context, id string) (toolpipe.SessionState, error) {
	return d.api.Session(id).State(ctx)
}

// result waits for the session's run to end; a fork needs its whole conversation,
// which the Go API's SessionResult only sizes.
func (d *durable) result(ctx context.Context, id string) (workflows.SessionResult, error) {
	var res workflows.SessionResult
	err := d.conn.Client.GetWorkflow(ctx, toolpipe.SessionWorkflowID(id), "").Get(ctx, &res)
	return res, err
}

// pendingApprovals are the calls of the turn waiting for an answer.
func (d *durable) pendingApprovals(ctx context.Context, turnID string) ([]workflows.PendingApproval, error) {
	ts, err := d.api.Turn(turnID).State(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]workflows.PendingApproval, 0, len(ts.Pending))
	for _, p := range ts.Pending {
		out = append(out, workflows.PendingApproval(p))
	}
	return out, nil
}

// follow passes the turn's results on as it yields them, each once, until it has
// yielded them all (a closed turn's from its result): the Go API's Turn.Follow.
func (d *durable) follow(ctx context.Context, turnID string, onResult func(tool.Result)) error {
	_, err := d.api.Turn(turnID).Follow(ctx, func(r toolpipe.ToolResult) { onResult(tool.Result(r)) })
	return err
}

func (d *durable) approve(ctx context.Context, turnID string, req workflows.ApprovalRequest) error {
	return d.update(ctx, turnID, contract.ApproveUpdate, req)
}

func (d *durable) deny(ctx context.Context, turnID string, req workflows.ApprovalRequest) error {
	return d.update(ctx, turnID, contract.DenyUpdate, req)
}

// update sends update name to workflow id and waits for it to complete.
func (d *durable) update(ctx context.Context, id, name string, arg any) error {
	h, err := d.conn.Client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: name,
		Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	return err
}

// message reads stored message seq of the session; ok is false when it is not
// stored (yet).
func (d *durable) message(session string, seq int) (conversation.Message, bool) {
	if !d.convs.HasMessage(session, seq) {
		return conversation.Message{}, false
	}
	m, err := d.convs.ReadMessage(session, seq)
	return m, err == nil
}

// partial reads the blocks of message seq while it streams.
func (d *durable) partial(session string, seq int) []wire.Block {
	b, _ := d.convs.ReadPartial(session, seq)
	return b
}

// next is the seq the session's next message takes.
func (d *durable) next(session string) int {
	h, found, err := d.convs.ReadHead(session)
	if err != nil || !found {
		return 1
	}
	return h.Next
}

// head is where a session's stored conversation stands, for a fork.
func (d *durable) head(session string) (conversation.Head, bool) {
	h, found, err := d.convs.ReadHead(session)
	return h, err == nil && found
}

// local says this process runs a worker of its sessions' queue: their MCP
// servers are this process's.
func (d *durable) local() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.workers) > 0
}

// embedded says the server is the embedded default.
func (d *durable) embedded() bool { return d.conn.Embedded }

// stateDir is the state directory in use.
func (d *durable) stateDir() string { return d.cfg.StateDir }

// workflowID is the id of session id's workflow.
func (d *durable) workflowID(id string) string { return toolpipe.SessionWorkflowID(id) }

// hideSecrets executes the process again without its secrets in the
// environment (the worker set-up's), holding them; first thing in main.
func hideSecrets() { plugin.HideSecrets() }

// newLogger is the worker set-up's logger on w.
func newLogger(w io.Writer, level, format string) *slog.Logger {
	return plugin.NewLogger(w, level, format)
}
