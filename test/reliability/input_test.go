package reliability

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// TestHostileToolInput sends one hostile tool_use block per turn through a real
// Turn on a real worker: each gets a clear result (an error that says what was
// wrong, or a correct result), and the worker keeps running ordinary turns.
func TestHostileToolInput(t *testing.T) {
	e := newEnv(t)
	e.inProcessWorker()
	work := t.TempDir()
	tenMB := strings.Repeat("0123456789abcdef", 10<<20/16)
	cases := []struct {
		name  string
		block tool.Block
		// want checks the result; "" means fine.
		want func(r tool.Result) string
	}{
		{"wrong type", tool.Block{Name: tool.BashName, Input: raw(map[string]any{"command": 5})}, errorContaining("InputValidationError")},
		{"input not an object", tool.Block{Name: tool.ReadName, Input: json.RawMessage(`[1,2]`)}, errorContaining("InputValidationError")},
		{"input a string", tool.Block{Name: tool.ReadName, Input: json.RawMessage(`"{\"file_path\":\"/etc/hostname\"}"`)}, errorContaining("InputValidationError")},
		{"missing field", tool.Block{Name: tool.ReadName, Input: json.RawMessage(`{}`)}, errorContaining("InputValidationError")},
		{"unknown tool", tool.Block{Name: "Frobnicate", Input: json.RawMessage(`{}`)}, errorContaining("Error: No such tool available: Frobnicate")},
		{"NUL in a command", bash("", "echo a\x00b"), errorContaining("NUL")},
		{"NUL in a path", tool.Block{Name: tool.ReadName, Input: raw(map[string]any{"file_path": work + "/a\x00b"})}, errorContaining("NUL")},
		{"invalid UTF-8 in a command", tool.Block{Name: tool.BashName, Input: json.RawMessage("{\"command\":\"echo \xff\xfe\"}")}, validUTF8},
		{"invalid UTF-8 in a path", tool.Block{Name: tool.ReadName, Input: json.RawMessage("{\"file_path\":\"" + work + "/\xff\"}")}, errorContaining("does not exist")},
		{"binary output", bash("", `printf 'a\0b\377\376c\n'; head -c 20000 /dev/urandom`), func(r tool.Result) string {
			if r.IsError || !strings.HasPrefix(r.Content, "a") {
				return "want the output"
			}
			return validUTF8(r)
		}},
		{"binary output over the threshold", bash("", `head -c 200000 /dev/urandom`), func(r tool.Result) string {
			if r.IsError || !strings.Contains(r.Content, "<persisted-output>") {
				return "want a persisted-output stub"
			}
			return validUTF8(r)
		}},
		{"10 MB Write", tool.Block{Name: tool.WriteName, Input: raw(map[string]any{"file_path": filepath.Join(work, "big.txt"), "content": tenMB})}, func(r tool.Result) string {
			if r.IsError {
				return "want the file written"
			}
			if fi, err := os.Stat(filepath.Join(work, "big.txt")); err != nil || fi.Size() != int64(len(tenMB)) {
				return fmt.Sprintf("file: %v %v", fi, err)
			}
			return ""
		}},
		{"10 MB command", bash("", "echo "+tenMB), errorContaining("InputValidationError: the input is 10485")},
		{"command over the kernel's argument limit", bash("", "echo "+tenMB[:200_000]), errorContaining("bash -c takes at most 131071")},
		{"10 MB path", tool.Block{Name: tool.ReadName, Input: raw(map[string]any{"file_path": "/" + tenMB})}, errorContaining("InputValidationError: the input is 10485")},
		{"10 MB pattern", tool.Block{Name: tool.GrepName, Input: raw(map[string]any{"pattern": tenMB})}, errorContaining("InputValidationError: the input is 10485")},
		{"path traversal without a permission policy", tool.Block{Name: tool.ReadName, Input: raw(map[string]any{"file_path": work + "/../../../../../../nonexistent-file"})}, errorContaining("does not exist")},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.block
			b.ID = fmt.Sprintf("hostile-%d", i)
			res := e.run(b.ID, work, b)
			if len(res.Results) != 1 || res.Results[0].ToolUseID != b.ID {
				t.Fatalf("results %+v", res.Results)
			}
			if why := c.want(res.Results[0]); why != "" {
				t.Errorf("%s: result %.300q", why, res.Results[0].Content)
			}
		})
	}
	e.healthy()
}

func errorContaining(s string) func(tool.Result) string {
	return func(r tool.Result) string {
		if !r.IsError || !strings.Contains(r.Content, s) {
			return fmt.Sprintf("want an error result containing %q", s)
		}
		return ""
	}
}

func validUTF8(r tool.Result) string {
	if !utf8.ValidString(r.Content) {
		return "content is not valid UTF-8"
	}
	return ""
}

