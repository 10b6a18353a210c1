package config

import (
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolpipe/toolpipe/internal/testfs"
)

func flags(args ...string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	AddFlags(fs, KeyStateDir, KeyWorkdir, KeySettings, KeyPermissionMode, KeySession, KeyTaskQueue,
		KeyPort, KeyUI, KeyUIPort, KeyHeartbeatTimeout, KeyLogLevel)
	if err := fs.Parse(args); err != nil {
		panic(err)
	}
	return fs
}

// wantRefused fails the test unless Load refuses the file (none when "") with an
// error that says each of want.
func wantRefused(t *testing.T, file string, want []string) {
	t.Helper()
	_, _, err := Load(flags("--state-dir", t.TempDir()), file)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

func TestDefaultsEnvFlagsAndFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "toolpipe.yaml")
	testfs.Write(t, file, "session: from-file\ntask-queue: from-file\nui-port: 9000\n")
	t.Setenv("TOOLPIPE_TASK_QUEUE", "from-env")
	c, _, err := Load(flags("--ui-port", "9100", "--state-dir", dir), file)
	if err != nil {
		t.Fatal(err)
	}
	if c.Session != "from-file" || c.TaskQueue != "from-env" || c.UIPort != 9100 || c.PermissionMode != "default" || c.HeartbeatTimeout != 20*time.Second {
		t.Fatalf("precedence flags > env > file > defaults broken: %+v", c)
	}
}

func TestMisspelledKeyIsNamed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "toolpipe.yaml")
	testfs.Write(t, file, "sesion: typo\n")
	_, _, err := Load(flags(), file)
	if err == nil || !strings.Contains(err.Error(), `unknown key "sesion"`) {
		t.Fatalf("err = %v, want it to name the misspelled key", err)
	}
}

func TestInvalidValuesRejected(t *testing.T) {
	for _, args := range [][]string{
		{"--permission-mode", "yolo"}, {"--log-level", "loud"}, {"--ui-port", "70000"},
		{"--heartbeat-timeout", "10ms"}, {"--session", "a/b"}, {"--workdir", "/definitely/not/here"},
	} {
		if _, _, err := Load(flags(args...), ""); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// DESIGN §4.1: an override changed in the config file applies without a restart; an
// invalid one is ignored with a warning.
func TestThresholdOverridesReload(t *testing.T) {
	file := filepath.Join(t.TempDir(), "toolpipe.yaml")
	testfs.Write(t, file, "thresholds:\n  Bash: 1000\n")
	_, v, err := Load(flags(), file)
	if err != nil {
		t.Fatal(err)
	}
	th := WatchThresholds(v, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if n, ok := th.Override("Bash"); !ok || n != 1000 {
		t.Fatalf("Bash override %d %v", n, ok)
	}
	testfs.Write(t, file, "thresholds:\n  Bash: 2000\n  Grep: -5\n")
	waitFor(t, "the new Bash override", func() bool { n, _ := th.Override("Bash"); return n == 2000 })
	if _, ok := th.Override("Grep"); ok {
		t.Fatal("a negative override was accepted")
	}
}

// waitFor polls: the file watcher has no event the test can subscribe to.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
