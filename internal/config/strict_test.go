package config

import (
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testfs"
)

// Every bad value is refused with the key, the value and what is allowed, whether it
// comes from the environment or the file; viper alone reads each of these as a zero
// value and the command would run with it.
func TestBadValuesNameKeyValueAndWhatIsAllowed(t *testing.T) {
	cases := []struct {
		name, env, envValue, file string
		want                      []string
	}{
		{name: "port not a number", env: "TOOLPIPE_PORT", envValue: "abc", want: []string{`port "abc" is not a whole number`}},
		{name: "ui not a boolean", env: "TOOLPIPE_UI", envValue: "maybe", want: []string{`ui "maybe" is not true or false`}},
		{name: "heartbeat not a duration", env: "TOOLPIPE_HEARTBEAT_TIMEOUT", envValue: "abc", want: []string{`heartbeat-timeout "abc" is not a duration`}},
		{name: "session is a list", file: "session: [a, b]\n", want: []string{"session [a b] is not a single value"}},
		{name: "ui-port in file not a number", file: "ui-port: lots\n", want: []string{`ui-port "lots" is not a whole number`}},
		{name: "negative threshold", file: "thresholds:\n  Bash: -5\n", want: []string{"thresholds", "bash", "-5", "positive"}},
		{name: "threshold for no tool", file: "thresholds:\n  Bsh: 5\n", want: []string{"bsh: no such tool"}},
		{name: "log format unknown", env: "TOOLPIPE_LOG_FORMAT", envValue: "xml", want: []string{`log-format "xml" is not one of text, json`}},
		{name: "log format in file is a list", file: "log-format: [json]\n", want: []string{"log-format [json] is not a single value"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := ""
			if tc.file != "" {
				file = filepath.Join(t.TempDir(), "toolpipe.yaml")
				testfs.Write(t, file, tc.file)
			}
			if tc.env != "" {
				t.Setenv(tc.env, tc.envValue)
			}
			wantRefused(t, file, tc.want)
		})
	}
}

// Good values in every form still load: environment strings, typed file values and
// flags.
func TestGoodValuesInEveryForm(t *testing.T) {
	file := filepath.Join(t.TempDir(), "toolpipe.yaml")
	testfs.Write(t, file, "ui-port: 9001\nheartbeat-timeout: 45s\nthresholds:\n  Bash: 1000\n")
	t.Setenv("TOOLPIPE_UI", "false")
	t.Setenv("TOOLPIPE_PORT", "7999")
	t.Setenv("TOOLPIPE_LOG_FORMAT", "json")
	c, _, err := Load(flags("--log-level", "info"), file)
	if err != nil {
		t.Fatal(err)
	}
	if c.UI || c.Port != 7999 || c.UIPort != 9001 || c.HeartbeatTimeout.String() != "45s" || c.LogLevel != "info" || c.LogFormat != "json" {
		t.Fatalf("loaded %+v", c)
	}
}
