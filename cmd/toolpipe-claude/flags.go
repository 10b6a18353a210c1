package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// options are Claude Code's command-line options that toolpipe-claude honours.
type options struct {
	print         bool
	prompt        string
	outputFormat  string // text, json or stream-json
	inputFormat   string // text or stream-json
	verbose       bool
	partial       bool // --include-partial-messages
	replayUser    bool // --replay-user-messages
	model         string
	maxTurns      int
	maxBudget     float64
	mode          string // --permission-mode, "" when not given
	allowed       []string
	disallowed    []string
	tools         []string // --tools; nil: the default set
	toolsSet      bool
	system        string
	systemSet     bool
	appendSystem  string
	mcpConfigs    []string
	strictMCP     bool
	settings      string   // a file or a JSON object
	sources       []string // --setting-sources; nil: user, project and local
	addDirs       []string
	resume        string
	continueLast  bool
	sessionID     string
	fork          bool
	promptTool    string // --permission-prompt-tool
	promptsNobody bool   // --permission-prompts none
	version, help bool
}

// usageError is bad command-line input: one line on stderr, exit 1, as Claude
// Code's option parser does.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// flagKind says what follows a flag.
type flagKind int

const (
	boolFlag  flagKind = iota
	valueFlag          // exactly one value
	listFlag           // one or more values, each comma- or space-separated (commander's <x...>)
	optFlag            // an optional value, given as --flag=value only
)

// flagSpec is one option: its names, what follows it, and what it does.
type flagSpec struct {
	names []string
	kind  flagKind
	set   func(o *options, vals []string) error
}

// ignored are options Claude Code has that change nothing toolpipe-claude does, or
// only how Claude Code itself is debugged: accepted, with one warning each.
var ignored = map[string]string{
	"--debug":                  "toolpipe-claude logs to stderr at TOOLPIPE_LOG_LEVEL",
	"--debug-file":             "toolpipe-claude logs to stderr at TOOLPIPE_LOG_LEVEL",
	"--debug-to-stderr":        "toolpipe-claude logs to stderr at TOOLPIPE_LOG_LEVEL",
	"--effort":                 "toolpipe sets no effort level for the model",
	"--thinking":               "toolpipe does not ask the model for extended thinking",
	"--max-thinking-tokens":    "toolpipe does not ask the model for extended thinking",
	"--thinking-display":       "toolpipe does not ask the model for extended thinking",
	"--betas":                  "toolpipe sends no beta headers",
	"--fallback-model":         "toolpipe retries the main model when it is overloaded (Temporal retries)",
	"--include-hook-events":    "hook lifecycle events are not streamed; the hooks run",
	"--no-session-persistence": "toolpipe sessions are durable: this one is kept in the state directory",
	"--session-mirror":         "the session's transcript is in the state directory",
	"--await-initialize":       "toolpipe-claude always reads the initialize request first",
	"--task-budget":            "toolpipe bounds sessions with --max-turns and --max-budget-usd",
	"--name":                   "toolpipe sessions are named by their id",
	"--exclude-dynamic-system-prompt-sections": "toolpipe builds its own system prompt",
	"--allow-dangerously-skip-permissions":     "bypassPermissions is taken only when asked for",
	"--verbose-json":                           "",
}

