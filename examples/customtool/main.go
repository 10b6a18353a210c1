// Command customtool is a program built on toolpipe's Go API: its own worker runs
// toolpipe's workflows with a DeployPreview tool of its own beside the built-in
// ones, and an agent session uses it.
//
//	go run ./examples/customtool --fake-model examples/customtool/script.json --workdir DIR "Deploy a preview of feature-x"
//
// Without --fake-model the worker calls the Anthropic API (ANTHROPIC_API_KEY). It
// connects to TEMPORAL_ADDRESS when set, else to the embedded server on the state
// directory, as `starter` does.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/fakeanthropic"
	tpworker "github.com/toolpipe/toolpipe/worker"
)

// taskQueue is this program's own queue: no other worker takes its sessions.
const taskQueue = "customtool"

func main() {
	// First: the secrets (ANTHROPIC_API_KEY…) leave the process environment, where
	// the tools could read them through /proc (README, "Secrets out of reach").
	tpworker.HideSecrets()
	fake := flag.String("fake-model", "", "answer from this fake-model script (JSON) instead of the Anthropic API")
	workdir := flag.String("workdir", ".", "the agent's working directory")
	session := flag.String("session", "customtool", "the session id")
	stateDir := flag.String("state-dir", filepath.Join(os.TempDir(), "toolpipe-customtool"), "the state directory")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: customtool [--fake-model SCRIPT] [--workdir DIR] PROMPT")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *fake, *workdir, *session, *stateDir, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "customtool:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, fake, workdir, session, stateDir, prompt string) error {
	var model *toolpipe.Model
	if fake != "" {
		script, err := fakeanthropic.LoadScript(fake)
		if err != nil {
			return err
		}
		srv, err := fakeanthropic.Start(script)
		if err != nil {
			return err
		}
		defer srv.Close()
		model = &toolpipe.Model{APIKey: "fake-model", BaseURL: srv.URL()}
	}
	abs, err := filepath.Abs(stateDir)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	conn, err := connect.Dial(ctx, connect.Options{StateDir: abs, Logger: logger})
	if err != nil {
		return err
	}
	defer conn.Close()
	res, err := runSession(ctx, conn.Client, abs, model, workdir, session, prompt, os.Stdout)
	if err != nil {
		return err
	}
	fmt.Printf("(session ended: %s)\n", res.StopReason)
	return nil
}

// startWorker runs a worker of the program's task queue with toolpipe and
// DeployPreview registered, beside whatever else the program would run on it.
func startWorker(c client.Client, stateDir string, model *toolpipe.Model) (stop func(), err error) {
	p, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: stateDir, Tools: []*toolpipe.Tool{DeployPreview}, Model: model,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return nil, err
	}
	w := sdkworker.New(c, taskQueue, sdkworker.Options{Plugins: []sdkworker.Plugin{p}})
	if err := w.Start(); err != nil {
		return nil, err
	}
	return w.Stop, nil
}

// runSession runs the worker and an agent session on it, and prints the
// conversation as it happens.
func runSession(ctx context.Context, c client.Client, stateDir string, model *toolpipe.Model,
	workdir, session, prompt string, out io.Writer) (toolpipe.SessionResult, error) {
	stop, err := startWorker(c, stateDir, model)
	if err != nil {
		return toolpipe.SessionResult{}, err
	}
	defer stop()

	dir, err := filepath.Abs(workdir)
	if err != nil {
		return toolpipe.SessionResult{}, err
	}
	tp := toolpipe.NewClient(c, taskQueue, toolpipe.WithStateDir(stateDir))
	s, err := tp.StartSession(ctx, toolpipe.SessionOptions{SessionID: session, Prompt: prompt, Workdir: dir})
	if err != nil {
		return toolpipe.SessionResult{}, err
	}
	// The events are the running session's memory; its result has the final reply,
	// printed here when the last events were not seen (a session that closed
	// before its last question).
	final := false
	res, err := s.Follow(ctx, func(e toolpipe.SessionEvent) { final = printEvent(out, e, final) })
	if err == nil && !final && res.Text != "" {
		fmt.Fprintln(out, res.Text)
	}
	return res, err
}

// printEvent prints one event of the conversation: prompts, the model's text, tool
// calls and the first line of each result. It reports whether the conversation
// now ends with the model's text (final was what it said before).
func printEvent(out io.Writer, e toolpipe.SessionEvent, final bool) bool {
	switch e.Kind {
	case toolpipe.EventUser:
		fmt.Fprintf(out, "> %s\n", e.Text)
	case toolpipe.EventAssistant:
		fmt.Fprintln(out, e.Text)
		return true
	case toolpipe.EventToolUse:
		fmt.Fprintf(out, "  -> %s [%s]\n", e.Text, e.ToolUseID)
		return false
	case toolpipe.EventToolResult:
		fmt.Fprintf(out, "  <- %s %s\n", e.ToolUseID, firstLine(e.Text))
	}
	return final
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i] + " …"
		}
	}
	return s
}
