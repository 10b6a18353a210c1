package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/toolpipe/toolpipe/internal/preview"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/modelinfo"
	"github.com/toolpipe/toolpipe/toolenv"
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
	attempts  int
	price     string
	window    int
	appendSys string
	budget    float64
	// questionTimeout bounds an AskUserQuestion's wait (agent_askuserquestion.go).
	questionTimeout time.Duration
	// checkpoints: capture the working directory after every turn that may change
	// files (a session on a fleet does anyway).
	checkpoints bool
	// repo, URL[@REF], is cloned into the working directory on the session's host.
	repo string
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
			if f.attempts < 1 || f.maxTurns < 1 || f.window < 0 || f.budget < 0 {
				return badInput("--model-attempts and --max-turns must be at least 1, --context-window and --max-budget-usd not negative")
			}
			if f.price != "" {
				if _, err := modelinfo.ParsePrice(f.price); err != nil {
					return badInput("--price: %v", err)
				}
			}
			if f.repo != "" && !cmd.Flags().Changed(config.KeyWorkdir) {
				cfg.Workdir = filepath.Join(cfg.StateDir, "workspaces", cfg.Session) // the host makes it
			}
			prompt := ""
			if len(args) == 1 {
				prompt = args[0]
			}
			ctx, stop := withSignals(cmd.Context()) // interrupt_notice.go
			defer stop()
			running := new(atomic.Pointer[env])
			defer sayOnInterrupt(ctx, cmd.ErrOrStderr(), "session "+cfg.Session,
				"run `starter agent --session "+cfg.Session+"` (same --state-dir)", running)()
			if f.fake != "" {
				closeFake, err := startFakeModel(f.fake)
				if err != nil {
					return err
				}
				defer closeFake()
			}
			e, err := setup(ctx, cfg, connect.Auto)
			if err != nil {
				return interrupted(ctx, err)
			}
			defer e.close()
			running.Store(e)
			if f.fake != "" && !e.conn.Embedded {
				return badInput("--fake-model runs the model inside this process: it needs the embedded default (unset TEMPORAL_ADDRESS)")
			}
			ctx, endTrace := e.traceSession(ctx) // trace.go
			defer endTrace()
			s, err := e.startSession(ctx, prompt, f)
			if err != nil {
				return interrupted(ctx, err)
			}
			defer e.watchPollers(ctx, s.TaskQueue(), "session", cmd.ErrOrStderr())() // pollers.go
			return interrupted(ctx, e.followSession(ctx, s, cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyWorkdir, config.KeySettings, config.KeyPermissionMode,
		config.KeySession, config.KeyTaskQueue,
		config.KeyPort, config.KeyUI, config.KeyUIPort, config.KeyHeartbeatTimeout, config.KeyLogLevel, config.KeyTrust, config.KeyMCPEnvAllow,
		config.KeyAskTimeout, config.KeyWebFetchAllowPrivate, config.KeyWebFetchTimeout, config.KeyBlobURL)
	cmd.Flags().Lookup(config.KeyPort).DefValue = "0"
	cmd.Flags().Set(config.KeyPort, "0")
	model := toolenv.Getenv("ANTHROPIC_MODEL") // ANTHROPIC_* are held secrets (worker.HideSecrets)
	if model == "" {
		model = workflows.DefaultModel
	}
	// cobra prints the default after the text: $ANTHROPIC_MODEL's value when set.
	cmd.Flags().StringVar(&f.model, "model", model, "the model; $ANTHROPIC_MODEL sets the default")
	cmd.Flags().StringVar(&f.system, "system", "", "a system prompt replacing toolpipe's default (the environment and CLAUDE.md files are still added)")
	cmd.Flags().StringVar(&f.appendSys, "append-system-prompt", "", "text added at the end of the system prompt")
	cmd.Flags().IntVar(&f.maxTurns, "max-turns", 100, "the most model calls the session makes")
	cmd.Flags().Float64Var(&f.budget, "max-budget-usd", 0, "end the prompt once the estimated cost of the model calls reaches this many US dollars (0: no limit)")
	cmd.Flags().IntVar(&f.maxTokens, "max-tokens", 8192, "the most tokens of one assistant message")
	cmd.Flags().StringVar(&f.fake, "fake-model", "", "answer from this fake-model script (JSON) instead of the API")
	cmd.Flags().StringVar(&f.price, "price", "", "the model's price in dollars per million tokens, INPUT,OUTPUT[,CACHE_WRITE,CACHE_READ] (default: the config file's prices, else the table of known models)")
	cmd.Flags().IntVar(&f.window, "context-window", 0, "the model's context window in tokens (default: the table of known models, else 200000)")
	cmd.Flags().StringVar(&f.repo, "repo", "", "clone this git repository, URL[@REF] (a branch, tag or commit), into the working directory on the session's host before the first turn; without --workdir the directory is <state-dir>/workspaces/<session>")
	cmd.Flags().BoolVar(&f.checkpoints, "checkpoints", false, "checkpoint the working directory into the blob store after every turn that may change files (always on a fleet); agent status lists them")
	cmd.Flags().IntVar(&f.attempts, "model-attempts", 10, "the most tries of one model call when the API is overloaded, rate limited or failing (2s apart, doubling up to a minute)")
	cmd.Flags().DurationVar(&f.questionTimeout, "question-timeout", 0, "how long the model's questions (AskUserQuestion) wait for starter agent answer before it is told nobody answered (0: until answered)")
	cmd.AddCommand(agentSendCmd(), agentStatusCmd(), agentInterruptCmd(), agentCompactCmd(), agentAnswerCmd(),
		agentHistoryCmd(), agentRewindCmd(), agentForkCmd()) // agent_rewind.go
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
	// Held like the environment's ANTHROPIC_* (worker.HideSecrets), so that this
	// process's worker sees them and no tool inherits them.
	fake := map[string]string{"ANTHROPIC_BASE_URL": srv.URL()}
	if toolenv.Getenv("ANTHROPIC_API_KEY") == "" { // a key in the environment is checked against the script's api_key
		fake["ANTHROPIC_API_KEY"] = "fake-model"
	}
	toolenv.Hold(fake)
	return srv.Close, nil
}