// refused are options whose meaning toolpipe-claude cannot honour: ignoring them
// would do something else than asked, so they are refused, saying why.
var refused = map[string]string{
	"--json-schema":                    "structured output (structured_output in the result) is not supported yet",
	"--agent":                          "custom agents are not supported: the Task tool runs a general-purpose sub-agent",
	"--agents":                         "custom agents are not supported: the Task tool runs a general-purpose sub-agent",
	"--plugin-dir":                     "plugins are not supported",
	"--plugin-dir-no-mcp":              "plugins are not supported",
	"--plugin-url":                     "plugins are not supported",
	"--resume-session-at":              "resuming a session at an earlier message is not supported (issue 30 adds rewind)",
	"--resume-drops-turn":              "resuming a session at an earlier message is not supported (issue 30 adds rewind)",
	"--sdk-url":                        "remote session transports are not supported: run toolpipe-claude as a local process",
	"--channels":                       "channels are not supported",
	"--worktree":                       "worktrees are an interactive feature",
	"--tmux":                           "worktrees are an interactive feature",
	"--ide":                            "IDE integration is an interactive feature",
	"--chrome":                         "Claude in Chrome is not supported",
	"--remote-control":                 "Remote Control is not supported",
	"--teleport":                       "cloud sessions are not supported",
	"--cloud":                          "cloud sessions are not supported",
	"--environment":                    "cloud sessions are not supported",
	"--bg":                             "background sessions: run toolpipe-claude under your own supervisor; its sessions are durable",
	"--background":                     "background sessions: run toolpipe-claude under your own supervisor; its sessions are durable",
	"--desktop":                        "the desktop app is not supported",
	"--from-pr":                        "PR-linked sessions are not supported",
	"--file":                           "file downloads at start-up are not supported",
	"--managed-settings":               "managed settings are not supported: give --settings",
	"--project-config-root":            "a separate project configuration root is not supported",
	"--restricted":                     "restricted mode is not supported: use --tools and --permission-mode",
	"--bare":                           "minimal mode is not supported",
	"--safe-mode":                      "safe mode is not supported",
	"--brief":                          "the SendUserMessage tool is not supported",
	"--prompt-suggestions":             "prompt suggestions are not supported",
	"--agent-progress":                 "agent progress summaries are not supported",
	"--managed-settings-in-initialize": "managed settings are not supported: give --settings",
	"--initialize-fields":              "settings and disallowedTools in the initialize request (settingsViaInitialize, disallowedToolsViaInitialize) are not supported yet: pass them as options (settings, disallowedTools)",
}

// ignoredKinds says what follows the ignored and refused options that take a value.
var ignoredKinds = map[string]flagKind{
	"--debug": optFlag, "--debug-file": valueFlag, "--effort": valueFlag, "--thinking": optFlag,
	"--max-thinking-tokens": valueFlag, "--thinking-display": valueFlag, "--betas": listFlag,
	"--fallback-model": valueFlag, "--task-budget": valueFlag, "--name": valueFlag, "-n": valueFlag,
	"--json-schema": valueFlag, "--agent": valueFlag, "--agents": valueFlag, "--plugin-dir": valueFlag,
	"--plugin-dir-no-mcp": valueFlag, "--plugin-url": valueFlag, "--resume-session-at": valueFlag,
	"--resume-drops-turn": valueFlag, "--sdk-url": valueFlag, "--channels": valueFlag, "--file": listFlag,
	"--managed-settings": valueFlag, "--project-config-root": valueFlag, "--environment": valueFlag,
	"--worktree": optFlag, "--tmux": optFlag, "--remote-control": optFlag, "--teleport": optFlag,
	"--cloud": optFlag, "--from-pr": optFlag, "--prompt-suggestions": optFlag, "--initialize-fields": valueFlag,
}

func splitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
			out = append(out, f)
		}
	}
	return out
}

// splitRules splits tool lists as Claude Code does: by commas and spaces, except
// inside a rule's parentheses ("Bash(git diff *)").
func splitRules(vals []string) []string {
	var out []string
	for _, v := range vals {
		depth, start := 0, 0
		for i, r := range v + "," {
			switch {
			case r == '(':
				depth++
			case r == ')' && depth > 0:
				depth--
			case (r == ',' || r == ' ') && depth == 0:
				if f := strings.TrimSpace(v[start:i]); f != "" {
					out = append(out, f)
				}
				start = i + 1
			}
		}
	}
	return out
}

