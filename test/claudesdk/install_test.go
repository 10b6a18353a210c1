package claudesdk

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The pinned releases the programs run with (programs/package-lock.json).
const (
	sdkVersion    = "0.3.328"
	claudeVersion = "2.1.328"
)

// programs is the installed and compiled programs/ directory: the SDK, Claude
// Code's native executable and dist/scenarios.js.
type programs struct {
	dir    string
	claude string
}

var (
	installOnce sync.Once
	installed   programs
	installErr  error
)

// install returns the programs, installing the locked packages (npm ci) and
// compiling them once into a cache directory keyed by the lock file and sources.
// Without node or npm (or on a platform Claude Code's linux-x64 build does not
// run on) the test is skipped, except in CI (CI=true), where that fails.
func install(t *testing.T) programs {
	t.Helper()
	installOnce.Do(func() { installed, installErr = installPrograms() })
	if installErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the Claude Agent SDK programs are needed in CI: %v", installErr)
		}
		t.Skipf("the Claude Agent SDK programs are not available: %v; CI=true makes this a failure", installErr)
	}
	return installed
}

// cacheDir is TOOLPIPE_SDK_CACHE, else the user's cache directory.
func cacheDir() (string, error) {
	if d := os.Getenv("TOOLPIPE_SDK_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "toolpipe-claudesdk"), nil
}

// programFiles are copied into the cache; their hash names the installation.
var programFiles = []string{"package.json", "package-lock.json", "tsconfig.json", "src/scenarios.ts"}

func installPrograms() (programs, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return programs{}, fmt.Errorf("the programs pin Claude Code's linux-x64 build; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	for _, prog := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(prog); err != nil {
			return programs{}, fmt.Errorf("%s is not on PATH", prog)
		}
	}
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "programs")
	h := sha256.New()
	contents := map[string][]byte{}
	for _, f := range programFiles {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return programs{}, err
		}
		contents[f] = b
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	base, err := cacheDir()
	if err != nil {
		return programs{}, err
	}
	dir := filepath.Join(base, hex.EncodeToString(h.Sum(nil))[:16])
	p := programs{dir: dir, claude: filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")}
	if ok(p) {
		return p, nil
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return programs{}, err
	}
	// Built beside its final place and renamed, so a broken build is never mistaken
	// for a good one.
	tmp, err := os.MkdirTemp(base, "install-")
	if err != nil {
		return programs{}, err
	}
	defer os.RemoveAll(tmp)
	for f, b := range contents {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(tmp, f)), 0o755); err != nil {
			return programs{}, err
		}
		if err := os.WriteFile(filepath.Join(tmp, f), b, 0o644); err != nil {
			return programs{}, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// --omit=optional: Claude Code's linux-x64 package is a direct dependency; the
	// SDK's own copy of the executable (another 370 MB) is not needed, since every
	// program names the executable it runs.
	for _, args := range [][]string{{"npm", "ci", "--omit=optional", "--no-audit", "--no-fund", "--loglevel=error"}, {"npx", "tsc", "-p", "."}} {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir = tmp
		if out, err := cmd.CombinedOutput(); err != nil {
			return programs{}, fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		return programs{}, err
	}
	if !ok(p) {
		return programs{}, errors.New("installed, but Claude Code " + claudeVersion + " does not run: " + p.claude)
	}
	return p, nil
}

// ok says the installation is complete: the program compiled and the executable
// reports the pinned version.
func ok(p programs) bool {
	if _, err := os.Stat(filepath.Join(p.dir, "dist", "scenarios.js")); err != nil {
		return false
	}
	out, err := exec.Command(p.claude, "--version").Output()
	return err == nil && strings.HasPrefix(string(out), claudeVersion)
}