// modelPrice is the price the session's cost is estimated at: --price, else the
// config file's price table, else (nil) modelinfo's list prices.
func modelPrice(f agentFlags, cfg config.Config) *modelinfo.Price {
	if f.price != "" {
		p, _ := modelinfo.ParsePrice(f.price) // checked with the flags
		return &p
	}
	if p, ok := cfg.Prices.Lookup(f.model); ok {
		return &p
	}
	return nil
}

// startSession starts the session through the Go API, or attaches to it when it is
// running (and adopts it when the starter that ran it has exited, queues.go).
func (e *env) startSession(ctx context.Context, prompt string, f agentFlags) (*toolpipe.Session, error) {
	traceWorkflowID(ctx, sessionWorkflowID(e.cfg.Session))
	s, err := e.api.StartSession(ctx, toolpipe.SessionOptions{SessionID: e.cfg.Session, Workdir: e.cfg.Workdir, Prompt: prompt,
		Settings: e.settings(), Model: f.model, MaxTokens: f.maxTokens, ContextWindow: f.window, Price: modelPrice(f, e.cfg),
		SystemPrompt: f.system, AppendSystemPrompt: f.appendSys, MaxTurns: f.maxTurns, MaxBudgetUSD: f.budget, ModelAttempts: f.attempts, QuestionTimeout: f.questionTimeout,
		HeartbeatTimeout: e.cfg.HeartbeatTimeout, Warn: e.warn, Place: e.fleet(), Checkpoints: f.checkpoints, Repo: f.repo}) // fleet.go
	switch {
	case toolpipe.IsInvalidInput(err):
		return nil, badInputError{err}
	case err != nil:
		return nil, err
	}
	if s.Attached() && prompt != "" {
		fmt.Fprintf(os.Stderr, "session %s is running: attaching (PROMPT not sent; use `starter agent send %s MESSAGE`)\n", e.cfg.Session, e.cfg.Session)
	}
	if _, err := e.adopt(ctx, s.ID, "session", s.TaskQueue(), false); err != nil { // queues.go: resume a paused session
		return nil, err
	}
	if !s.Attached() {
		fmt.Fprintf(os.Stderr, "session %s (workflow %s)\n", e.cfg.Session, s.ID)
		e.printLink(ctx, s.ID, s.RunID()) // uilink.go
	}
	return s, nil
}