var specs = []flagSpec{
	{[]string{"-p", "--print"}, boolFlag, func(o *options, _ []string) error { o.print = true; return nil }},
	{[]string{"--output-format"}, valueFlag, func(o *options, v []string) error {
		if !slices.Contains([]string{"text", "json", "stream-json"}, v[0]) {
			return usagef("error: option '--output-format <format>' argument '%s' is invalid. Allowed choices are text, json, stream-json.", v[0])
		}
		o.outputFormat = v[0]
		return nil
	}},
	{[]string{"--input-format"}, valueFlag, func(o *options, v []string) error {
		if v[0] != "text" && v[0] != "stream-json" {
			return usagef("error: option '--input-format <format>' argument '%s' is invalid. Allowed choices are text, stream-json.", v[0])
		}
		o.inputFormat = v[0]
		return nil
	}},
	{[]string{"--verbose"}, boolFlag, func(o *options, _ []string) error { o.verbose = true; return nil }},
	{[]string{"--include-partial-messages"}, boolFlag, func(o *options, _ []string) error { o.partial = true; return nil }},
	{[]string{"--replay-user-messages"}, boolFlag, func(o *options, _ []string) error { o.replayUser = true; return nil }},
	{[]string{"--model"}, valueFlag, func(o *options, v []string) error { o.model = v[0]; return nil }},
	{[]string{"--max-turns"}, valueFlag, func(o *options, v []string) error {
		n, err := strconv.Atoi(v[0])
		if err != nil || n < 1 {
			return usagef("error: option '--max-turns <turns>' argument '%s' is invalid. must be a positive number", v[0])
		}
		o.maxTurns = n
		return nil
	}},
	{[]string{"--max-budget-usd"}, valueFlag, func(o *options, v []string) error {
		f, err := strconv.ParseFloat(v[0], 64)
		if err != nil || f <= 0 {
			return usagef("error: option '--max-budget-usd <amount>' argument '%s' is invalid. must be a positive number", v[0])
		}
		o.maxBudget = f
		return nil
	}},
	{[]string{"--permission-mode"}, valueFlag, func(o *options, v []string) error {
		m, err := claudeMode(v[0])
		if err != nil {
			return err
		}
		o.mode = m
		return nil
	}},
	{[]string{"--dangerously-skip-permissions"}, boolFlag, func(o *options, _ []string) error { o.mode = "bypassPermissions"; return nil }},
	{[]string{"--allowedTools", "--allowed-tools"}, listFlag, func(o *options, v []string) error { o.allowed = append(o.allowed, splitRules(v)...); return nil }},
	{[]string{"--disallowedTools", "--disallowed-tools"}, listFlag, func(o *options, v []string) error {
		o.disallowed = append(o.disallowed, splitRules(v)...)
		return nil
	}},
	{[]string{"--tools"}, listFlag, func(o *options, v []string) error {
		o.toolsSet, o.tools = true, splitList(v)
		if len(o.tools) == 1 && o.tools[0] == "default" {
			o.toolsSet, o.tools = false, nil
		}
		return nil
	}},
	{[]string{"--system-prompt"}, valueFlag, func(o *options, v []string) error { o.system, o.systemSet = v[0], true; return nil }},
	{[]string{"--append-system-prompt"}, valueFlag, func(o *options, v []string) error { o.appendSystem = v[0]; return nil }},
	{[]string{"--mcp-config"}, listFlag, func(o *options, v []string) error { o.mcpConfigs = append(o.mcpConfigs, v...); return nil }},
	{[]string{"--strict-mcp-config"}, boolFlag, func(o *options, _ []string) error { o.strictMCP = true; return nil }},
	{[]string{"--settings"}, valueFlag, func(o *options, v []string) error { o.settings = v[0]; return nil }},
	{[]string{"--setting-sources"}, valueFlag, func(o *options, v []string) error {
		o.sources = []string{}
		for _, s := range splitList(v) {
			if s != "user" && s != "project" && s != "local" {
				return usagef("error: --setting-sources: %q is not a setting source; use user, project and local", s)
			}
			o.sources = append(o.sources, s)
		}
		return nil
	}},
	{[]string{"--add-dir"}, listFlag, func(o *options, v []string) error { o.addDirs = append(o.addDirs, splitList(v)...); return nil }},
	{[]string{"-r", "--resume"}, valueFlag, func(o *options, v []string) error { o.resume = v[0]; return nil }},
	{[]string{"-c", "--continue"}, boolFlag, func(o *options, _ []string) error { o.continueLast = true; return nil }},
	{[]string{"--session-id"}, valueFlag, func(o *options, v []string) error {
		if !isUUID(v[0]) {
			return usagef("Error: Invalid session ID. Must be a valid UUID.")
		}
		o.sessionID = v[0]
		return nil
	}},
	{[]string{"--fork-session"}, boolFlag, func(o *options, _ []string) error { o.fork = true; return nil }},
	{[]string{"--permission-prompt-tool"}, valueFlag, func(o *options, v []string) error { o.promptTool = v[0]; return nil }},
	{[]string{"--permission-prompts"}, valueFlag, func(o *options, v []string) error {
		if v[0] != "host" && v[0] != "none" {
			return usagef("error: option '--permission-prompts <target>' argument '%s' is invalid. Allowed choices are host, none.", v[0])
		}
		o.promptsNobody = v[0] == "none"
		return nil
	}},
	{[]string{"-v", "--version"}, boolFlag, func(o *options, _ []string) error { o.version = true; return nil }},
	{[]string{"-h", "--help"}, boolFlag, func(o *options, _ []string) error { o.help = true; return nil }},
}

