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
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/permissions"
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
	// KeyBlobURL is the blob store every host of a fleet shares (DESIGN §11);
	// empty is the state directory (blobstore.SettingName, env TOOLPIPE_BLOB_URL).
	KeyBlobURL = "blob-url"
	// KeyHost names this worker's host for placement (its own task queue); empty is
	// the machine's host name.
	KeyHost = "host"
	// KeyMaxSessions is how many sessions a worker takes at once (placement).
	KeyMaxSessions = "max-sessions"
)

// Config is the validated configuration.
type Config struct {
	StateDir string
	Workdir  string
	// WorkdirSet says the working directory was given (flag, environment or the
	// user's file) rather than defaulted to the current directory: a rewind of a
	// closed session uses the session's own unless one was given.
	WorkdirSet     bool
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
	// BlobURL is the shared blob store's URL; empty is the state directory.
	BlobURL string
	// Host is the name of this worker's host (placement); never empty once loaded.
	Host string
	// MaxSessions is how many sessions this worker's host takes at once.
	MaxSessions int
	// Prices is the config file's price table (prices.go), overriding modelinfo's.
	Prices Prices
	// File is the toolpipe.yaml in use, or "": the --config file, else the current
	// directory's when that workspace is trusted, else the user's (UserFile).
	File string
	// ProjectPermissionMode is the permission-mode of the trusted workspace's
	// toolpipe.yaml, which only lowers the user's (settings.LoadOptions.ProjectMode).
	ProjectPermissionMode string
	// MCPEnvAllow are the variables .mcp.json's ${VAR} may expand (mcp-env-allow).
	MCPEnvAllow []string
	// Trust decides whether a workspace's own files take effect (trust.go).
	Trust *Trust
	// Notices are what the command tells the user on stderr about its
	// configuration: a workspace's files skipped, a key it may not set.
	Notices []string

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
			fs.Duration(k, 24*time.Hour, "how long a tool call waits for an answer (starter approve or deny) before it is denied")
		case KeyWebFetchAllowPrivate:
			fs.Bool(k, false, "let WebFetch reach loopback, private and link-local addresses")
		case KeyWebFetchTimeout:
			fs.Duration(k, time.Minute, "the longest a WebFetch may take, redirects and body included")
		case KeyTrust:
			fs.Bool(k, false, "trust the workspace: its toolpipe.yaml, .mcp.json and .claude/settings*.json take effect (default: only when listed in trusted-workspaces of your own toolpipe.yaml, or when you say so on a terminal)")
		case KeyMCPEnvAllow:
			fs.StringSlice(k, nil, "variables (names or patterns such as DOCS_*) that .mcp.json's ${VAR} may expand")
		case KeyBlobURL:
			fs.String(k, "", "the blob store every host shares (s3://bucket?endpoint=…, gs://, azblob://, file:///dir); empty: the state directory")
		case KeyHost:
			fs.String(k, "", "this worker's host name for session placement (default: the machine's host name)")
		case KeyMaxSessions:
			fs.Int(k, 32, "how many sessions this worker takes at once; more are placed on other hosts")
		}
	}
}

