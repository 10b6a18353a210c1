package workflows

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/tool"
)

// hookTimeoutMargin is how long past a hook's own timeout its activity may take to
// kill the hook's process group and report, before Temporal gives up on it.
const hookTimeoutMargin = time.Minute

// hookAttempts: a hook activity is tried again only when its worker was lost (a
// hook's own failure is a result, not an activity error). Claude Code never runs a
// hook twice, but a guard hook that silently did not run would let the call through.
const hookAttempts = 3

// called is what PostToolUse hooks are told about a call that ran: its result, the
// tool's structured response (when the activity built one) and how long it took.
type called struct {
	result      tool.Result
	response    json.RawMessage
	duration    time.Duration
	interrupted bool
}

// runPhase runs the hooks of event e that match the tool, all at once (one activity
// each, so each one's stdout, stderr and exit code are in history), and combines
// what they say. c is the call's outcome, for the PostToolUse events. It returns an
// error only when the tool's context was cancelled.
func (t *turn) runPhase(ctx workflow.Context, e hooks.Event, b tool.Block, input json.RawMessage, c *called) (hooks.Result, error) {
	s := t.in.Settings
	cmds := s.Hooks.Select(e, b.Name)
	if len(cmds) == 0 {
		return hooks.Result{Event: e}, nil
	}
	def, _ := t.lookup(b.Name) // known: only a known tool's call reaches its hooks
	in := t.hookInput(ctx, e)
	in.ToolName, in.ToolInput, in.ToolUseID = b.Name, def.HookInput(input), b.ID
	if c != nil {
		ms := c.duration.Milliseconds()
		in.DurationMS = &ms
	}
	switch {
	case c != nil && e == hooks.PostToolUseFailure:
		msg := c.result.Content
		in.Error, in.IsInterrupt = &msg, &c.interrupted
	case c != nil:
		in.ToolResponse = c.response
		if len(in.ToolResponse) == 0 {
			in.ToolResponse = def.HookResponse(input, c.result.Content)
		}
	}
	return t.runHooks(ctx, e, b.ID, cmds, in)
}

// interruptHooks runs the PostToolUseFailure hooks of a call that a user message
// interrupted while it ran, with is_interrupt: true and the interrupted result as
// its error, as Claude Code does. A call cancelled by a failing sibling Bash is not
// an interrupt and runs none. The tool's context is cancelled, so the hooks run on a
// disconnected one; the call's result stays the interrupted one, and what the hooks
// say reaches the user (a continue: false still ends the agent).
func (t *turn) interruptHooks(ctx workflow.Context, b tool.Block, start time.Time) {
	if t.tracker.Errored() || len(t.in.Settings.Hooks.Select(hooks.PostToolUseFailure, b.Name)) == 0 ||
		workflow.GetVersion(ctx, interruptFailureHooks, workflow.DefaultVersion, 1) < 1 {
		return
	}
	hctx, _ := workflow.NewDisconnectedContext(ctx)
	c := called{result: tool.ErrorResult(b.ID, t.tracker.InterruptedText()), duration: workflow.Now(hctx).Sub(start), interrupted: true}
	res, err := t.runPhase(hctx, hooks.PostToolUseFailure, b, b.Input, &c)
	if err == nil {
		t.notePhase(hctx, b.ID, b.Name, res)
	}
}

// hookInput is the part of a hook's input every event of the turn shares.
func (t *turn) hookInput(ctx workflow.Context, e hooks.Event) hooks.Input {
	return hooks.Input{
		SessionID: t.in.SessionID, TranscriptPath: t.in.Settings.TranscriptPath, Cwd: t.in.Workdir,
		PromptID: t.promptID(ctx), PermissionMode: t.permissionMode(), HookEventName: e,
	}
}

// runHooks runs cmds with the input in and combines their outcomes.
func (t *turn) runHooks(ctx workflow.Context, e hooks.Event, id string, cmds []hooks.Command, in hooks.Input) (hooks.Result, error) {
	return runHookCommands(ctx, hookEnv{settings: t.in.Settings, workdir: t.in.Workdir, sessionID: t.in.SessionID,
		heartbeat: t.opts.HeartbeatTimeout, queue: t.in.ToolQueue}, e, id, cmds, in)
}

// hookEnv is where hooks run: the turn's or the session's settings and directory.
type hookEnv struct {
	settings  *TurnSettings
	workdir   string
	sessionID string
	heartbeat time.Duration
	// queue is the host's task queue the command hooks run on (fleet.go); empty
	// is the workflow's own.
	queue string
}

