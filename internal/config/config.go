// Package config loads toolpipe's settings from flags, TOOLPIPE_* environment
// variables and an optional toolpipe.yaml (in that order of precedence), gives every
// key a default, and validates them all at start so a typo fails loudly instead of
// silently running with a default.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
)

// The configuration keys. Flags use the same names; environment variables are
// TOOLPIPE_ followed by the key in upper case with '-' as '_'.
const (
	KeyStateDir         = "state-dir"
	KeyWorkdir          = "workdir"
	KeySettings         = "settings"
	KeyPermissionMode   = "permission-mode"
	KeySession          = "session"
	KeyTaskQueue        = "task-queue"
	KeyPort             = "port"
	KeyUI               = "ui"
	KeyUIPort           = "ui-port"
	KeyHeartbeatTimeout = "heartbeat-timeout"
	KeyLogLevel         = "log-level"
	// KeyLogFormat is text or json; every command with a log level has it.
	KeyLogFormat  = "log-format"
	KeyThresholds = "thresholds"
	KeyAskTimeout = "ask-timeout"
	// KeyWebFetchAllowPrivate lets WebFetch reach loopback, private and link-local
	// addresses; off, such requests are refused (no server-side request forgery).
	KeyWebFetchAllowPrivate = "webfetch-allow-private"
	// KeyWebFetchTimeout bounds one WebFetch: connecting, redirects and the body.
	KeyWebFetchTimeout = "webfetch-timeout"
)

// Config is the validated configuration.
type Config struct {
	StateDir       string
	Workdir        string
	Settings       string
	PermissionMode string
	// PermissionModeSet says the mode was given (flag, environment or file) rather
	// than defaulted: only then does it turn permission checks on by itself.
	PermissionModeSet bool
	// AskTimeout is how long a call may wait for approval before it is denied.
	AskTimeout       time.Duration
	Session          string
	TaskQueue        string
	Port             int
	UI               bool
	UIPort           int
	HeartbeatTimeout time.Duration
	LogLevel         string
	// LogFormat is "text" (slog's key=value lines) or "json" (one object a line).
	LogFormat string
	// WebFetchAllowPrivate lets WebFetch reach the local network.
	WebFetchAllowPrivate bool
	// WebFetchTimeout bounds one WebFetch.
	WebFetchTimeout time.Duration
	// Prices is the config file's price table (prices.go), overriding modelinfo's.
	Prices Prices
	// File is the toolpipe.yaml in use, or "".
	File string

	// v is where the configuration came from, for the thresholds that follow the
	// file as it changes (Overrides).
	v *viper.Viper
}

// PermissionModes are Claude Code's permission modes, as permissions parses them
// (dontAsk included: a settings file's defaultMode and the flag take the same).
var PermissionModes = permissions.ModeNames()

var logLevels = []string{"debug", "info", "warn", "error"}

// LogFormats are the values of log-format.
var LogFormats = []string{"text", "json"}

// DefaultStateDir is $XDG_STATE_HOME/toolpipe, else ~/.local/state/toolpipe.
func DefaultStateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "toolpipe")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "toolpipe-state")
	}
	return filepath.Join(home, ".local", "state", "toolpipe")
}

// AddFlags declares the flags of the keys a command uses, with their defaults.
func AddFlags(fs *pflag.FlagSet, keys ...string) {
	cwd, _ := os.Getwd()
	for _, k := range keys {
		switch k {
		case KeyStateDir:
			fs.String(k, DefaultStateDir(), "the embedded server's database and persisted outputs")
		case KeyWorkdir:
			fs.String(k, cwd, "the tools' working directory")
		case KeySettings:
			fs.String(k, "", "a Claude Code settings.json (hooks and permissions)")
		case KeyPermissionMode:
			fs.String(k, "default", "permission mode: "+strings.Join(PermissionModes, ", "))
		case KeySession:
			fs.String(k, "default", "session id: groups turns and their persisted outputs")
		case KeyTaskQueue:
			fs.String(k, "toolpipe", "the Temporal task queue of the workers")
		case KeyPort:
			fs.Int(k, 7233, "the embedded server's gRPC port on 127.0.0.1 (0: any free port)")
		case KeyUI:
			fs.Bool(k, true, "serve the Temporal Web UI beside the embedded server")
		case KeyUIPort:
			fs.Int(k, 8233, "the Web UI's port on 127.0.0.1")
		case KeyHeartbeatTimeout:
			fs.Duration(k, 20*time.Second, "how long a silent tool counts as alive (bounds lost-worker detection)")
		case KeyLogLevel:
			fs.String(k, "warn", "log level: "+strings.Join(logLevels, ", "))
			fs.String(KeyLogFormat, "text", "log format: "+strings.Join(LogFormats, ", "))
		case KeyAskTimeout:
			fs.Duration(k, 24*time.Hour, "how long a tool call waits for `starter approve` before it is denied")
		case KeyWebFetchAllowPrivate:
			fs.Bool(k, false, "let WebFetch reach loopback, private and link-local addresses")
		case KeyWebFetchTimeout:
			fs.Duration(k, time.Minute, "the longest a WebFetch may take, redirects and body included")
		}
	}
}

