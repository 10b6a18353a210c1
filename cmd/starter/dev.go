package main

import (
	"fmt"
	"io"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe/connect"
	"github.com/toolpipe/toolpipe/internal/config"
)

func devCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Run the embedded Temporal server, its Web UI and a worker until interrupted",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			e, err := setup(ctx, cfg, connect.Embedded)
			if err != nil {
				return err
			}
			defer e.close()
			out := cmd.OutOrStdout()
			printDevServer(out, e, cfg)
			fmt.Fprintf(out, "Worker on task queue %q. Ctrl-C stops.\n", cfg.TaskQueue)
			<-ctx.Done()
			return nil
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyTaskQueue, config.KeyPort, config.KeyUI,
		config.KeyUIPort, config.KeyLogLevel, config.KeyTrust, config.KeyMCPEnvAllow, config.KeyBlobURL)
	return cmd
}

// printDevServer says which server dev uses and where its Web UI is: its own on
// --port, or the one another process already runs on the state directory (then
// --port and --ui-port are not used); and when no UI is served, why.
func printDevServer(out io.Writer, e *env, cfg config.Config) {
	if e.conn.Server != nil {
		fmt.Fprintf(out, "Temporal server: %s (state in %s)\n", e.conn.Address, cfg.StateDir)
	} else {
		fmt.Fprintf(out, "Temporal server: %s, the embedded server process %d already runs on %s: dev uses it (not --port %d)\n",
			e.conn.Address, e.conn.ServerPID, cfg.StateDir, cfg.Port)
	}
	ui := e.conn.UIAddress(cfg.StateDir)
	switch {
	case ui != "":
		fmt.Fprintf(out, "Web UI: %s/namespaces/%s/workflows\n", ui, e.conn.Namespace)
	case e.conn.NoUI == "off":
		fmt.Fprintln(out, "Web UI: none (--ui=false)")
	default:
		fmt.Fprintf(out, "Web UI: none: %s\n", e.conn.NoUI)
	}
}
