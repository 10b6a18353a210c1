package config

import (
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync/atomic"

	"github.com/fsnotify/fsnotify"
	"github.com/spf13/cast"
	"github.com/spf13/viper"

	"github.com/toolpipe/toolpipe/tool"
)

// Thresholds are the operator's per-tool persistence thresholds (DESIGN §4.1), in
// characters, as the tools' own maxResultSizeChars. They are
// re-read when the config file changes, so a running worker picks up a new value for
// its next call; an invalid value is ignored with a warning.
type Thresholds struct {
	cur atomic.Pointer[map[string]int]
}

// Override returns the override for a tool, if one is set.
func (t *Thresholds) Override(toolName string) (int, bool) {
	m := t.cur.Load()
	if m == nil {
		return 0, false
	}
	n, ok := (*m)[toolName]
	return n, ok
}

// Overrides returns the thresholds of the configuration, kept current as its file
// changes: every command that runs tools (the worker, and starter run, dev and agent
// with their in-process worker) applies them. A Config not made by Load has none.
func (c Config) Overrides(log *slog.Logger) *Thresholds {
	if c.v == nil {
		return &Thresholds{}
	}
	return WatchThresholds(c.v, log)
}

// WatchThresholds reads the thresholds from v and, when v has a config file, keeps
// them current as the file changes.
func WatchThresholds(v *viper.Viper, log *slog.Logger) *Thresholds {
	t := &Thresholds{}
	load := func() {
		m, err := readThresholds(v)
		if err != nil {
			log.Warn("ignoring invalid thresholds in the config file", "error", err)
		}
		t.cur.Store(&m)
	}
	load()
	if v.ConfigFileUsed() != "" {
		v.OnConfigChange(func(fsnotify.Event) {
			load()
			log.Info("thresholds reloaded", "file", v.ConfigFileUsed())
		})
		v.WatchConfig()
	}
	return t
}

// readThresholds returns the valid overrides and an error naming the invalid ones.
func readThresholds(v *viper.Viper) (map[string]int, error) {
	m := map[string]int{}
	var bad []string
	for key, raw := range v.GetStringMap(KeyThresholds) {
		name, ok := toolName(key)
		if !ok && !tool.IsMCPName(key) {
			bad = append(bad, fmt.Sprintf("%s: no such tool", key))
			continue
		}
		if !ok {
			name = key
		}
		f, err := cast.ToFloat64E(raw)
		if err != nil || f <= 0 || math.IsInf(f, 0) || math.IsNaN(f) || f >= math.MaxInt32 {
			bad = append(bad, fmt.Sprintf("%s: %v is not a positive finite size", key, raw))
			continue
		}
		m[name] = int(f)
	}
	if len(bad) > 0 {
		return m, fmt.Errorf("config: thresholds: %s", strings.Join(bad, "; "))
	}
	return m, nil
}
