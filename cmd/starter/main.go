// Command starter runs agent turns on toolpipe (DESIGN §7): `run` executes the tool
// calls of an assistant message durably and prints the tool_result message; `status`,
// `interrupt` and `dev` inspect and drive turns.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/toolpipe/toolpipe/internal/plugin"
)

// Exit statuses of DESIGN §7; a command that SIGINT or SIGTERM stopped exits
// 128+signal (130, 143: interruptedError).
const (
	exitOK       = 0
	exitInfra    = 1
	exitBadInput = 2
)

// badInputError marks an error as the user's input being wrong (exit 2).
type badInputError struct{ err error }

func (e badInputError) Error() string { return e.err.Error() }
func (e badInputError) Unwrap() error { return e.err }

func badInput(format string, args ...any) error {
	return badInputError{fmt.Errorf(format, args...)}
}

func main() {
	// First: the process is executed again without its secrets in the environment
	// (tools could read them in /proc/$PPID/environ), holding them in memory.
	plugin.HideSecrets()
	root := rootCmd()
	guardStdout(root)
	err := knownCommand(root, os.Args[1:])
	if err == nil {
		err = root.Execute()
	}
	var ie interruptedError
	if errors.As(err, &ie) {
		os.Exit(ie.exitCode()) // said when the signal came (interrupt_notice.go)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "starter:", oneLine(err))
		var bad badInputError
		if errors.As(err, &bad) || isUsageError(err) {
			os.Exit(exitBadInput)
		}
		os.Exit(exitInfra)
	}
	os.Exit(exitOK)
}

// rootCmd is the starter command and its subcommands.
func rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "starter",
		Short:         "Run LLM agents' tool calls durably on Temporal",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().String("config", "", "a toolpipe.yaml (default: ./toolpipe.yaml when present)")
	// An unknown flag or a value that does not parse (--heartbeat-timeout=abc) is
	// bad input: exit 2, as for any other.
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see %s --help)", err, c.CommandPath())}
	})
	root.AddCommand(runCmd(), statusCmd(), interruptCmd(), devCmd(), approveCmd(), denyCmd())
	root.AddCommand(agentCmd(), gcCmd())
	return root
}

// knownCommand refuses a command starter does not have as a usage error (exit 2).
// cobra reports it as a plain error from the same lookup Execute makes; looking it
// up first types it here instead of matching its text after.
func knownCommand(root *cobra.Command, args []string) error {
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		return nil // the shell completion scripts' hidden commands, which Execute adds
	}
	root.InitDefaultHelpCmd() // Execute adds help and completion; Find must see them
	root.InitDefaultCompletionCmd()
	if _, _, err := root.Find(args); err != nil {
		// cobra puts its suggestions on lines of their own; the error is one line.
		msg := strings.TrimSpace(err.Error())
		msg = strings.Join(strings.Fields(strings.Replace(msg, "Did you mean this?", "; did you mean", 1)), " ")
		msg = strings.Replace(msg, " ; did", "; did", 1)
		return usageError{fmt.Errorf("%s (see %s --help)", msg, root.CommandPath())}
	}
	return nil
}

// isUsageError: cobra's own complaints about flags and arguments are bad input too.
func isUsageError(err error) bool {
	var uerr usageError
	return errors.As(err, &uerr)
}

type usageError struct{ error }

func oneLine(err error) string {
	s := err.Error()
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

// guardStdout keeps stdout for what the commands print on purpose (a result, help):
// they get the real stdout, and file descriptor 1 is pointed at stderr, so that a
// library printing to stdout (the Temporal server's fmt.Println on some error
// paths, a logger left at its default) never mixes into the result a program reads.
func guardStdout(root *cobra.Command) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return
	}
	if err := syscall.Dup3(2, 1, 0); err != nil {
		_ = syscall.Close(fd)
		return
	}
	syscall.CloseOnExec(fd)
	root.SetOut(os.NewFile(uintptr(fd), "/dev/stdout"))
}