// Load reads the flags of fs, the environment and the configuration files into a
// validated Config, and returns the viper instance for watching. The files, lowest
// first: the user's own toolpipe.yaml (UserFile), then the --config file (file),
// or else the current directory's toolpipe.yaml when that workspace is trusted
// (Trust; a key set there replaces the user's value); flags win over the
// environment, which wins over the files. The keys that decide what runs without
// asking are read from the user's own places only (userOnlyKeys), and a
// workspace's permission-mode only lowers the user's.
//
// A command that declares --trust runs tools and may ask whether to trust the
// workspace on a terminal; one that declares --settings uses the workspace's
// settings and .mcp.json too, so the question and the notice list them.
func Load(fs *pflag.FlagSet, file string) (Config, *viper.Viper, error) {
	v := viper.New()
	v.SetEnvPrefix("TOOLPIPE")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	if err := v.BindPFlags(fs); err != nil {
		return Config{}, nil, fmt.Errorf("config: %w", err)
	}
	l := &layers{fs: fs}
	var err error
	if uf := UserFile(); uf != "" {
		if l.user, err = readLayer(uf, false); err != nil {
			return Config{}, nil, err
		}
	}
	if file != "" {
		if l.explicit, err = readLayer(file, true); err != nil {
			return Config{}, nil, err
		}
	}
	trust, err := newTrust(l, fs.Lookup(KeyTrust) != nil)
	if err != nil {
		return Config{}, nil, fmt.Errorf("config: %w", err)
	}
	var notices []string
	if file == "" && exists(ProjectFile) {
		cwd, _ := os.Getwd()
		withSettings := fs.Lookup(KeySettings) != nil && sameDir(userWorkdir(l, cwd), cwd)
		d := trust.Decide(cwd, WorkspaceFiles(cwd, true, withSettings))
		if d.Notice != "" {
			notices = append(notices, d.Notice)
		}
		if d.Trusted {
			if l.project, err = readLayer(filepath.Join(cwd, ProjectFile), true); err != nil {
				return Config{}, nil, err
			}
			for _, k := range userOnlyKeys {
				if l.project.v.IsSet(k) {
					notices = append(notices, fmt.Sprintf("%s sets %s, which only your own configuration sets (a flag, %s, --config or %s): it is ignored",
						l.project.path, k, envName(k), displayPath(UserFile())))
				}
			}
		}
	}
	// The most specific file is viper's (and the one whose thresholds are watched);
	// the user's file lies beneath it as defaults.
	var main *fileLayer
	for _, f := range []*fileLayer{l.explicit, l.project, l.user} {
		if f != nil && main == nil {
			main = f
		}
	}
	if main != nil {
		v.SetConfigFile(main.path)
		if err := v.ReadInConfig(); err != nil {
			return Config{}, nil, fmt.Errorf("config: read %s: %w", main.path, err)
		}
		if main != l.user && l.user != nil {
			for _, k := range l.user.v.AllKeys() {
				top, _, _ := strings.Cut(k, ".")
				if !v.InConfig(top) {
					v.SetDefault(k, l.user.v.Get(k))
				}
			}
		}
		file = main.path
	}
	// Every value is read strictly: viper's GetInt, GetBool and GetDuration turn a
	// typo (TOOLPIPE_PORT=abc, ui: maybe, a list where a string belongs) into a zero
	// value without a word, and the command would run with it.
	r := strictReader{v: v}
	c := Config{
		StateDir: r.str(KeyStateDir), Workdir: r.str(KeyWorkdir),
		Session: r.str(KeySession), TaskQueue: r.str(KeyTaskQueue),
		Port: r.integer(KeyPort), UI: r.boolean(KeyUI, true), UIPort: r.integer(KeyUIPort),
		HeartbeatTimeout: r.duration(KeyHeartbeatTimeout), LogLevel: r.str(KeyLogLevel), LogFormat: r.str(KeyLogFormat), File: file,
		AskTimeout: r.duration(KeyAskTimeout), WebFetchTimeout: r.duration(KeyWebFetchTimeout),
		Trust: trust, Notices: notices,
		Host: r.str(KeyHost), MaxSessions: r.integer(KeyMaxSessions),
	}
	if c.Host == "" {
		c.Host, _ = os.Hostname()
	}
	r.userKeys(l, &c)
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

// userKeys reads the keys only the user's own places set (layers.userValue), and
// the workspace's permission-mode apart from the user's.
func (r *strictReader) userKeys(l *layers, c *Config) {
	str := func(key, def string) (string, bool) {
		raw, from, ok := l.userValue(key)
		if !ok {
			return def, false
		}
		s, isScalar := scalar(raw)
		if !isScalar {
			r.errs = append(r.errs, fmt.Errorf("%s %s (from %s) is not a single value (a list or a map was given)", key, quote(raw), from))
		}
		return s, true
	}
	c.PermissionMode, c.PermissionModeSet = str(KeyPermissionMode, "default")
	_, _, c.WorkdirSet = l.userValue(KeyWorkdir)
	c.Settings, _ = str(KeySettings, "")
	// Where the session's conversation and outputs go: never a workspace's choice.
	c.BlobURL, _ = str(KeyBlobURL, "")
	if s, set := str(KeyWebFetchAllowPrivate, "false"); set {
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			r.errs = append(r.errs, fmt.Errorf("%s %q is not true or false", KeyWebFetchAllowPrivate, s))
		}
		c.WebFetchAllowPrivate = b
	}
	if raw, from, ok := l.userValue(KeyMCPEnvAllow); ok {
		names, isList := list(raw)
		if !isList {
			r.errs = append(r.errs, fmt.Errorf("%s %s (from %s) is not a list of variable names, e.g. %s: [DOCS_TOKEN]", KeyMCPEnvAllow, quote(raw), from, KeyMCPEnvAllow))
		}
		c.MCPEnvAllow = names
	}
	if l.project != nil && l.project.v.IsSet(KeyPermissionMode) {
		s, isScalar := scalar(l.project.v.Get(KeyPermissionMode))
		if !isScalar {
			r.errs = append(r.errs, fmt.Errorf("%s: %s is not a single value", l.project.path, KeyPermissionMode))
		}
		c.ProjectPermissionMode = s
		if c.PermissionModeSet {
			c.ProjectPermissionMode = "" // the user's choice wins
		}
	}
}

// userWorkdir is the working directory the user's own places give (a flag,
// TOOLPIPE_WORKDIR, --config, the user's file), else cwd.
func userWorkdir(l *layers, cwd string) string {
	if raw, _, ok := l.userValue(KeyWorkdir); ok {
		if s, isScalar := scalar(raw); isScalar && s != "" {
			if abs, err := filepath.Abs(s); err == nil {
				return abs
			}
		}
	}
	return cwd
}

func sameDir(a, b string) bool { return resolveDir(a) == resolveDir(b) }

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
	if used(KeyMaxSessions) && c.MaxSessions < 1 {
		errs = append(errs, fmt.Errorf("%s %d is under 1", KeyMaxSessions, c.MaxSessions))
	}
	if used(KeyHost) && (strings.ContainsAny(c.Host, "/\\\x00 ") || len(c.Host) > 100) {
		errs = append(errs, fmt.Errorf("%s %q must be at most 100 bytes without '/', '\\', spaces or NUL", KeyHost, c.Host))
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
	KeyPort, KeyUI, KeyUIPort, KeyHeartbeatTimeout, KeyLogLevel, KeyLogFormat, KeyThresholds, KeyAskTimeout, KeyWebFetchAllowPrivate, KeyWebFetchTimeout, KeyPrices,
	KeyTrust, KeyTrustedWorkspaces, KeyMCPEnvAllow, KeyBlobURL, KeyHost, KeyMaxSessions}

// Keys are every configuration key, those read only from the file (thresholds,
// prices) included: what the commands' flags are checked against.
func Keys() []string { return slices.Clone(knownKeys) }

// checkFileKeys rejects a key in the config file that toolpipe does not know, naming
// it: a misspelled key would otherwise silently leave its default in force.
func checkFileKeys(file string, f *viper.Viper) error {
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

// toolName maps viper's lower-cased key back to the tool's name: one of the
// built-in tools, which are what the commands run.
func toolName(key string) (string, bool) {
	for _, n := range activities.Builtins().Names() {
		if strings.EqualFold(n, key) {
			return n, true
		}
	}
	return "", false
}
