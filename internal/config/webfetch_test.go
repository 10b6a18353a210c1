package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolpipe/toolpipe/internal/testfs"
)

func webFetchFlags(args ...string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	AddFlags(fs, KeyStateDir, KeyWebFetchAllowPrivate, KeyWebFetchTimeout)
	if err := fs.Parse(args); err != nil {
		panic(err)
	}
	return fs
}

// webfetch-allow-private is off by default and can be turned on by the file, the
// environment or the flag; a value that is not a boolean is refused, not read as
// false.
func TestWebFetchAllowPrivate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "toolpipe.yaml")
	load := func(fs *pflag.FlagSet, file string) (Config, error) {
		c, _, err := Load(fs, file)
		return c, err
	}
	if c, err := load(webFetchFlags("--state-dir", dir), ""); err != nil || c.WebFetchAllowPrivate {
		t.Fatalf("default: %v %v", c.WebFetchAllowPrivate, err)
	}
	testfs.Write(t, file, "webfetch-allow-private: true\n")
	if c, err := load(webFetchFlags("--state-dir", dir), file); err != nil || !c.WebFetchAllowPrivate {
		t.Fatalf("file: %v %v", c.WebFetchAllowPrivate, err)
	}
	if c, err := load(webFetchFlags("--state-dir", dir, "--webfetch-allow-private=false"), file); err != nil || c.WebFetchAllowPrivate {
		t.Fatalf("flag over file: %v %v", c.WebFetchAllowPrivate, err)
	}
	t.Setenv("TOOLPIPE_WEBFETCH_ALLOW_PRIVATE", "1")
	if c, err := load(webFetchFlags("--state-dir", dir), ""); err != nil || !c.WebFetchAllowPrivate {
		t.Fatalf("env: %v %v", c.WebFetchAllowPrivate, err)
	}
	t.Setenv("TOOLPIPE_WEBFETCH_ALLOW_PRIVATE", "")
	testfs.Write(t, file, "webfetch-allow-private: sometimes\n")
	if _, err := load(webFetchFlags("--state-dir", dir), file); err == nil || !strings.Contains(err.Error(), `webfetch-allow-private "sometimes" is not true or false`) {
		t.Fatalf("bad value: %v", err)
	}
}

// webfetch-timeout defaults to a minute; one outside 1s-10m, or not a duration, is
// refused with what to write instead.
func TestWebFetchTimeout(t *testing.T) {
	dir := t.TempDir()
	if c, _, err := Load(webFetchFlags("--state-dir", dir), ""); err != nil || c.WebFetchTimeout != time.Minute {
		t.Fatalf("default: %v %v", c.WebFetchTimeout, err)
	}
	if c, _, err := Load(webFetchFlags("--state-dir", dir, "--webfetch-timeout", "5s"), ""); err != nil || c.WebFetchTimeout != 5*time.Second {
		t.Fatalf("flag: %v %v", c.WebFetchTimeout, err)
	}
	file := filepath.Join(dir, "toolpipe.yaml")
	for bad, want := range map[string]string{"100ms": "between 1s and 10m", "1h": "between 1s and 10m", "soon": "not a duration such as 30s"} {
		testfs.Write(t, file, "webfetch-timeout: "+bad+"\n")
		if _, _, err := Load(webFetchFlags("--state-dir", dir), file); err == nil || !strings.Contains(err.Error(), "webfetch-timeout") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
