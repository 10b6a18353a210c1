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
	"runtime/pprof"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"google.golang.org/grpc"

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
	trace    rpcTrace
	timers   *serverTimers
	verbose  bool
}

func main() {
	out := flag.String("out", "BENCHMARKS.md", "where to write the report")
	runs := flag.Int("runs", 15, "repetitions of each overhead turn")
	sync := flag.String("sqlite-sync", "full", "the embedded server's SQLite synchronous mode: full or normal")
	only := flag.String("only", "", "comma-separated scenarios to run (breakdown, overhead, streaming, throughput, cost, recovery, memory); default all")
	verbose := flag.Bool("v", false, "print every server timer the breakdown recorded")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole process (server, worker, client) while the selected scenarios run (-only picks them) to this file")
	pragmas := flag.String("sqlite-pragmas", "", "further SQLite pragmas for the embedded server, as k=v,k=v (cache_size=-65536,mmap_size=268435456,temp_store=memory)")
	conns := flag.Int("sqlite-conns", 0, "connections the embedded server opens to SQLite (0: one)")
	flag.Parse()
	extra, err := parsePragmas(*pragmas)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench: -sqlite-pragmas:", err)
		os.Exit(2)
	}
	sqliteExtra = sqliteSettings{pragmas: extra, conns: *conns}
	if err := run(*out, *runs, *sync, *only, *verbose, *cpuProfile); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(out string, runs int, sync, only string, verbose bool, cpuProfile string) error {
	ctx := context.Background()
	base, err := os.MkdirTemp("", "toolpipe-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	b := &bench{ctx: ctx, state: filepath.Join(base, "state"), work: filepath.Join(base, "work"), queue: "bench", runs: runs, timers: newServerTimers(), verbose: verbose}
	os.MkdirAll(b.work, 0o755)
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	b.srv, err = devserver.Start(ctx, devserver.Config{StateDir: b.state, Logger: quiet, SQLiteSynchronous: sync,
		SQLitePragmas: sqliteExtra.pragmas, SQLiteMaxConns: sqliteExtra.conns,
		MetricsHandler: b.timers.handler()})
	if err != nil {
		return err
	}
	defer b.srv.Stop()
	driver, err := persistence.NewPayloadDriver(filepath.Join(b.state, "payloads"))
	if err != nil {
		return err
	}
	b.c, err = client.Dial(client.Options{HostPort: b.srv.FrontendAddress(), Namespace: b.srv.Namespace(),
		ExternalStorage: driver.ExternalStorage(), Logger: quietSDK{},
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(b.trace.interceptor)},
			// As connect.Dial does for the embedded server: no gzip on loopback.
			GrpcCompression: &client.GrpcCompressionNone{}}})
	if err != nil {
		return err
	}
	defer b.c.Close()
	acts, err := activities.New(activities.Config{StateDir: b.state, Logger: quiet})
	if err != nil {
		return err
	}
	b.rec = newRecorder(acts.Registry())
	w := sdkworker.New(b.c, b.queue, tpworker.Options())
	tpworker.RegisterWorkflows(w, acts.Registry())
	b.rec.register(w)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()
	if b.exec, err = executor.New(executor.Config{Tools: acts.Registry(), SessionID: "bench", Workdir: b.work}); err != nil {
		return err
	}

	scenarios, err := b.selected(only)
	if err != nil {
		return err
	}
	// The profile covers the scenarios only, not the server's start.
	stop, err := startCPUProfile(cpuProfile)
	if err != nil {
		return err
	}
	start := time.Now()
	for _, s := range scenarios {
		if err := s(); err != nil {
			stop()
			return err
		}
	}
	if err := stop(); err != nil {
		return err
	}
	printTable(os.Stdout, b.results)
	return writeReport(out, b.results, time.Since(start), sync)
}

// startCPUProfile starts writing a CPU profile to path ("" for none) and returns
// the function that ends it and closes the file.
func startCPUProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// sqliteSettings are the -sqlite-pragmas and -sqlite-conns flags.
type sqliteSettings struct {
	pragmas map[string]string
	conns   int
}

var sqliteExtra sqliteSettings

// parsePragmas reads k=v,k=v.
func parsePragmas(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("%q is not key=value", kv)
		}
		out[k] = v
	}
	return out, nil
}

// selected returns the scenarios named in only (all of them when it is empty), in
// the report's order.
func (b *bench) selected(only string) ([]func() error, error) {
	all := []struct {
		name string
		fn   func() error
	}{
		{"breakdown", b.breakdown}, {"overhead", b.overhead}, {"streaming", b.streaming},
		{"throughput", b.throughput}, {"cost", b.cost}, {"recovery", b.recovery}, {"memory", b.memory},
	}
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	var out []func() error
	known := map[string]bool{}
	for _, s := range all {
		known[s.name] = true
		if len(want) == 0 || want[s.name] {
			out = append(out, s.fn)
		}
	}
	for n := range want {
		if known[n] {
			continue
		}
		return nil, fmt.Errorf("-only: unknown scenario %q (breakdown, overhead, streaming, throughput, cost, recovery, memory)", n)
	}
	return out, nil
}