// Load reads the flags of fs, the environment and the config file (file, or
// ./toolpipe.yaml when it exists) into a validated Config, and returns the viper
// instance for watching.
func Load(fs *pflag.FlagSet, file string) (Config, *viper.Viper, error) {
	v := viper.New()
	v.SetEnvPrefix("TOOLPIPE")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	if err := v.BindPFlags(fs); err != nil {
		return Config{}, nil, fmt.Errorf("config: %w", err)
	}
	if file == "" {
		if _, err := os.Stat("toolpipe.yaml"); err == nil {
			file = "toolpipe.yaml"
		}
	}
	if file != "" {
		v.SetConfigFile(file)
		if err := v.ReadInConfig(); err != nil {
			return Config{}, nil, fmt.Errorf("config: read %s: %w", file, err)
		}
		if err := checkFileKeys(file); err != nil {
			return Config{}, nil, err
		}
	}
	// Every value is read strictly: viper's GetInt, GetBool and GetDuration turn a
	// typo (TOOLPIPE_PORT=abc, ui: maybe, a list where a string belongs) into a zero
	// value without a word, and the command would run with it.
	r := strictReader{v: v}
	c := Config{
		StateDir: r.str(KeyStateDir), Workdir: r.str(KeyWorkdir), Settings: r.str(KeySettings),
		PermissionMode: r.str(KeyPermissionMode), Session: r.str(KeySession), TaskQueue: r.str(KeyTaskQueue),
		Port: r.integer(KeyPort), UI: r.boolean(KeyUI, true), UIPort: r.integer(KeyUIPort),
		HeartbeatTimeout: r.duration(KeyHeartbeatTimeout), LogLevel: r.str(KeyLogLevel), LogFormat: r.str(KeyLogFormat), File: file,
		PermissionModeSet: v.IsSet(KeyPermissionMode), AskTimeout: r.duration(KeyAskTimeout),
		WebFetchTimeout: r.duration(KeyWebFetchTimeout), WebFetchAllowPrivate: r.boolean(KeyWebFetchAllowPrivate, false),
	}
	prices, perrs := readPrices(v.Get(KeyPrices))
	c.Prices, r.errs = prices, append(r.errs, perrs...)
	if _, err := readThresholds(v); err != nil {
		// At start a bad threshold is an error; a bad edit while a worker runs is
		// ignored with a warning (WatchThresholds), since nobody is there to read it.
		r.errs = append(r.errs, errors.New(strings.TrimPrefix(err.Error(), "config: ")))
	}
	if err := errors.Join(r.errs...); err != nil {
		return Config{}, nil, fmt.Errorf("config: %w", err)
	}
	// A key is checked when the command declares it or it is set anyway: a command
	// without --session (status, approve) must not fail on an empty session.
	used := func(key string) bool { return fs.Lookup(key) != nil || v.IsSet(key) }
	if err := c.validate(used); err != nil {
		return Config{}, nil, err
	}
	c.v = v
	return c, v, nil
}

