package claudesdk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// place is a working directory, home and fake model that several runs of an
// executable share.
type place struct {
	cwd, home, url string
	model          *fakeModel
}

func newPlace(t *testing.T, script [][]block) place {
	t.Helper()
	root := t.TempDir()
	pl := place{cwd: filepath.Join(root, "work"), home: filepath.Join(root, "home")}
	for _, d := range []string{pl.cwd, pl.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pl.model, pl.url = startFake(t, script)
	return pl
}

// printRun runs `exe -p "Say hello." args…` as a script would, against a fresh
// fake model, and returns its stdout.
func printRun(t *testing.T, exe string, script [][]block, env []string, args ...string) []byte {
	t.Helper()
	return newPlace(t, script).run(t, exe, env, append([]string{"-p", "Say hello."}, args...)...)
}

// run runs exe with args in the place and returns its stdout.
func (pl place) run(t *testing.T, exe string, env []string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = pl.cwd
	cmd.Env = append([]string{"HOME=" + pl.home, "PATH=" + os.Getenv("PATH"), "ANTHROPIC_BASE_URL=" + pl.url,
		"ANTHROPIC_API_KEY=sk-ant-sdk-fake", "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\nstderr: %s", filepath.Base(exe), args, err, stderr.String())
	}
	return stdout.Bytes()
}

// TestPrintModeParsesAlike runs `claude -p … --output-format text|json|stream-json`
// with Claude Code 2.1.328 and with toolpipe-claude: text prints the same reply;
// json one result object with Claude Code's keys and JSON kinds; stream-json the
// same sequence of message types and subtypes, ending in such a result.
func TestPrintModeParsesAlike(t *testing.T) {
	p := install(t)
	exe := toolpipeClaude(t)
	script := [][]block{{text("Hello!")}}
	claudeEnv, tpEnv := []string{"IS_SANDBOX=1"}, toolpipeEnv(t)

	t.Run("text", func(t *testing.T) {
		want := printRun(t, p.claude, script, claudeEnv, "--output-format", "text")
		got := printRun(t, exe, script, tpEnv, "--output-format", "text")
		if string(want) != string(got) {
			t.Errorf("text: Claude Code printed %q, toolpipe-claude %q", want, got)
		}
	})
	t.Run("json", func(t *testing.T) {
		var want, got map[string]any
		if err := json.Unmarshal(printRun(t, p.claude, script, claudeEnv, "--output-format", "json"), &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(printRun(t, exe, script, tpEnv, "--output-format", "json"), &got); err != nil {
			t.Fatalf("toolpipe-claude's json is not one JSON object: %v", err)
		}
		sameShape(t, "result", want, got)
		for _, k := range []string{"type", "subtype", "is_error", "result", "num_turns"} {
			if fmt.Sprint(want[k]) != fmt.Sprint(got[k]) {
				t.Errorf("%s: Claude Code's %v, toolpipe-claude's %v", k, want[k], got[k])
			}
		}
	})
	t.Run("stream-json", func(t *testing.T) {
		want := streamLines(t, printRun(t, p.claude, script, claudeEnv, "--output-format", "stream-json", "--verbose"))
		got := streamLines(t, printRun(t, exe, script, tpEnv, "--output-format", "stream-json", "--verbose"))
		if fmt.Sprint(kinds(want)) != fmt.Sprint(kinds(got)) {
			t.Errorf("stream-json: Claude Code's messages %v, toolpipe-claude's %v", kinds(want), kinds(got))
		}
		if len(want) > 0 && len(got) > 0 {
			sameShape(t, "result", want[len(want)-1], got[len(got)-1])
		}
	})
}

// streamLines decodes stream-json output: every line one JSON object.
func streamLines(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a stream-json line that is not JSON: %v\n%s", err, sc.Bytes())
		}
		lines = append(lines, m)
	}
	return lines
}

// kinds are the messages' type/subtype, Claude Code's SDK-host-only state
// changes left out.
func kinds(lines []map[string]any) []string {
	var out []string
	for _, m := range lines {
		if m["sdk_host_only"] == true {
			continue
		}
		k := fmt.Sprint(m["type"])
		if s, ok := m["subtype"]; ok {
			k += "/" + fmt.Sprint(s)
		}
		out = append(out, k)
	}
	return out
}
