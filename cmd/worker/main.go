// Command worker runs toolpipe's Turn workflows and tool activities against a
// Temporal cluster (TEMPORAL_ADDRESS or a profile, through envconfig), or against the
// embedded server with --dev. SIGINT/SIGTERM stop it gracefully: it stops taking
// work, running tools get 10 s to finish, then are cancelled (their processes
// killed) and reported to their turns as ended by the shutdown before it exits.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/config"
	tpworker "github.com/toolpipe/toolpipe/worker"
)

func main() {
	// First: the process is executed again without its secrets in the environment
	// (tools could read them in /proc/$PPID/environ), holding them in memory.
	tpworker.HideSecrets()
	var dev bool
	cmd := &cobra.Command{
		Use:           "worker",
		Short:         "Run toolpipe's workflows and tools",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return badInput{fmt.Errorf("worker takes no arguments, got %q (see worker --help)", args)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			file, _ := cmd.Flags().GetString("config")
			cfg, v, err := config.Load(cmd.Flags(), file)
			if err != nil {
				return badInput{err}
			}
			for _, n := range cfg.Notices {
				fmt.Fprintln(os.Stderr, "worker: notice:", n)
			}
			log := tpworker.NewLogger(os.Stderr, cfg.LogLevel, cfg.LogFormat)
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			mode := connect.Cluster
			if dev {
				mode = connect.Embedded
			}
			// Traces and metrics are off unless the OTEL_* variables or TOOLPIPE_TRACE ask.
			tel, err := tpworker.NewTelemetry(ctx, tpworker.TelemetryConfig{ServiceName: "toolpipe-worker"})
			if err != nil {
				return err
			}
			defer func() {
				flush, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				if err := tel.Shutdown(flush); err != nil {
					log.Warn("telemetry: flushing at exit", "error", err)
				}
			}()
			conn, err := connect.Dial(ctx, connect.Options{
				StateDir: cfg.StateDir, Port: cfg.Port, UI: cfg.UI, UIPort: cfg.UIPort, Logger: log, Mode: mode, Telemetry: tel,
				BlobURL: cfg.BlobURL,
			})
			if errors.Is(err, connect.ErrNoEmbeddedServer) {
				return badInput{fmt.Errorf("--dev: %w", err)}
			}
			if err != nil {
				return err
			}
			defer conn.Close()
			w, err := tpworker.Start(tpworker.Config{
				Client: conn.Client, TaskQueue: cfg.TaskQueue, StateDir: cfg.StateDir, Blob: conn.Blob, Logger: log,
				Overrides: config.WatchThresholds(v, log), WebFetchAllowPrivate: cfg.WebFetchAllowPrivate, WebFetchTimeout: cfg.WebFetchTimeout,
				MCPEnvAllow: cfg.MCPEnvAllow, Host: cfg.Host, MaxSessions: cfg.MaxSessions,
			})
			if err != nil {
				return err
			}
			log.Info("worker running", "address", conn.Address, "task_queue", cfg.TaskQueue, "state_dir", cfg.StateDir, "host", cfg.Host)
			fmt.Fprintf(os.Stderr, "worker: running on %s, task queue %q, host %s (queue %q, up to %d sessions)\n", conn.Address, cfg.TaskQueue,
				cfg.Host, contract.HostQueue(cfg.TaskQueue, cfg.Host), cfg.MaxSessions)
			if conn.Blob != nil {
				fmt.Fprintf(os.Stderr, "worker: blob store %s\n", conn.Blob.URL())
			}
			if n := activities.SandboxNotice(); n != "" { // no bubblewrap: how read-only commands run instead
				fmt.Fprintln(os.Stderr, n)
			}
			if note := conn.DefaultAddressNote(cfg.StateDir); note != "" {
				fmt.Fprintln(os.Stderr, "worker: "+note)
			}
			<-ctx.Done()
			log.Info("worker stopping: running tools are cancelled")
			w.Stop()
			return nil
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return badInput{fmt.Errorf("%w (see worker --help)", err)} })
	cmd.Flags().BoolVar(&dev, "dev", false, "start the embedded Temporal server (SQLite in --state-dir) instead of connecting to a cluster")
	cmd.Flags().String("config", "", "a toolpipe.yaml (default: ./toolpipe.yaml when present)")
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyTaskQueue, config.KeyPort, config.KeyUI,
		config.KeyUIPort, config.KeyLogLevel, config.KeyHeartbeatTimeout, config.KeyWebFetchAllowPrivate, config.KeyWebFetchTimeout,
		config.KeyTrust, config.KeyMCPEnvAllow, config.KeyBlobURL, config.KeyHost, config.KeyMaxSessions)
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		var bad badInput
		if errors.As(err, &bad) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// badInput marks the user's flags, environment or configuration file as wrong:
// the worker exits 2, as the starter does for bad input.
type badInput struct{ err error }

func (e badInput) Error() string { return e.err.Error() }
func (e badInput) Unwrap() error { return e.err }