// followSession prints the session's events as they come, with each turn's tool
// progress on stderr (agent_view.go), until the session closes (the Go API's
// Session.Follow learns it from the workflow's result, so a session that failed or
// was terminated is not waited on for ever), then reports how it ended.
func (e *env) followSession(ctx context.Context, s *toolpipe.Session, stdout, stderr io.Writer) error {
	view := newAgentView(stdout, stderr, e.reader())
	res, err := s.Follow(ctx, func(ev toolpipe.SessionEvent) {
		view.event(ctx, workflows.SessionEvent{Kind: string(ev.Kind), Text: ev.Text, ToolUseID: ev.ToolUseID, IsError: ev.IsError, Noop: ev.Noop, Turn: ev.Turn, TurnID: ev.TurnID})
	})
	if ctx.Err() != nil {
		view.close(context.Background())
		return context.Cause(ctx) // a signal: said at once (interrupt_notice.go)
	}
	view.close(ctx)
	return e.sessionOutcome(ctx, s.ID, res, err, stderr)
}

// sessionOutcome reports how a session ended: its usage on stderr, and an error
// (exit 1) when a model failure ended the prompt or the workflow failed, timed out or
// was terminated.
func (e *env) sessionOutcome(ctx context.Context, id string, res toolpipe.SessionResult, err error, stderr io.Writer) error {
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx) // a signal: said at once (interrupt_notice.go)
		}
		var term *temporal.TerminatedError
		var timeout *temporal.TimeoutError
		switch {
		case errors.As(err, &term):
			return fmt.Errorf("session %s was terminated (workflow %s): start it again with a PROMPT to continue its conversation", e.cfg.Session, id)
		case errors.As(err, &timeout):
			return fmt.Errorf("session %s timed out (workflow %s)", e.cfg.Session, id)
		}
		return fmt.Errorf("session %s failed (workflow %s): %s", e.cfg.Session, id, failureText(err))
	}
	fmt.Fprintf(stderr, "tokens: %s; estimated cost $%.4f\n", res.Usage, res.Cost)
	switch res.StopReason {
	case toolpipe.StopMaxTurns:
		fmt.Fprintf(stderr, "stopped: the session made its %d allowed model calls (--max-turns); `starter agent --session %s PROMPT` continues it\n", res.Turns, e.cfg.Session)
	case toolpipe.StopMaxBudget:
		fmt.Fprintf(stderr, "stopped: the estimated cost $%.4f reached the budget (--max-budget-usd); `starter agent --session %s PROMPT` continues it\n", res.Cost, e.cfg.Session)
	}
	if res.StopReason == toolpipe.StopModelError {
		return fmt.Errorf("session %s: %s (the conversation is kept: `starter agent --session %s PROMPT` continues it)",
			e.cfg.Session, res.Error, e.cfg.Session)
	}
	return nil
}

// failureText is a workflow failure's innermost message: the reason, without the
// wrappers' ids.
func failureText(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			break
		}
		err = next
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Message()
	}
	return err.Error()
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
	case workflows.EventQuestion:
		fmt.Fprintf(out, "  ? %s\n", ev.Text)
	case workflows.EventWakeup:
		fmt.Fprintf(out, "  zz %s\n", ev.Text)
	case workflows.EventCompact:
		fmt.Fprintf(out, "(%s)\n", ev.Text)
	}
}

// summarize shows the first line of a result and how much more there is.
func summarize(s string) string {
	first, rest, more := strings.Cut(strings.TrimRight(s, "\n"), "\n")
	first = preview.Shorten(first, 100)
	if more {
		first += fmt.Sprintf(" (+%d lines)", strings.Count(rest, "\n")+1)
	}
	return first
}
