// Package mcptest gives tests a real MCP server (the program in ./server, built
// with the go-sdk): Build compiles it once per test binary, StartHTTP runs it over
// streamable HTTP, and Config writes a .mcp.json naming it.
package mcptest

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// Build compiles the test server and returns its path; the binary lives in a
// directory that is never removed during the test binary's life (tests share it).
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcptest")
		if err != nil {
			buildErr = err
			return
		}
		_, file, _, _ := runtime.Caller(0)
		binary = filepath.Join(dir, "mcptest-server")
		cmd := exec.Command("go", "build", "-o", binary, ".")
		cmd.Dir = filepath.Join(filepath.Dir(file), "server")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = &buildError{err: err, out: string(out)}
		}
	})
	if buildErr != nil {
		t.Fatalf("build the MCP test server: %v", buildErr)
	}
	return binary
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// StartHTTP runs the server over streamable HTTP on 127.0.0.1 with extra
// environment (KEY=VALUE) until the test ends, and returns its URL.
func StartHTTP(t testing.TB, env ...string) string {
	t.Helper()
	cmd := exec.Command(Build(t), "-http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("MCP test server printed no URL: %v", err)
	}
	return strings.TrimSpace(line)
}

// Config writes <dir>/.mcp.json with servers (name -> entry) and returns its path.
func Config(t testing.TB, dir string, servers map[string]any) string {
	t.Helper()
	b, err := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Stdio is a .mcp.json entry running the test server over stdio, its notes in notes.
func Stdio(t testing.TB, notes string) map[string]any {
	return map[string]any{"command": Build(t), "env": map[string]string{"MCPTEST_NOTES": notes}}
}
