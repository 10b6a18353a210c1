package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/toolpipe/toolpipe/internal/preview"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/tool"
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
			e, err := setup(ctx, cfg, connect.Auto)
			if err != nil {
				return interrupted(ctx, err)
			}
			defer e.close()
			running.Store(e)
			ctx, endTrace := e.traceTurn(ctx) // trace.go
			defer endTrace()
			t, err := e.startTurn(ctx, blocks, false)
			if err != nil {
				return interrupted(ctx, err)
			}
			return interrupted(ctx, e.finish(ctx, t, cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyWorkdir, config.KeySettings, config.KeyPermissionMode,
		config.KeySession, config.KeyTaskQueue, config.KeyPort, config.KeyUI, config.KeyUIPort,
		config.KeyHeartbeatTimeout, config.KeyLogLevel, config.KeyAskTimeout, config.KeyWebFetchAllowPrivate, config.KeyWebFetchTimeout,
		config.KeyTrust, config.KeyMCPEnvAllow, config.KeyBlobURL)
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

// startTurn starts the turn of these blocks through the Go API, which names it
// (toolpipe.TurnID), prepares its input (settings, read state, MCP) and refuses
// another message that reuses its ids (exit 2); or attaches to it, running or
// finished, and adopts it when the starter that ran it has exited (queues.go).
func (e *env) startTurn(ctx context.Context, blocks []tool.Block, stream bool) (*toolpipe.Turn, error) {
	t, err := e.api.StartTurn(ctx, apiBlocks(blocks), toolpipe.TurnOptions{SessionID: e.cfg.Session, Workdir: e.cfg.Workdir, Stream: stream,
		Settings: e.settings(), HeartbeatTimeout: e.cfg.HeartbeatTimeout, Warn: e.warn})
	var col *toolpipe.TurnCollisionError
	switch {
	case errors.As(err, &col):
		return nil, badInput("%s", strings.Replace(col.Error(), "run it with another session", "run it with another --session", 1))
	case toolpipe.IsInvalidInput(err):
		return nil, badInputError{err}
	case err != nil:
		return nil, err
	}
	traceWorkflowID(ctx, t.ID)
	if t.Attached() {
		if _, err := e.adopt(ctx, t.ID, "turn", t.TaskQueue(), t.Finished() != nil); err != nil { // resume a paused turn
			return nil, err
		}
	}
	if t.Finished() == nil {
		fmt.Fprintf(os.Stderr, "turn %s\n", t.ID)
		e.printLink(ctx, t.ID, t.RunID()) // uilink.go
	}
	return t, nil
}

// apiBlocks are the parsed blocks as the Go API takes them.
func apiBlocks(bs []tool.Block) []toolpipe.Block {
	out := make([]toolpipe.Block, len(bs))
	for i, b := range bs {
		out[i] = toolpipe.Block(b)
	}
	return out
}

// toolResults are the Go API's results as the printed message holds them.
func toolResults(rs []toolpipe.ToolResult) []tool.Result {
	out := make([]tool.Result, len(rs))
	for i, r := range rs {
		out[i] = tool.Result(r)
	}
	return out
}

// finish follows the turn's progress on stderr and prints its result on stdout.
func (e *env) finish(ctx context.Context, t *toolpipe.Turn, stdout, stderr io.Writer) error {
	// On a terminal, prompts print above the progress frame (progress.go).
	stderr = liveStderr(stderr)
	res, err := e.follow(ctx, t, stderr)
	if err != nil {
		return err
	}
	reportTurn(stderr, res) // settings.go
	return writeUserMessage(stdout, toolResults(res.Results))
}

// follow shows the turn's progress on stderr, with the calls that wait for
// approval, while the Go API collects its results as it yields them, each once;
// a turn that had finished before this command attached to it is read from its
// history, and nothing is followed.
func (e *env) follow(ctx context.Context, t *toolpipe.Turn, stderr io.Writer) (toolpipe.TurnResult, error) {
	if c := t.Finished(); c != nil {
		fmt.Fprintf(stderr, "turn %s had already finished (%s at %s): its results come from its history; no tool ran again\n",
			t.ID, c.How, c.At.Local().Format(time.RFC3339))
		return t.Result(ctx)
	}
	defer e.watchPollers(ctx, t.TaskQueue(), "turn", stderr)() // pollers.go
	w := watchTurn(ctx, e.reader(), t.ID, stderr)              // progress_watch.go
	res, err := t.Follow(ctx, func(r toolpipe.ToolResult) { w.result(tool.Result(r)) })
	w.stop(ctx)
	return res, err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return preview.Shorten(s, 100)
}

// runStream hands blocks to the turn as they arrive on stdin, one per line. The turn
// starts with the first tool_use block, whose id (with the session) names it.
func runStream(ctx context.Context, cfg config.Config, stdin io.Reader, stdout, stderr io.Writer, running *atomic.Pointer[env]) error {
	e, err := setup(ctx, cfg, connect.Auto)
	if err != nil {
		return err
	}
	defer e.close()
	running.Store(e)
	ctx, endTrace := e.traceTurn(ctx) // trace.go
	defer endTrace()
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var t *toolpipe.Turn
	type outcome struct {
		res toolpipe.TurnResult
		err error
	}
	followed := make(chan outcome, 1)
	line, tools := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		b, ok, err := parseBlock([]byte(text))
		if err != nil {
			e.closeIntake(ctx, t)
			return badInput("stdin line %d: %v", line, err)
		}
		if !ok {
			continue
		}
		if tools++; tools > workflows.MaxToolsPerTurn {
			e.closeIntake(ctx, t)
			return tooManyTools(tools)
		}
		if t == nil {
			if t, err = e.startTurn(ctx, []tool.Block{b}, true); err != nil {
				return err
			}
			go func() {
				res, err := e.follow(ctx, t, liveStderr(stderr))
				followed <- outcome{res, err}
			}()
			continue
		}
		if err := e.addBlock(ctx, t, b); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		e.closeIntake(ctx, t)
		return badInput("reading stdin: %v", err)
	}
	if t == nil {
		return errNoToolUse("stdin")
	}
	e.closeIntake(ctx, t)
	o := <-followed
	if o.err != nil {
		return o.err
	}
	return writeUserMessage(stdout, toolResults(o.res.Results))
}

// addBlock hands one block to the running turn. A block the turn already has (a
// re-run attaching to it) or a turn that already finished is not an error.
func (e *env) addBlock(ctx context.Context, t *toolpipe.Turn, b tool.Block) error {
	err := t.AddBlocks(ctx, toolpipe.Block(b))
	if err == nil || toolpipe.IsDuplicateToolUseID(err) || e.closed(ctx, t.ID) {
		return nil
	}
	if toolpipe.IsMalformedBlock(err) || toolpipe.IsTooManyTools(err) {
		return badInput("tool_use %q: %v", b.ID, err)
	}
	return fmt.Errorf("add %s to turn %s: %w", b.ID, t.ID, err)
}

func (e *env) closeIntake(ctx context.Context, t *toolpipe.Turn) {
	if t != nil {
		_ = t.CloseIntake(ctx)
	}
}

// closed reports whether the workflow id is no longer running.
func (e *env) closed(ctx context.Context, id string) bool {
	d, err := e.conn.Client.DescribeWorkflowExecution(ctx, id, "")
	return err == nil && d.WorkflowExecutionInfo.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
}
