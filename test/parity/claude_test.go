package parity

import (
	"context"
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

// claudeVersion is the Claude Code release the suite compares against. Bump it
// deliberately: a new release can change the texts the suite checks.
const claudeVersion = "2.1.328"

var (
	installOnce sync.Once
	claudeBin   string
	installErr  error
)

// claudeCode returns the path of the pinned Claude Code binary, installing it from
// npm into a cache directory on first use. Without npm or the registry the test is
// skipped, except in CI (CI=true), where that is a failure.
func claudeCode(t *testing.T) string {
	t.Helper()
	installOnce.Do(func() { claudeBin, installErr = install() })
	if installErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Claude Code %s is needed in CI: %v", claudeVersion, installErr)
		}
		t.Skipf("Claude Code %s not available (npm or its registry not reachable?): %v; CI=true makes this a failure", claudeVersion, installErr)
	}
	return claudeBin
}

// cacheDir is where the pinned release is installed: TOOLPIPE_PARITY_CACHE, else the
// user's cache directory.
func cacheDir() (string, error) {
	if d := os.Getenv("TOOLPIPE_PARITY_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "toolpipe-parity"), nil
}

func install() (string, error) {
	base, err := cacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, "claude-code-"+claudeVersion)
	if bin, err := findBinary(dir); err == nil {
		return bin, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", errors.New("npm is not on PATH")
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	// Installed beside its final place and renamed, so a broken install is never
	// mistaken for a good one.
	tmp, err := os.MkdirTemp(base, "install-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", tmp,
		"@anthropic-ai/claude-code@"+claudeVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install @anthropic-ai/claude-code@%s: %v\n%s", claudeVersion, err, out)
	}
	if _, err := findBinary(tmp); err != nil {
		return "", err
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return findBinary(dir)
}

// findBinary returns the native binary of the platform package that npm installed as
// an optional dependency. It is run directly: the wrapper's postinstall, which links
// it over bin/claude.exe, needs a newer Node than many machines have (and npm may
// not run install scripts at all), and the native binary needs no Node.
func findBinary(dir string) (string, error) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	candidates := []string{
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-"+runtime.GOOS+"-"+arch, "claude"),
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-"+runtime.GOOS+"-"+arch+"-musl", "claude"),
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"),
	}
	for _, c := range candidates {
		out, err := exec.Command(c, "--version").Output()
		if err == nil && strings.HasPrefix(string(out), claudeVersion) {
			return c, nil
		}
	}
	return "", fmt.Errorf("no runnable Claude Code %s binary under %s", claudeVersion, dir)
}

// runClaude runs Claude Code in print mode in workdir against the fake model at
// baseURL, with a HOME of its own, until the script is used up.
func runClaude(t *testing.T, bin, workdir, baseURL string, extra ...string) {
	t.Helper()
	runClaudeHome(t, bin, workdir, baseURL, t.TempDir(), extra...)
}

// runClaudeHome is runClaude with a HOME prepared by the caller (its
// .claude/settings.json configures hooks). extra are more flags (--tools).
func runClaudeHome(t *testing.T, bin, workdir, baseURL, home string, extra ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	args := append([]string{"-p", "Run the tools.", "--output-format", "json",
		"--permission-mode", "acceptEdits", "--allowedTools", "Bash,Read,Glob,Grep,Edit,Write",
		"--max-turns", "1000"}, extra...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = workdir
	cmd.Env = []string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb",
		"ANTHROPIC_BASE_URL=" + baseURL, "ANTHROPIC_API_KEY=sk-ant-parity-fake",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude: %v\n%s", err, out)
	}
	t.Logf("claude: %.2000s", out)
}
