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
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/fakeanthropic"
	tpworker "github.com/toolpipe/toolpipe/worker"
	"github.com/toolpipe/toolpipe/workflows"
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
	conn, err := tpworker.Connect(ctx, tpworker.ConnectOptions{StateDir: abs, Logger: logger})
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
	w := sdkworker.New(c, taskQueue, toolpipe.WorkerOptions(sdkworker.Options{}))
	reg, err := toolpipe.Register(w, toolpipe.Options{StateDir: stateDir, Tools: []*toolpipe.Tool{DeployPreview}, Model: model,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return nil, err
	}
	if err := w.Start(); err != nil {
		_ = reg.Close()
		return nil, err
	}
	return func() { w.Stop(); _ = reg.Close() }, nil
}

// runSession runs the worker and an agent session on it, and prints the
// conversation as it goes.
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
	tp := toolpipe.NewClient(c, taskQueue)
	s, err := tp.StartSession(ctx, toolpipe.SessionInput{SessionID: session, Prompt: prompt, Workdir: dir})
	if err != nil {
		return toolpipe.SessionResult{}, err
	}
	ended := make(chan struct{})
	var res toolpipe.SessionResult
	var resErr error
	go func() { res, resErr = s.Result(ctx); close(ended) }()
	// The events are the running session's memory: follow them while it runs (a
	// closed session answers Done with none; its result has the final reply).
	next, final := 0, false
	for done := false; !done; {
		r, err := s.Events(ctx, next)
		if err != nil {
			return res, err
		}
		if len(r.Events) > 0 {
			final = printEvents(out, r.Events)
		}
		next, done = r.Next, r.Done
		select {
		case <-ended:
			done = true
		case <-time.After(100 * time.Millisecond):
		}
	}
	<-ended
	if resErr == nil && !final && res.Text != "" {
		fmt.Fprintln(out, res.Text)
	}
	return res, resErr
}

// printEvents prints prompts, the model's text, tool calls and the first line of
// each result; it reports whether the batch ended with the model's text.
func printEvents(out io.Writer, events []workflows.SessionEvent) (sawFinal bool) {
	for _, e := range events {
		switch e.Kind {
		case workflows.EventUser:
			fmt.Fprintf(out, "> %s\n", e.Text)
		case workflows.EventAssistant:
			fmt.Fprintln(out, e.Text)
			sawFinal = true
		case workflows.EventToolUse:
			fmt.Fprintf(out, "  -> %s [%s]\n", e.Text, e.ToolUseID)
			sawFinal = false
		case workflows.EventToolResult:
			fmt.Fprintf(out, "  <- %s %s\n", e.ToolUseID, firstLine(e.Text))
		}
	}
	return sawFinal
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i] + " …"
		}
	}
	return s
}
