// Command bench measures what durability costs: the same turns run by the durable
// Turn workflow on the embedded server and by the in-process executor (same
// scheduler, same tools), plus streaming latency, throughput, recovery after a
// killed worker, and history cost. It prints a table and writes BENCHMARKS.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/devserver"
	"github.com/toolpipe/toolpipe/executor"
	"github.com/toolpipe/toolpipe/persistence"
	tpworker "github.com/toolpipe/toolpipe/worker"
)

// bench is the shared setup: one embedded server, one in-process worker whose tool
// activities record when they start, and the in-process executor.
type bench struct {
	ctx      context.Context
	state    string
	work     string
	srv      *devserver.Server
	c        client.Client
	rec      *recorder
	exec     *executor.Executor
	queue    string
	runs     int
	results  []row
	stateArg string
}

func main() {
	out := flag.String("out", "BENCHMARKS.md", "where to write the report")
	runs := flag.Int("runs", 15, "repetitions of each overhead turn")
	sync := flag.String("sqlite-sync", "full", "the embedded server's SQLite synchronous mode: full or normal")
	flag.Parse()
	if err := run(*out, *runs, *sync); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(out string, runs int, sync string) error {
	ctx := context.Background()
	base, err := os.MkdirTemp("", "toolpipe-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	b := &bench{ctx: ctx, state: filepath.Join(base, "state"), work: filepath.Join(base, "work"), queue: "bench", runs: runs}
	os.MkdirAll(b.work, 0o755)
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	b.srv, err = devserver.Start(ctx, devserver.Config{StateDir: b.state, Logger: quiet, SQLiteSynchronous: sync})
	if err != nil {
		return err
	}
	defer b.srv.Stop()
	driver, err := persistence.NewPayloadDriver(filepath.Join(b.state, "payloads"))
	if err != nil {
		return err
	}
	b.c, err = client.Dial(client.Options{HostPort: b.srv.FrontendAddress(), Namespace: b.srv.Namespace(),
		ExternalStorage: driver.ExternalStorage(), Logger: quietSDK{}})
	if err != nil {
		return err
	}
	defer b.c.Close()
	acts, err := activities.New(activities.Config{StateDir: b.state, Logger: quiet})
	if err != nil {
		return err
	}
	b.rec = newRecorder(acts.Tools())
	w := sdkworker.New(b.c, b.queue, tpworker.Options())
	tpworker.RegisterWorkflows(w)
	b.rec.register(w)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()
	if b.exec, err = executor.New(executor.Config{Tools: acts.Tools(), SessionID: "bench", Workdir: b.work}); err != nil {
		return err
	}

	start := time.Now()
	for _, s := range []func() error{b.overhead, b.streaming, b.throughput, b.cost, b.recovery, b.memory} {
		if err := s(); err != nil {
			return err
		}
	}
	printTable(os.Stdout, b.results)
	return writeReport(out, b.results, time.Since(start), sync)
}
