package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/internal/config"
)

// rewindCmd builds a command that runs this process's worker while it asks: a
// rewind of a session that is not running, or a fork, is a run of the session's
// workflow that the worker serves (workflows/session_rewind.go).
func rewindCmd(use, short, long string, nargs int, run func(e *env, cmd *cobra.Command, args []string) error) *cobra.Command {
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long, Args: exactArgs(nargs),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			e, err := setup(cmd.Context(), cfg, connect.Auto)
			if err != nil {
				return err
			}
			defer e.close()
			return run(e, cmd, args)
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyWorkdir, config.KeyTaskQueue, config.KeyLogLevel, config.KeyBlobURL)
	addEmbeddedDefaults(cmd)
	return cmd
}

func agentHistoryCmd() *cobra.Command {
	return rewindCmd("history SESSION", "List a session's turns, to pick one to rewind or fork at",
		`One line per model call of the session, in order: its turn number (what rewind --to
and fork --at take; "-" for a reply without tool calls), the prompt it answered or its
first tool calls, the files its file tools wrote, the workspace checkpoint taken after
it (when one was) and its tokens. A turn a rewind took out of the conversation is
marked "rewound": it stays in the store, and rewind --to reaches it again. The
session's rewinds follow, with who made them and when.`, 1,
		func(e *env, cmd *cobra.Command, args []string) error {
			h, err := e.api.History(cmd.Context(), args[0])
			if toolpipe.IsInvalidInput(err) {
				return badInputError{err}
			}
			if err != nil {
				return err
			}
			printHistory(cmd.OutOrStdout(), h)
			return nil
		})
}

