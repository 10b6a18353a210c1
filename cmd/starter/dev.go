package main

import (
	"fmt"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe/internal/config"
	tpworker "github.com/toolpipe/toolpipe/worker"
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
			e, err := setup(ctx, cfg, tpworker.Embedded)
			if err != nil {
				return err
			}
			defer e.close()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "Temporal server: %s (state in %s)\n", e.conn.Address, cfg.StateDir)
			if e.conn.Server != nil && e.conn.Server.UIAddress() != "" {
				fmt.Fprintf(out, "Web UI: %s/namespaces/default/workflows\n", e.conn.Server.UIAddress())
			}
			fmt.Fprintf(out, "Worker on task queue %q. Ctrl-C stops.\n", cfg.TaskQueue)
			<-ctx.Done()
			return nil
		},
	}
	config.AddFlags(cmd.Flags(), config.KeyStateDir, config.KeyTaskQueue, config.KeyPort, config.KeyUI,
		config.KeyUIPort, config.KeyLogLevel, config.KeyTrust, config.KeyMCPEnvAllow)
	return cmd
}