func (c *Config) validate(used func(key string) bool) error {
	var errs []error
	abs := func(key string, p *string) {
		if *p == "" {
			return
		}
		a, err := filepath.Abs(*p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %w", key, *p, err))
		}
		*p = a
	}
	abs(KeyStateDir, &c.StateDir)
	abs(KeyWorkdir, &c.Workdir)
	abs(KeySettings, &c.Settings)
	if c.StateDir == "" {
		errs = append(errs, fmt.Errorf("%s must not be empty", KeyStateDir))
	}
	if st, err := os.Stat(c.Workdir); c.Workdir != "" && (err != nil || !st.IsDir()) {
		errs = append(errs, fmt.Errorf("%s %q is not a directory", KeyWorkdir, c.Workdir))
	}
	if used(KeyPermissionMode) && !slices.Contains(PermissionModes, c.PermissionMode) {
		errs = append(errs, fmt.Errorf("%s %q is not one of %s", KeyPermissionMode, c.PermissionMode, strings.Join(PermissionModes, ", ")))
	}
	if used(KeySession) && (c.Session == "" || strings.ContainsAny(c.Session, "/\\\x00") || c.Session == "." || c.Session == ".." || len(c.Session) > 200) {
		errs = append(errs, fmt.Errorf("%s %q must be 1-200 bytes without '/', '\\' or NUL", KeySession, c.Session))
	}
	if used(KeyTaskQueue) && c.TaskQueue == "" {
		errs = append(errs, fmt.Errorf("%s must not be empty", KeyTaskQueue))
	}
	for key, p := range map[string]int{KeyPort: c.Port, KeyUIPort: c.UIPort} {
		if p < 0 || p > 65535 {
			errs = append(errs, fmt.Errorf("%s %d is not a port (0-65535)", key, p))
		}
	}
	if c.AskTimeout != 0 && c.AskTimeout < time.Second {
		errs = append(errs, fmt.Errorf("%s %s is under 1s", KeyAskTimeout, c.AskTimeout))
	}
	if used(KeyWebFetchTimeout) && (c.WebFetchTimeout < time.Second || c.WebFetchTimeout > 10*time.Minute) {
		errs = append(errs, fmt.Errorf("%s %s is not between 1s and 10m (a duration such as 30s)", KeyWebFetchTimeout, c.WebFetchTimeout))
	}
	if used(KeyHeartbeatTimeout) && c.HeartbeatTimeout < time.Second {
		errs = append(errs, fmt.Errorf("%s %s is under 1s", KeyHeartbeatTimeout, c.HeartbeatTimeout))
	}
	if used(KeyLogLevel) && !slices.Contains(logLevels, c.LogLevel) {
		errs = append(errs, fmt.Errorf("%s %q is not one of %s", KeyLogLevel, c.LogLevel, strings.Join(logLevels, ", ")))
	}
	if used(KeyLogFormat) && !slices.Contains(LogFormats, c.LogFormat) {
		errs = append(errs, fmt.Errorf("%s %q is not one of %s", KeyLogFormat, c.LogFormat, strings.Join(LogFormats, ", ")))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

var knownKeys = []string{KeyStateDir, KeyWorkdir, KeySettings, KeyPermissionMode, KeySession, KeyTaskQueue,
	KeyPort, KeyUI, KeyUIPort, KeyHeartbeatTimeout, KeyLogLevel, KeyLogFormat, KeyThresholds, KeyAskTimeout, KeyWebFetchAllowPrivate, KeyWebFetchTimeout, KeyPrices}

// Keys are every configuration key, those read only from the file (thresholds,
// prices) included: what the commands' flags are checked against.
func Keys() []string { return slices.Clone(knownKeys) }

// checkFileKeys rejects a key in the config file that toolpipe does not know, naming
// it: a misspelled key would otherwise silently leave its default in force.
func checkFileKeys(file string) error {
	f := viper.New()
	f.SetConfigFile(file)
	if err := f.ReadInConfig(); err != nil {
		return fmt.Errorf("config: read %s: %w", file, err)
	}
	for _, k := range f.AllKeys() {
		top, _, _ := strings.Cut(k, ".")
		if !slices.Contains(knownKeys, top) {
			return fmt.Errorf("config: %s: unknown key %q; the keys are %s", file, k, strings.Join(knownKeys, ", "))
		}
		if top == KeyThresholds && !strings.Contains(k, ".") {
			return fmt.Errorf("config: %s: %q must map tool names to sizes, e.g. thresholds: {Bash: 10000}", file, k)
		}
	}
	return nil
}

// toolName maps viper's lower-cased key back to the tool's name.
func toolName(key string) (string, bool) {
	for _, n := range tool.Names() {
		if strings.EqualFold(n, key) {
			return n, true
		}
	}
	return "", false
}