// printHistory writes a session's history as agent history shows it.
func printHistory(out io.Writer, h toolpipe.History) {
	if h.Parent != "" {
		fmt.Fprintf(out, "forked from session %s at turn %d\n", h.Parent, h.ForkedAt)
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TURN\tWHAT\tFILES\tCHECKPOINT\tTOKENS\t")
	for _, t := range h.Turns {
		n := "-"
		if t.Turn > 0 {
			n = strconv.Itoa(t.Turn)
		}
		if !t.Current {
			n += " (rewound)"
		}
		what := strings.Join(t.Calls, ", ")
		if extra := t.CallCount - len(t.Calls); extra > 0 {
			what += fmt.Sprintf(" +%d", extra)
		}
		if what == "" {
			what = "reply: " + t.Text
		}
		if t.Prompt != "" {
			what = fmt.Sprintf("%q → %s", t.Prompt, what)
		}
		files := strings.Join(t.Files, " ")
		if files == "" {
			files = "-"
		}
		cp := "-"
		if t.Checkpoint != "" {
			cp = t.Checkpoint[:min(12, len(t.Checkpoint))]
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d in, %d out\t\n", n, what, files, cp, t.Usage.InputTokens+t.Usage.CacheCreationInputTokens+t.Usage.CacheReadInputTokens, t.Usage.OutputTokens)
	}
	w.Flush()
	for _, r := range h.Rewinds {
		fmt.Fprintf(out, "rewound to %s by %s at %s (%d messages)\n", r.To, r.By, r.At.UTC().Format("2006-01-02 15:04:05Z"), r.Messages)
	}
}

func agentRewindCmd() *cobra.Command {
	var to string
	var after, code, conv, both bool
	cmd := rewindCmd("rewind SESSION --to N|LATEST", "Take a session's conversation back to a turn (or undo with LATEST)",
		`Take the session's conversation back to just before turn N's model call (the prompt
that came with it goes too, as in Claude Code), or to after its results with --after:
the next prompt continues from there. The turns after N stay in the store and in
history; --to LATEST undoes the rewinds made since the session last went on. A session
running a prompt is interrupted first. The rewind is recorded in the session's
workflow history (an update, with who asked and when) and listed by agent history.`, 1,
		func(e *env, cmd *cobra.Command, args []string) error {
			o := toolpipe.RewindOptions{After: after}
			if e.cfg.WorkdirSet { // else a closed session's own (RewindOptions.Workdir)
				o.Workdir = e.cfg.Workdir
			}
			switch {
			case code && conv, code && both, conv && both:
				return badInput("--code, --conversation and --both exclude each other (--both is the default)")
			case code:
				o.Scope = toolpipe.RewindCode
			case conv:
				o.Scope = toolpipe.RewindConversation
			}
			switch n, err := strconv.Atoi(to); {
			case strings.EqualFold(to, "latest"):
				o.Latest = true
				if after {
					return badInput("--after goes with a turn number, not LATEST")
				}
			case err != nil || n < 1:
				return badInput("--to takes a turn number from 1 (`starter agent history %s` lists them) or LATEST, not %q", args[0], to)
			default:
				o.To = n
			}
			res, err := e.api.Session(args[0]).Rewind(cmd.Context(), o)
			if toolpipe.IsInvalidInput(err) {
				return badInputError{err}
			}
			if err != nil {
				return err
			}
			if res.Interrupted {
				fmt.Fprintf(cmd.ErrOrStderr(), "session %s was running a prompt: it was interrupted first\n", args[0])
			}
			where := "LATEST"
			if res.Turn > 0 {
				where = fmt.Sprintf("before turn %d", res.Turn)
				if after {
					where = fmt.Sprintf("after turn %d", res.Turn)
				}
			}
			out := cmd.OutOrStdout()
			if !code {
				fmt.Fprintf(out, "rewound session %s to %s: %d messages (%d no longer in the conversation, kept in the store); undo with `starter agent rewind %s --to LATEST`\n",
					args[0], where, res.Messages, res.Dropped, args[0])
			}
			switch {
			case res.Checkpoint != "":
				fmt.Fprintf(out, "workspace of session %s restored to %s: checkpoint %s, %d files written, %d removed (the workspace before is checkpoint %s; undo with `starter agent rewind %s --to LATEST`)\n",
					args[0], where, shortCheckpoint(res.Checkpoint), res.Written, res.Removed, shortCheckpoint(res.Undo), args[0])
			case !conv && res.WorkspaceNote != "":
				fmt.Fprintf(cmd.ErrOrStderr(), "the workspace was left as it is: %s\n", res.WorkspaceNote)
			}
			return nil
		})
	cmd.Flags().StringVar(&to, "to", "", "the turn to go back to (agent history lists them), or LATEST to undo the last rewinds")
	cmd.Flags().BoolVar(&after, "after", false, "go to after the turn's results instead of before its model call")
	cmd.Flags().BoolVar(&conv, "conversation", false, "rewind the conversation only")
	cmd.Flags().BoolVar(&code, "code", false, "restore the workspace only, from the turn's checkpoint")
	cmd.Flags().BoolVar(&both, "both", false, "the conversation and the workspace")
	_ = cmd.MarkFlagRequired("to")
	return cmd
}

func agentForkCmd() *cobra.Command {
	var at int
	var after, conv bool
	cmd := rewindCmd("fork SESSION --at N --session NEW", "Start a new session from a session's conversation at a turn",
		`Make session NEW from SESSION's conversation just before turn N's model call (or
after its results with --after); SESSION is not touched. Continue NEW with
"starter agent --session NEW PROMPT". NEW's runs carry SESSION in their memo
(parent_session) and in the ToolpipeParentSession search attribute where the
namespace has it, so the UI lists a session's forks. NEW must not exist (exit 2).
When SESSION keeps checkpoints, NEW's --workdir (a new or empty directory) gets
SESSION's files at that point, so the two go on apart; --conversation leaves it as
it is.`, 1,
		func(e *env, cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed(config.KeySession) {
				return badInput("fork needs --session NEW, the new session's id")
			}
			into := e.cfg.Session
			o := toolpipe.ForkOptions{Parent: args[0], SessionID: into, At: at, After: after, Workdir: e.cfg.Workdir}
			if conv {
				o.Scope = toolpipe.RewindConversation
			}
			fork, err := e.api.Fork(cmd.Context(), o)
			if toolpipe.IsInvalidInput(err) {
				return badInputError{err}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "forked session %s from %s at turn %d; continue it with `starter agent --session %s PROMPT`\n", into, args[0], at, into)
			if fork.ForkCheckpoint != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "its working directory %s holds %s's files at that point: checkpoint %s, %d files\n",
					e.cfg.Workdir, args[0], shortCheckpoint(fork.ForkCheckpoint), fork.ForkFiles)
			}
			return nil
		})
	cmd.Flags().IntVar(&at, "at", 0, "the turn to fork at (agent history lists them)")
	cmd.Flags().BoolVar(&after, "after", false, "fork after the turn's results instead of before its model call")
	cmd.Flags().BoolVar(&conv, "conversation", false, "fork the conversation only: the working directory is left as it is")
	config.AddFlags(cmd.Flags(), config.KeySession)
	_ = cmd.MarkFlagRequired("at")
	return cmd
}
