package claudesdk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// line is one line a program printed.
type line struct {
	Kind    string          `json:"kind"`
	Message json.RawMessage `json:"message,omitempty"`
	Error   string          `json:"error,omitempty"`
	Tool    string          `json:"tool,omitempty"`
	Raw     json.RawMessage `json:"-"`
}

// runOutcome is what one program run printed and left behind.
type runOutcome struct {
	lines  []line
	stderr string
	cwd    string
	model  *fakeModel
	err    error
}

// messages are the SDK messages of the run, decoded.
func (o runOutcome) messages(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range o.lines {
		if l.Kind != "message" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l.Message, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// errors are the failures the program printed.
func (o runOutcome) errors() string {
	var out []string
	for _, l := range o.lines {
		if l.Kind == "error" {
			out = append(out, l.Error)
		}
	}
	return strings.Join(out, "\n")
}

// runScenario runs scenario sc's program with the executable exe (and env, more
// variables) in a fresh working directory against a fresh fake model.
func runScenario(t *testing.T, p programs, sc scenario, exe string, env ...string) runOutcome {
	t.Helper()
	return runScenarioIn(t, p, sc, exe, t.TempDir(), env...)
}

// runScenarioIn is runScenario with the working directory root/work.
func runScenarioIn(t *testing.T, p programs, sc scenario, exe, root string, env ...string) runOutcome {
	t.Helper()
	cwd := filepath.Join(root, "work")
	home := filepath.Join(root, "home")
	for _, d := range []string{cwd, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range sc.files {
		if err := os.WriteFile(filepath.Join(cwd, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := make([][]block, len(sc.script))
	for i, msg := range sc.script {
		for _, b := range msg {
			b.Input = json.RawMessage(strings.ReplaceAll(string(b.Input), "$CWD", cwd))
			script[i] = append(script[i], b)
		}
	}
	model, url := startFake(t, script)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(p.dir, "dist", "scenarios.js"), sc.name)
	cmd.Dir = cwd
	cmd.Env = append([]string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb",
		"NODE_PATH=" + filepath.Join(p.dir, "node_modules"),
		"SDK_EXECUTABLE=" + exe, "SDK_CWD=" + cwd,
		"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=sk-ant-sdk-fake",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	o := runOutcome{stderr: stderr.String(), cwd: cwd, model: model, err: err}
	sc2 := bufio.NewScanner(&stdout)
	sc2.Buffer(make([]byte, 1<<20), 16<<20)
	for sc2.Scan() {
		var l line
		if jerr := json.Unmarshal(sc2.Bytes(), &l); jerr != nil {
			t.Fatalf("%s printed a line that is not JSON: %v\n%s", sc.name, jerr, sc2.Bytes())
		}
		l.Raw = append(json.RawMessage(nil), sc2.Bytes()...)
		o.lines = append(o.lines, l)
	}
	return o
}