// runHookCommands runs cmds at once, one activity each, with the input in, and
// combines their outcomes: a command hook runs its command (RunHook), a prompt hook
// asks the model (RunPromptHook). It returns an error only when ctx was cancelled.
// Prompt hooks need no GetVersion: settings from before them never held one (the
// loader skipped them), so no recorded history schedules their activity.
func runHookCommands(ctx workflow.Context, env hookEnv, e hooks.Event, id string, cmds []hooks.Command, in hooks.Input) (hooks.Result, error) {
	stdin, err := in.Encode()
	if err != nil {
		panic(err) // every field marshals: a failure here is a bug
	}
	project := env.settings.ProjectDir
	if project == "" {
		project = env.workdir
	}
	futs := make([]workflow.Future, len(cmds))
	for i, c := range cmds {
		actx := workflow.WithActivityOptions(onHost(ctx, env.queue), hookOptions(e, c, env.heartbeat))
		if c.IsPrompt() {
			futs[i] = workflow.ExecuteActivity(onShared(actx), contract.PromptHookActivityName, hooks.PromptInvocation{
				Event: e, ToolUseID: id, Message: hooks.PromptMessage(e, c.Prompt, stdin), Model: c.Model,
				TimeoutSeconds: c.Timeout, SessionID: env.sessionID,
			})
			continue
		}
		futs[i] = workflow.ExecuteActivity(actx, contract.HookActivityName, hooks.Invocation{
			Event: e, ToolUseID: id, Command: c.Command, TimeoutSeconds: c.Timeout,
			Cwd: env.workdir, ProjectDir: project, Stdin: stdin, SessionID: env.sessionID,
		})
	}
	// Read with a disconnected context, as tool activities are: a cancelled hook's
	// process group is gone before the tool reports cancelled.
	waitCtx, _ := workflow.NewDisconnectedContext(ctx)
	outs := make([]hooks.Outcome, len(cmds))
	var cancelled error
	for i, f := range futs {
		out, err := hookOutcome(waitCtx, e, cmds[i], f)
		if err != nil {
			cancelled = err
			continue
		}
		outs[i] = out
	}
	if cancelled != nil {
		return hooks.Result{}, cancelled
	}
	return hooks.Aggregate(e, outs), nil
}

// hookOutcome waits for one hook's activity and reads what it says. A hook whose
// activity failed (its workers were lost, the model stayed unavailable) is a
// non-blocking error; only a cancellation is returned as an error.
func hookOutcome(ctx workflow.Context, e hooks.Event, c hooks.Command, f workflow.Future) (hooks.Outcome, error) {
	if c.IsPrompt() {
		var run hooks.PromptRun
		err := f.Get(ctx, &run)
		switch {
		case temporal.IsCanceledError(err):
			return hooks.Outcome{}, err
		case err != nil:
			run = hooks.PromptRun{Failure: failureMessage(err)}
		}
		return hooks.ParsePrompt(e, c, run), nil
	}
	var run hooks.Run
	err := f.Get(ctx, &run)
	switch {
	case temporal.IsCanceledError(err):
		return hooks.Outcome{}, err
	case err != nil:
		run = hooks.Run{Command: c.Command, Failure: failureMessage(err)}
	}
	return hooks.Parse(e, run), nil
}

func hookOptions(e hooks.Event, c hooks.Command, heartbeat time.Duration) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: c.TimeoutDuration() + hookTimeoutMargin,
		HeartbeatTimeout:    heartbeat,
		WaitForCancellation: true,
		Summary:             fmt.Sprintf("%s hook: %s", e, hookTitle(c)),
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: hookAttempts,
		},
	}
}

// hookTitle is a hook's activity title: its command, or "prompt: " and its prompt.
func hookTitle(c hooks.Command) string {
	if c.IsPrompt() {
		return "prompt: " + oneLineCommand(c.Prompt)
	}
	return oneLineCommand(c.Command)
}

// permissionMode is what hooks are told in permission_mode: the mode in force, or
// "default" when nothing sets one, as Claude Code reports a session started without
// a mode (toolpipe then runs every call, but no mode was chosen).
func (t *turn) permissionMode() string {
	if p := t.in.Settings.Permissions; p != nil {
		return p.Mode.String()
	}
	return "default"
}

// promptID is the hooks' prompt_id: the session's, or for a turn run on its own
// (`starter run`) one derived from the turn's workflow id, the same on every replay.
func (t *turn) promptID(ctx workflow.Context) string {
	if t.in.PromptID != "" {
		return t.in.PromptID
	}
	return hooks.StableUUID("prompt", workflow.GetInfo(ctx).WorkflowExecution.ID)
}

// notePhase records what a hook phase tells the user: messages, a summary when the
// phase took over hooks.DisplayThreshold, a log line when it took
// hooks.LogThreshold or more, and a stop request (continue: false).
func (t *turn) notePhase(ctx workflow.Context, id, name string, r hooks.Result) {
	for _, m := range r.Messages {
		t.notice(id, m)
	}
	if r.Duration > hooks.DisplayThreshold {
		t.notice(id, r.Summary(name))
	}
	if r.Duration >= hooks.LogThreshold {
		workflow.GetLogger(ctx).Info("slow "+string(r.Event)+" hooks", "tool", name, "tool_use_id", id,
			"duration", r.Duration.String(), "hooks", len(r.Outcomes))
	}
	if r.Stop {
		t.gate.stop = true
		reason := r.StopReason
		if reason == "" {
			reason = fmt.Sprintf("a %s hook of %s returned continue: false", r.Event, name)
		}
		t.gate.stopReasons = append(t.gate.stopReasons, reason)
	}
}

// notice records a message for the user.
func (t *turn) notice(id, text string) {
	t.gate.notices = append(t.gate.notices, Notice{ToolUseID: id, Text: text})
}

// oneLineCommand shortens a hook command for an activity's title.
func oneLineCommand(c string) string {
	c = strings.Join(strings.Fields(c), " ")
	if r := []rune(c); len(r) > 60 {
		c = string(r[:60]) + "…"
	}
	return c
}
