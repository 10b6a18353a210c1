package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/tool"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
)

func runCmd() *cobra.Command {
	var stream bool
	cmd := &cobra.Command{
		Use:   "run [flags] FILE|-",
		Short: "Run the tool calls of an assistant message and print the tool_result message",
		Long: `Run the tool_use blocks of an assistant message (Anthropic Messages format) as a
durable turn and print the user message of tool_result blocks, in arrival order, on
stdout. With --stream, read one content block per line from stdin and hand each to the
running turn as it arrives. Re-running the same message in the same session attaches
to the existing turn: completed tools are not run again.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if stream && len(args) > 0 {
				return usageError{errors.New("--stream reads blocks from stdin: give no FILE")}
			}
			if !stream && len(args) != 1 {
				return usageError{errors.New("run takes one FILE (or - for stdin)")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			ctx, stop := withSignals(cmd.Context()) // interrupt_notice.go
			defer stop()
			running := new(atomic.Pointer[env])
			defer sayOnInterrupt(ctx, cmd.ErrOrStderr(), "the turn", "run the same `starter run` again (same --session, message and --state-dir)", running)()
			if stream {
				return interrupted(ctx, runStream(ctx, cfg, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), running))
			}
			blocks, err := readMessage(args[0], cmd.InOrStdin())
			if err != nil {
				return err
			}
			e, err := setup(ctx, cfg, tpworker.Auto)
			if err != nil {
				return interrupted(ctx, err)
			}
			defer e.close()
			running.Store(e)
			ctx, endTrace := e.traceTurn(ctx) // trace.go
			defer endTrace()
			run, err := e.startOrAttach(ctx, blocks, workflows.TurnInput{Blocks: blocks, CloseIntake: true})
			if err != nil {
				return interrupted(ctx, err)
			}
			return interrupted(ctx, e.finish(ctx, run, cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyWorkdir, config.KeySettings, config.KeyPermissionMode,
		config.KeySession, config.KeyTaskQueue, config.KeyPort, config.KeyUI, config.KeyUIPort,
		config.KeyHeartbeatTimeout, config.KeyLogLevel, config.KeyAskTimeout, config.KeyWebFetchAllowPrivate, config.KeyWebFetchTimeout,
		config.KeyTrust, config.KeyMCPEnvAllow)
	// A turn's own embedded server takes any free port: clients find it through the
	// state directory, and a fixed port would clash with `starter dev`.
	cmd.Flags().Lookup(config.KeyPort).DefValue = "0"
	cmd.Flags().Set(config.KeyPort, "0")
	cmd.Flags().BoolVar(&stream, "stream", false, "read newline-delimited content blocks from stdin")
	return cmd
}

func readMessage(arg string, stdin io.Reader) ([]tool.Block, error) {
	if arg == "-" {
		return parseMessage(stdin)
	}
	f, err := os.Open(arg)
	if err != nil {
		return nil, badInput("cannot open the message: %v", err)
	}
	defer f.Close()
	return parseMessage(f)
}

// startOrAttach starts the turn named by these blocks (turnid.go), or attaches to
// the one with the same id, running or finished, when it was started with the same
// message; the same ids with another message are refused (exit 2).
func (e *env) startOrAttach(ctx context.Context, named []tool.Block, in workflows.TurnInput) (client.WorkflowRun, error) {
	if legacy := legacyTurnID(e.cfg.Session, named); runningLegacyTurn(ctx, e.conn.Client, legacy) {
		return e.conn.Client.GetWorkflow(ctx, legacy, ""), nil // started on the shared queue: its workers run it
	}
	id, digest := turnID(e.cfg.Session, named), messageDigest(named)
	traceWorkflowID(ctx, id)
	in.SessionID, in.Workdir = e.cfg.Session, e.cfg.Workdir
	files, err := sessionReadFiles(e.cfg) // readstate.go
	if err != nil {
		return nil, err
	}
	in.Context.ReadFiles = files
	in.Options.HeartbeatTimeout = e.cfg.HeartbeatTimeout
	in.SearchAttributes = e.conn.HasSearchAttributes(ctx)
	in.FailedCallsAttribute = in.SearchAttributes && e.conn.HasFailedCallsAttribute(ctx)
	settings, err := turnSettings(e.cfg, os.Stderr) // settings.go
	if err != nil {
		return nil, err
	}
	if err := e.checkPromptModel(settings); err != nil { // prompt_model.go
		return nil, err
	}
	in.Settings = settings
	if in.MCP, err = turnMCP(e.cfg, os.Stderr); err != nil { // settings.go
		return nil, err
	}
	run, err := e.conn.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: e.cfg.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		StaticSummary:            workflows.TurnStaticSummary(in),
		StaticDetails:            workflows.TurnStaticDetails(in),
		Memo:                     map[string]any{messageMemo: digest},
	}, workflows.TurnWorkflowName, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if err != nil && !errors.As(err, &started) {
		return nil, fmt.Errorf("start turn %s: %w", id, err)
	}
	// USE_EXISTING hands back a running turn without saying so, and a finished one
	// comes back as AlreadyStarted: either way the memo tells whose message it ran.
	same, derr := sameMessage(ctx, e.conn.Client, id, digest)
	if derr != nil {
		return nil, derr
	}
	if !same {
		return nil, turnCollisionError(e.cfg.Session, id, named)
	}
	if _, err := e.adopt(ctx, id, "turn"); err != nil { // queues.go: resume a paused turn
		return nil, err
	}
	if err != nil {
		return e.conn.Client.GetWorkflow(ctx, id, ""), nil
	}
	fmt.Fprintf(os.Stderr, "turn %s\n", id)
	e.printLink(ctx, id, run.GetRunID()) // uilink.go
	return run, nil
}

// finish follows the turn's progress on stderr and prints its result on stdout.
func (e *env) finish(ctx context.Context, run client.WorkflowRun, stdout, stderr io.Writer) error {
	// On a terminal, prompts print above the progress frame (progress.go).
	stderr = liveStderr(stderr)
	if !e.alreadyFinished(ctx, run.GetID(), stderr) { // closed.go: nothing to follow
		stopPollers := e.watchPollers(ctx, run.GetID(), "turn", stderr)       // pollers.go
		stopApprovals := watchApprovals(ctx, e.reader(), run.GetID(), stderr) // approvals_watch.go
		follow(ctx, e.reader(), run, stderr)
		stopApprovals()
		stopPollers()
	}
	var res workflows.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		return fmt.Errorf("turn %s: %w", run.GetID(), err)
	}
	reportTurn(stderr, res) // settings.go
	keepReadFiles(e.cfg, res, stderr)
	return writeUserMessage(stdout, res.Results)
}

// follow shows the turn's progress on stderr and collects its results as it yields
// them, until the turn is done.
func follow(ctx context.Context, c turnClient, run client.WorkflowRun, stderr io.Writer) {
	w := watchTurn(ctx, c, run.GetID(), stderr) // progress.go
	defer w.stop(ctx)
	cursor := 0
	for ctx.Err() == nil {
		h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
			WorkflowID: run.GetID(), UpdateName: workflows.CollectUpdate,
			Args: []any{workflows.CollectRequest{From: cursor}}, WaitForStage: client.WorkflowUpdateStageCompleted,
		})
		var resp workflows.CollectResponse
		if err == nil {
			err = h.Get(ctx, &resp)
		}
		if err != nil && transient(err) && ctx.Err() == nil {
			// The embedded server is restarting (its process exited and another
			// client takes it over): keep following.
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
			continue
		}
		if err != nil {
			return // the turn has finished: the result tells
		}
		for _, r := range resp.Results {
			w.result(r)
		}
		cursor = resp.Next
		if resp.Done {
			return
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}

// runStream hands blocks to the turn as they arrive on stdin, one per line. The turn
// starts with the first tool_use block, whose id (with the session) names it.
func runStream(ctx context.Context, cfg config.Config, stdin io.Reader, stdout, stderr io.Writer, running *atomic.Pointer[env]) error {
	e, err := setup(ctx, cfg, tpworker.Auto)
	if err != nil {
		return err
	}
	defer e.close()
	running.Store(e)
	ctx, endTrace := e.traceTurn(ctx) // trace.go
	defer endTrace()
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var run client.WorkflowRun
	followed := make(chan struct{})
	line, tools := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		b, ok, err := parseBlock([]byte(text))
		if err != nil {
			e.closeIntake(ctx, run)
			return badInput("stdin line %d: %v", line, err)
		}
		if !ok {
			continue
		}
		if tools++; tools > workflows.MaxToolsPerTurn {
			e.closeIntake(ctx, run)
			return tooManyTools(tools)
		}
		if run == nil {
			if run, err = e.startOrAttach(ctx, []tool.Block{b}, workflows.TurnInput{Blocks: []tool.Block{b}}); err != nil {
				return err
			}
			go func() {
				if !e.alreadyFinished(ctx, run.GetID(), stderr) { // closed.go
					defer e.watchPollers(ctx, run.GetID(), "turn", stderr)() // pollers.go
					follow(ctx, e.reader(), run, stderr)
				}
				close(followed)
			}()
			continue
		}
		if err := e.addBlock(ctx, run, b); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		e.closeIntake(ctx, run)
		return badInput("reading stdin: %v", err)
	}
	if run == nil {
		return errNoToolUse("stdin")
	}
	e.closeIntake(ctx, run)
	<-followed
	var res workflows.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		return fmt.Errorf("turn %s: %w", run.GetID(), err)
	}
	keepReadFiles(cfg, res, stderr)
	return writeUserMessage(stdout, res.Results)
}

// addBlock hands one block to the running turn. A block the turn already has (a
// re-run attaching to it) or a turn that already finished is not an error.
func (e *env) addBlock(ctx context.Context, run client.WorkflowRun, b tool.Block) error {
	err := e.update(ctx, run, workflows.AddBlocksUpdate, []tool.Block{b})
	if err == nil || workflows.Rejected(err, workflows.ErrDuplicateToolUseID) || e.closed(ctx, run) {
		return nil
	}
	if workflows.Rejected(err, workflows.ErrMalformedBlock) || workflows.Rejected(err, workflows.ErrTooManyTools) {
		return badInput("tool_use %q: %v", b.ID, err)
	}
	return fmt.Errorf("add %s to turn %s: %w", b.ID, run.GetID(), err)
}

func (e *env) closeIntake(ctx context.Context, run client.WorkflowRun) {
	if run != nil {
		_ = e.update(ctx, run, workflows.CloseIntakeUpdate)
	}
}

func (e *env) update(ctx context.Context, run client.WorkflowRun, name string, args ...any) error {
	h, err := e.conn.Client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: run.GetID(), UpdateName: name, Args: args, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return err
	}
	return h.Get(ctx, nil)
}

// closed reports whether the turn's workflow is no longer running.
func (e *env) closed(ctx context.Context, run client.WorkflowRun) bool {
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, run.GetID(), "")
	return err == nil && d.WorkflowExecutionInfo.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
}