// claudeMode maps Claude Code's permission modes onto toolpipe's: "manual" is
// Claude Code's other name for default; "auto" (a model classifier decides) has
// no toolpipe counterpart and is refused.
func claudeMode(m string) (string, error) {
	switch m {
	case "default", "acceptEdits", "plan", "bypassPermissions", "dontAsk":
		return m, nil
	case "manual":
		return "default", nil
	case "auto":
		return "", usagef("toolpipe-claude: --permission-mode auto (a classifier decides) is not supported; use default, acceptEdits, plan, dontAsk or bypassPermissions")
	}
	return "", usagef("error: option '--permission-mode <mode>' argument '%s' is invalid. Allowed choices are acceptEdits, auto, bypassPermissions, manual, dontAsk, plan.", m)
}

// parseArgs reads Claude Code's command line; warnings about ignored options go to
// warn, one line each.
func parseArgs(args []string, warn io.Writer) (options, error) {
	o := options{outputFormat: "text", inputFormat: "text"}
	byName := map[string]flagSpec{}
	for _, s := range specs {
		for _, n := range s.names {
			byName[n] = s
		}
	}
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		name, inline, hasInline := strings.Cut(a, "=")
		// Values: --flag=value, or the arguments that follow (a list takes every
		// one up to the next option).
		values := func(kind flagKind) ([]string, error) {
			switch {
			case kind == boolFlag:
				if hasInline {
					return nil, usagef("error: option '%s' does not take a value", name)
				}
				return nil, nil
			case hasInline:
				return []string{inline}, nil
			case kind == optFlag:
				return nil, nil
			}
			var vs []string
			for i+1 < len(args) && (!strings.HasPrefix(args[i+1], "-") || args[i+1] == "-") {
				i++
				vs = append(vs, args[i])
				if kind == valueFlag {
					break
				}
			}
			if len(vs) == 0 {
				return nil, usagef("error: option '%s' argument missing", name)
			}
			return vs, nil
		}
		if s, ok := byName[name]; ok {
			vs, err := values(s.kind)
			if err != nil {
				return o, err
			}
			if err := s.set(&o, vs); err != nil {
				return o, err
			}
			continue
		}
		if why, ok := refused[name]; ok {
			return o, usagef("toolpipe-claude: %s is not supported: %s", name, why)
		}
		if why, ok := ignored[name]; ok || name == "-n" || name == "-d" {
			kind, known := ignoredKinds[name]
			if !known {
				kind = boolFlag
			}
			if _, err := values(kind); err != nil {
				return o, err
			}
			if why != "" {
				fmt.Fprintf(warn, "toolpipe-claude: warning: %s is ignored: %s\n", name, why)
			}
			continue
		}
		return o, usagef("error: unknown option '%s'", name)
	}
	switch {
	case len(positional) > 1:
		return o, usagef("error: too many arguments: give the prompt as one (quoted) argument")
	case len(positional) == 1:
		o.prompt = positional[0]
	}
	return o, o.check()
}

// check refuses combinations Claude Code refuses, in its words.
func (o options) check() error {
	switch {
	case o.version || o.help:
		return nil
	case !o.print && o.inputFormat != "stream-json":
		return usagef("toolpipe-claude: the interactive mode is not supported: give -p (--print) with a prompt, or --input-format stream-json (the Claude Agent SDK)")
	case o.outputFormat == "stream-json" && !o.verbose:
		return usagef("Error: When using --print, --output-format=stream-json requires --verbose")
	case o.inputFormat == "stream-json" && o.outputFormat != "stream-json":
		return usagef("Error: --input-format=stream-json requires output-format=stream-json.")
	case o.partial && o.outputFormat != "stream-json":
		return usagef("Error: --include-partial-messages requires --output-format=stream-json")
	case o.fork && o.resume == "" && !o.continueLast:
		return usagef("Error: --fork-session requires --resume or --continue")
	case o.sessionID != "" && (o.resume != "" || o.continueLast) && !o.fork:
		return usagef("Error: --session-id can only be used with --continue or --resume if --fork-session is also specified.")
	case o.promptTool != "" && o.promptTool != "stdio":
		return usagef("toolpipe-claude: --permission-prompt-tool %s is not supported: answer permission prompts with the SDK's canUseTool (--permission-prompt-tool stdio)", o.promptTool)
	case o.promptTool == "stdio" && o.inputFormat != "stream-json":
		return usagef("Error: --permission-prompt-tool stdio requires --input-format stream-json")
	}
	return nil
}

// errHelp is returned for -h: the help is printed, exit 0.
var errHelp = errors.New("help")
