package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// The keys only the user's own configuration sets: a flag, a TOOLPIPE_ variable,
// the --config file or the user's toolpipe.yaml, never the toolpipe.yaml a
// workspace holds. Each of them decides what runs without asking or what the
// workspace's own files may do, which a repository must not decide for itself.
const (
	// KeyTrust trusts the workspace (--trust, TOOLPIPE_TRUST, or trust: true in
	// the user's file, as Claude Code's headless mode does): its own files take
	// effect. false means never, without asking.
	KeyTrust = "trust"
	// KeyTrustedWorkspaces lists directories whose workspaces (they and every
	// directory below) are trusted.
	KeyTrustedWorkspaces = "trusted-workspaces"
	// KeyMCPEnvAllow lists the variables (names or shell patterns) .mcp.json's
	// ${VAR} may expand in this process's worker.
	KeyMCPEnvAllow = "mcp-env-allow"
)

// userOnlyKeys are the keys a workspace's toolpipe.yaml cannot set (permission-mode
// only lowers: settings.LoadOptions.ProjectMode).
var userOnlyKeys = []string{KeySettings, KeyWebFetchAllowPrivate, KeyTrust, KeyTrustedWorkspaces, KeyMCPEnvAllow, KeyBlobURL}

// UserFile is the user's own toolpipe.yaml: $XDG_CONFIG_HOME/toolpipe/toolpipe.yaml,
// else ~/.config/toolpipe/toolpipe.yaml. It is read by every command, beneath the
// --config file or a trusted workspace's toolpipe.yaml.
func UserFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "toolpipe", "toolpipe.yaml")
}

// ProjectFile is the workspace's own toolpipe.yaml, read from the current
// directory when no --config is given, and only when the directory is trusted.
const ProjectFile = "toolpipe.yaml"

// fileLayer is one configuration file, read on its own so that what it sets is
// known apart from the others.
type fileLayer struct {
	path string
	v    *viper.Viper
}

// readLayer reads and checks file; nil, nil when it does not exist and need not.
func readLayer(file string, mustExist bool) (*fileLayer, error) {
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) && !mustExist {
		return nil, nil
	}
	f := viper.New()
	f.SetConfigFile(file)
	if err := f.ReadInConfig(); err != nil {
		return nil, fmt.Errorf("config: read %s: %w", file, err)
	}
	if err := checkFileKeys(file, f); err != nil {
		return nil, err
	}
	return &fileLayer{path: file, v: f}, nil
}

// layers are where a key's value can come from, for the keys that are read from
// the user's own places only (userValue).
type layers struct {
	fs       *pflag.FlagSet
	explicit *fileLayer // --config
	user     *fileLayer // UserFile
	project  *fileLayer // a trusted workspace's toolpipe.yaml
}

// envName is the TOOLPIPE_ variable of key.
func envName(key string) string {
	return "TOOLPIPE_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// userValue is key's value from the user's own places, highest first: a flag that
// was given, the TOOLPIPE_ variable, the --config file, the user's file. from says
// which, for messages.
func (l *layers) userValue(key string) (raw any, from string, ok bool) {
	if f := l.fs.Lookup(key); f != nil && f.Changed {
		if sv, isSlice := f.Value.(pflag.SliceValue); isSlice {
			return sv.GetSlice(), "--" + key, true
		}
		return f.Value.String(), "--" + key, true
	}
	if v, ok := os.LookupEnv(envName(key)); ok && v != "" { // empty is unset, as viper reads it
		return v, envName(key), true
	}
	for _, f := range []*fileLayer{l.explicit, l.user} {
		if f != nil && f.v.IsSet(key) {
			return f.v.Get(key), f.path, true
		}
	}
	return nil, "", false
}

// list reads a list value: a YAML list, or a string of items separated by commas
// (or, for paths, the list separator of PATH).
func list(raw any) ([]string, bool) {
	var items []string
	switch x := raw.(type) {
	case nil:
		return nil, true
	case string:
		items = strings.FieldsFunc(x, func(r rune) bool { return r == ',' || r == os.PathListSeparator })
	case []string:
		items = x
	case []any:
		for _, e := range x {
			s, ok := scalar(e)
			if !ok {
				return nil, false
			}
			items = append(items, s)
		}
	default:
		return nil, false
	}
	var out []string
	for _, s := range items {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, true
}