// TestHostileTurnInput: input the Turn itself cannot track is refused with a clear,
// non-retryable error (at start) or a rejected update (while streaming), and the
// turn and the worker go on.
func TestHostileTurnInput(t *testing.T) {
	e := newEnv(t)
	e.inProcessWorker()
	work := t.TempDir()
	badStart := func(name string, in any, want string) {
		// A start input that does not decode fails the workflow with the decoder's
		// error; the others are refused by the Turn as non-retryable.
		decodes := name != "wrong types"
		t.Run(name, func(t *testing.T) {
			run, err := e.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: e.queue + "-" + name, TaskQueue: e.queue},
				contract.TurnWorkflowName, in)
			if err == nil {
				err = run.Get(testenv.Context(t), nil)
			}
			var ae *temporal.ApplicationError
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), want) || (decodes && !ae.NonRetryable()) {
				t.Fatalf("error %v, want a non-retryable error containing %q", err, want)
			}
		})
	}
	dup := []tool.Block{bash("d1", "echo a"), bash("d1", "echo b")}
	badStart("duplicate ids", workflows.TurnInput{Workdir: work, Blocks: dup, CloseIntake: true}, `duplicate tool_use id "d1"`)
	badStart("block without id", workflows.TurnInput{Workdir: work, Blocks: []tool.Block{{Name: "Read"}}, CloseIntake: true}, "no id")
	badStart("id with a slash", workflows.TurnInput{Workdir: work, Blocks: []tool.Block{bash("../x", "ls")}, CloseIntake: true}, "path separator")
	many := make([]tool.Block, workflows.MaxToolsPerTurn+1)
	for i := range many {
		many[i] = tool.Block{ID: fmt.Sprintf("m%d", i), Name: "Nope", Input: json.RawMessage(`{}`)}
	}
	badStart("too many tools", workflows.TurnInput{Workdir: work, Blocks: many, CloseIntake: true}, "at most 2000 tool calls")
	badStart("wrong types", map[string]any{"workdir": work, "blocks": "not a list", "close_intake": true}, "cannot unmarshal string into Go struct field TurnInput.blocks")

	t.Run("duplicate id while streaming", func(t *testing.T) {
		run := e.start("stream-dup", workflows.TurnInput{Workdir: work})
		update := func(name string, args ...any) error {
			h, err := e.c.UpdateWorkflow(testenv.Context(t), client.UpdateWorkflowOptions{
				WorkflowID: run.GetID(), UpdateName: name, Args: args, WaitForStage: client.WorkflowUpdateStageCompleted})
			if err == nil {
				err = h.Get(testenv.Context(t), nil)
			}
			return err
		}
		if err := update(contract.AddBlocksUpdate, []tool.Block{bash("s1", "echo one")}); err != nil {
			t.Fatal(err)
		}
		err := update(contract.AddBlocksUpdate, []tool.Block{bash("s1", "echo again")})
		if err == nil || !strings.Contains(err.Error(), `duplicate tool_use id "s1"`) {
			t.Fatalf("a duplicate id was accepted or unclear: %v", err)
		}
		if err := update(contract.AddBlocksUpdate, "not a list of blocks"); err == nil {
			t.Fatal("a malformed AddBlocks was accepted")
		}
		if err := update(contract.CloseIntakeUpdate); err != nil {
			t.Fatal(err)
		}
		var res workflows.TurnResult
		if err := run.Get(testenv.Context(t), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Results) != 1 || res.Results[0].Content != "one" {
			t.Fatalf("results %+v", res.Results)
		}
	})
	e.healthy()
}

// TestThousandToolCallsInOneTurn: 1,000 calls in one turn (half the MaxToolsPerTurn
// bound), safe ones running in parallel: every result comes back once, in order.
func TestThousandToolCallsInOneTurn(t *testing.T) {
	e := newEnv(t)
	e.inProcessWorker()
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "f.txt"), []byte("hello\n"), 0o644)
	var blocks []tool.Block
	for i := range 1000 {
		id := fmt.Sprintf("c%04d", i)
		switch i % 3 {
		case 0:
			blocks = append(blocks, tool.Block{ID: id, Name: tool.ReadName, Input: raw(map[string]any{"file_path": filepath.Join(work, "f.txt")})})
		case 1:
			blocks = append(blocks, tool.Block{ID: id, Name: tool.GlobName, Input: raw(map[string]any{"pattern": "*.txt"})})
		default:
			blocks = append(blocks, bash(id, "echo "+id))
		}
	}
	res := e.run("thousand", work, blocks...)
	if len(res.Results) != len(blocks) {
		t.Fatalf("%d results for %d calls", len(res.Results), len(blocks))
	}
	for i, r := range res.Results {
		if r.ToolUseID != blocks[i].ID || r.IsError {
			t.Fatalf("result %d: %+v", i, r)
		}
		if i%3 == 2 && r.Content != blocks[i].ID {
			t.Fatalf("result %d: %+v", i, r)
		}
	}
	e.healthy()
}
