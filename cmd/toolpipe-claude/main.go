// Command toolpipe-claude is a drop-in for Claude Code's headless mode on toolpipe:
// it takes the options the Claude Agent SDK passes to the `claude` executable (and
// that `claude -p` scripts use), speaks the SDK's stream-json control protocol on
// stdin and stdout, and answers every prompt with a durable toolpipe Session whose
// id is the SDK's session_id. Point the SDK's pathToClaudeCodeExecutable at it, or
// call it where a script calls `claude -p`.
//
// It runs on the embedded Temporal server of the state directory
// (TOOLPIPE_STATE_DIR) unless a cluster is configured (TEMPORAL_ADDRESS), as the
// rest of toolpipe's commands do, and reads toolpipe's own settings from TOOLPIPE_*
// variables and toolpipe.yaml.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/mcptools"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == hookCommandName {
		// The bridge of an SDK hook, run by a hook activity: no worker, no secrets.
		os.Exit(runHookCallback(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	// First: the process executes itself again without its secrets in the
	// environment (its tools could read /proc/$PPID/environ), holding them.
	hideSecrets()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the command; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	switch {
	case o.version:
		fmt.Fprintln(stdout, claudeCodeVersion+" (toolpipe-claude, Claude Code compatible)")
		return 0
	case o.help:
		fmt.Fprint(stdout, helpText)
		return 0
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintln(stderr, "toolpipe-claude:", err)
		return 1
	}
	extra, err := mcpConfigs(o.mcpConfigs)
	if err != nil {
		fmt.Fprintln(stderr, "toolpipe-claude:", err)
		return 1
	}
	workdir, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "toolpipe-claude:", err)
		return 1
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "toolpipe-claude:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	out := stdout
	var kept *resultOnly
	if o.outputFormat != "stream-json" {
		kept = &resultOnly{}
		out = kept
	}
	dr := newDriver(o, cfg, log, out, stderr, workdir, exe, extra)
	if o.inputFormat == "stream-json" {
		go dr.read(stdin)
	} else {
		prompt, err := textPrompt(o, stdin)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		dr.prompts <- queued{text: prompt}
		close(dr.prompts)
	}
	lastError := dr.run(ctx)
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "toolpipe-claude: stopped by a signal; the session is kept: `toolpipe-claude -p --resume %s PROMPT` continues it\n", dr.sessionOrNew())
		return 130
	}
	if kept != nil {
		return kept.print(stdout, o.outputFormat)
	}
	if lastError {
		return 1
	}
	return 0
}

// textPrompt is -p's prompt: the argument, else stdin.
func textPrompt(o options, stdin io.Reader) (string, error) {
	p := o.prompt
	if p == "" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", err
		}
		p = string(b)
	}
	if strings.TrimSpace(p) == "" {
		return "", fmt.Errorf("Error: Input contained only whitespace. Provide a prompt with text through stdin or as a prompt argument when using --print")
	}
	return p, nil
}

// loadConfig reads toolpipe's own settings (state directory, cluster, logs…) from
// TOOLPIPE_* variables and toolpipe.yaml: the command line is Claude Code's.
func loadConfig() (config.Config, error) {
	fs := pflag.NewFlagSet("toolpipe-claude", pflag.ContinueOnError)
	config.AddFlags(fs, config.KeyStateDir, config.KeyTaskQueue, config.KeyPort, config.KeyUI, config.KeyUIPort,
		config.KeyHeartbeatTimeout, config.KeyLogLevel, config.KeyAskTimeout, config.KeyWebFetchAllowPrivate,
		config.KeyWebFetchTimeout, config.KeyMCPEnvAllow)
	_ = fs.Set(config.KeyPort, "0") // any free port for a server this process starts
	cfg, _, err := config.Load(fs, "")
	if err != nil {
		return cfg, err
	}
	if !filepath.IsAbs(cfg.StateDir) {
		if cfg.StateDir, err = filepath.Abs(cfg.StateDir); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// mcpConfigs reads --mcp-config's files or JSON strings. They are the user's own
// configuration, so their ${VAR} references expand from the whole environment.
func mcpConfigs(specs []string) (mcptools.Config, error) {
	var cfg mcptools.Config
	for _, s := range specs {
		data, name := []byte(s), "--mcp-config"
		if t := strings.TrimSpace(s); !strings.HasPrefix(t, "{") {
			b, err := os.ReadFile(s)
			if err != nil {
				return cfg, fmt.Errorf("--mcp-config: %w", err)
			}
			data, name = b, s
		}
		c, err := mcptools.Parse(data, name, mcptools.Env{Allow: []string{"*"}})
		if err != nil {
			return cfg, err
		}
		cfg = mcptools.Merge(cfg, c)
	}
	return cfg, nil
}

const helpText = `Usage: toolpipe-claude [options] [prompt]

Claude Code's headless mode on toolpipe: every prompt is answered by a durable
toolpipe Session (the SDK's session_id), which survives this process.

  -p, --print                 answer the prompt (the argument, or stdin) and exit
  --output-format FORMAT      text (default), json (the result) or stream-json
  --input-format FORMAT       text (default) or stream-json (the Claude Agent SDK)
  --verbose                   needed by --output-format stream-json, as in Claude Code
  --include-partial-messages  stream_event messages (with stream-json)
  --model MODEL               the model (default: ANTHROPIC_MODEL, else claude-opus-5-5)
  --max-turns N, --max-budget-usd USD
  --permission-mode MODE      default, acceptEdits, plan, dontAsk, bypassPermissions
  --allowedTools, --disallowedTools, --tools RULES
  --system-prompt, --append-system-prompt TEXT
  --mcp-config FILE|JSON, --strict-mcp-config
  --settings FILE|JSON, --setting-sources user,project,local, --add-dir DIR
  -r, --resume ID, -c, --continue, --fork-session, --session-id UUID
  --permission-prompt-tool stdio   the SDK's canUseTool answers permission prompts

toolpipe's own settings come from TOOLPIPE_* variables and toolpipe.yaml:
TOOLPIPE_STATE_DIR (sessions, the embedded server), TEMPORAL_ADDRESS (a cluster),
TOOLPIPE_LOG_LEVEL. See README.md, "Use it from the Claude Agent SDK".
`
