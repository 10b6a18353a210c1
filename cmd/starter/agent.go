package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
)

// sessionWorkflowID is the workflow id of a session: one conversation per session id.
func sessionWorkflowID(session string) string { return "session-" + session }

// agentFlags are the agent command's own flags.
type agentFlags struct {
	model     string
	system    string
	maxTurns  int
	maxTokens int
	fake      string
}

func agentCmd() *cobra.Command {
	var f agentFlags
	cmd := &cobra.Command{
		Use:   "agent [flags] [PROMPT]",
		Short: "Run an agent session: the model calls tools until it is done",
		Long: `Start an agent session with PROMPT and show what happens: the assistant's text, its
tool calls and their results, until the model stops calling tools. The session is a
durable Session workflow, "session-<--session>": if this process dies, running the
same command again attaches to it (a running session ignores PROMPT: use
"agent send"). A session that has ended continues its conversation with a new PROMPT.

Stderr shows a line per model call and, per turn, one line per tool call with its
state, elapsed time and last output line: redrawn in place on a terminal, plain
appended lines otherwise (as "starter run" does).

The model is called through the Anthropic API with the worker's ANTHROPIC_API_KEY
(ANTHROPIC_BASE_URL selects any compatible endpoint). --fake-model SCRIPT answers
from a scripted fake instead, offline (embedded default only).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{fmt.Errorf("agent takes one PROMPT (quote it), got %d arguments", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			prompt := ""
			if len(args) == 1 {
				prompt = args[0]
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			if f.fake != "" {
				closeFake, err := startFakeModel(f.fake)
				if err != nil {
					return err
				}
				defer closeFake()
			}
			e, err := setup(ctx, cfg, tpworker.Auto)
			if err != nil {
				return err
			}
			defer e.close()
			if f.fake != "" && !e.conn.Embedded {
				return badInput("--fake-model runs the model inside this process: it needs the embedded default (unset TEMPORAL_ADDRESS)")
			}
			run, err := e.startSession(ctx, prompt, f)
			if err != nil {
				return err
			}
			return e.followSession(ctx, run, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyWorkdir, config.KeySettings, config.KeyPermissionMode,
		config.KeySession, config.KeyTaskQueue,
		config.KeyPort, config.KeyUI, config.KeyUIPort, config.KeyHeartbeatTimeout, config.KeyLogLevel)
	cmd.Flags().Lookup(config.KeyPort).DefValue = "0"
	cmd.Flags().Set(config.KeyPort, "0")
	model := os.Getenv("ANTHROPIC_MODEL")
	if model == "" {
		model = workflows.DefaultModel
	}
	cmd.Flags().StringVar(&f.model, "model", model, "the model (default $ANTHROPIC_MODEL, else "+workflows.DefaultModel+")")
	cmd.Flags().StringVar(&f.system, "system", "", "a system prompt")
	cmd.Flags().IntVar(&f.maxTurns, "max-turns", 100, "the most model calls the session makes")
	cmd.Flags().IntVar(&f.maxTokens, "max-tokens", 8192, "the most tokens of one assistant message")
	cmd.Flags().StringVar(&f.fake, "fake-model", "", "answer from this fake-model script (JSON) instead of the API")
	cmd.AddCommand(agentSendCmd(), agentStatusCmd(), agentInterruptCmd())
	return cmd
}

// startFakeModel serves a script on 127.0.0.1 and points this process's worker at it.
func startFakeModel(path string) (func(), error) {
	script, err := fakeanthropic.LoadScript(path)
	if err != nil {
		return nil, badInput("%v", err)
	}
	srv, err := fakeanthropic.Start(script)
	if err != nil {
		return nil, err
	}
	os.Setenv("ANTHROPIC_BASE_URL", srv.URL())
	os.Setenv("ANTHROPIC_API_KEY", "fake-model")
	return srv.Close, nil
}

// startSession starts the session, or attaches to it when it is running.
func (e *env) startSession(ctx context.Context, prompt string, f agentFlags) (client.WorkflowRun, error) {
	id := sessionWorkflowID(e.cfg.Session)
	if d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, ""); err == nil &&
		d.WorkflowExecutionInfo.Status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		if prompt != "" {
			fmt.Fprintf(os.Stderr, "session %s is running: attaching (PROMPT not sent; use `starter agent send %s MESSAGE`)\n", e.cfg.Session, e.cfg.Session)
		}
		if _, err := e.adopt(ctx, id, "session"); err != nil { // queues.go: resume a paused session
			return nil, err
		}
		return e.conn.Client.GetWorkflow(ctx, id, ""), nil
	}
	if prompt == "" {
		return nil, badInput("session %s is not running: give a PROMPT to start it", e.cfg.Session)
	}
	settings, err := turnSettings(e.cfg, os.Stderr)
	if err != nil {
		return nil, err
	}
	mcp, err := turnMCP(e.cfg) // settings.go
	if err != nil {
		return nil, err
	}
	in := workflows.SessionInput{
		MCP: mcp, SearchAttributes: e.conn.HasSearchAttributes(ctx),
		SessionID: e.cfg.Session, Prompt: prompt, Workdir: e.cfg.Workdir,
		Model:    workflows.ModelOptions{Model: f.model, MaxTokens: f.maxTokens, System: f.system},
		Settings: settings,
		Options: workflows.SessionOptions{
			MaxTurns: f.maxTurns, ModelHeartbeatTimeout: e.cfg.HeartbeatTimeout,
			Turn: workflows.TurnOptions{HeartbeatTimeout: e.cfg.HeartbeatTimeout},
		},
	}
	run, err := e.conn.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: e.cfg.TaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		StaticSummary:         workflows.SessionStaticSummary(in),
		StaticDetails:         workflows.SessionStaticDetails(in),
	}, workflows.SessionWorkflowName, in)
	if err != nil {
		return nil, fmt.Errorf("start session %s: %w", e.cfg.Session, err)
	}
	if _, err := e.adopt(ctx, id, "session"); err != nil { // queues.go: resume a paused session
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "session %s (workflow %s)\n", e.cfg.Session, id)
	return run, nil
}

// followSession prints the session's events as they come, with each turn's tool
// progress on stderr (agent_view.go), then checks its result.
func (e *env) followSession(ctx context.Context, run client.WorkflowRun, stdout, stderr io.Writer) error {
	view := newAgentView(stdout, stderr, e.conn.Client)
	cursor := 0
	for ctx.Err() == nil {
		v, err := e.conn.Client.QueryWorkflow(ctx, run.GetID(), "", workflows.EventsQuery, cursor)
		var resp workflows.EventsResponse
		if err == nil {
			err = v.Get(&resp)
		}
		if err != nil {
			break // the session failed or the server is gone: its result says
		}
		for _, ev := range resp.Events {
			view.event(ctx, ev)
		}
		cursor = resp.Next
		if resp.Done {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
	view.close(ctx)
	var res workflows.SessionResult
	if err := e.conn.Client.GetWorkflow(ctx, run.GetID(), "").Get(ctx, &res); err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return fmt.Errorf("stopped watching; the session goes on: `starter agent --session %s` attaches again", e.cfg.Session)
		}
		return fmt.Errorf("session %s: %w", e.cfg.Session, err)
	}
	return nil
}

// printEvent shows one event the way a terminal user reads an agent.
func printEvent(out io.Writer, ev workflows.SessionEvent) {
	switch ev.Kind {
	case workflows.EventUser:
		fmt.Fprintf(out, "> %s\n", ev.Text)
	case workflows.EventAssistant:
		fmt.Fprintf(out, "%s\n", ev.Text)
	case workflows.EventToolUse:
		fmt.Fprintf(out, "  -> %s [%s]\n", ev.Text, ev.ToolUseID)
	case workflows.EventToolResult:
		mark := "<-"
		if ev.IsError {
			mark = "<- error:"
		}
		fmt.Fprintf(out, "  %s %s %s\n", mark, ev.ToolUseID, summarize(ev.Text))
	case workflows.EventStop:
		fmt.Fprintf(out, "(session ended: %s)\n", ev.Text)
	case workflows.EventNotice:
		fmt.Fprintf(out, "  ! %s\n", ev.Text)
	}
}

// summarize shows the first line of a result and how much more there is.
func summarize(s string) string {
	first, rest, more := strings.Cut(strings.TrimRight(s, "\n"), "\n")
	if len(first) > 100 {
		first = first[:100] + "…"
	}
	if more {
		first += fmt.Sprintf(" (+%d lines)", strings.Count(rest, "\n")+1)
	}
	return first
}
