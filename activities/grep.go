package activities

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
)

// Grep searches with ripgrep, as Claude Code does, so that its parameters, file
// types and .gitignore handling mean exactly what the model expects.
func (a *Activities) Grep(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.GrepInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	rg, err := exec.LookPath("rg")
	if err != nil {
		return tool.Output{}, temporal.NewApplicationErrorWithOptions(
			"grep: ripgrep (rg) is not on the worker's PATH; install it (Debian: apt-get install ripgrep)",
			ErrInfrastructure, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	res, err := runGroup(ctx, a.scratch(call), procSpec{path: rg, args: grepArgs(in, call.Workdir), dir: call.Workdir})
	if err != nil {
		if ctx.Err() != nil {
			return tool.Output{}, ctx.Err()
		}
		return tool.Output{}, fmt.Errorf("grep: %w", err)
	}
	defer res.discard()
	switch res.exitCode {
	case 0:
	case 1:
		if in.OutputMode == "content" || in.OutputMode == "count" {
			return tool.Output{Content: "No matches found"}, nil
		}
		return tool.Output{Content: "No files found"}, nil
	default:
		out, _ := a.sizeControl(call, res.output)
		return errorOutput("Grep failed (rg exit %d): %s", res.exitCode, strings.TrimSpace(out.Content))
	}
	if in.HeadLimit != nil || in.OutputMode == "" || in.OutputMode == "files_with_matches" {
		return a.grepHead(call, in, res)
	}
	return a.sizeControl(call, res.output)
}

// grepHead applies head_limit and the "Found N files" header. It streams the output
// twice (count, then copy) through size control, so that a million matches are never
// held in memory.
func (a *Activities) grepHead(call tool.Call, in tool.GrepInput, res procResult) (tool.Output, error) {
	total := 0
	sc := bufio.NewScanner(res.output)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		total++
	}
	if _, err := res.output.Seek(0, io.SeekStart); err != nil {
		return tool.Output{}, fmt.Errorf("grep: rewind: %w", err)
	}
	limit := total
	if in.HeadLimit != nil {
		limit = min(*in.HeadLimit, total)
	}
	sw := persistence.NewSpillWriter(a.store, safeName(call.SessionID), call.ToolUseID, false, a.threshold(call.Name))
	if in.OutputMode == "" || in.OutputMode == "files_with_matches" {
		fmt.Fprintf(sw, "Found %d file%s\n", total, plural(total))
	}
	sc = bufio.NewScanner(res.output)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 0; n < limit && sc.Scan(); n++ {
		if n > 0 {
			sw.Write([]byte{'\n'})
		}
		sw.Write(sc.Bytes())
	}
	if limit < total {
		fmt.Fprintf(sw, "\n(showing the first %d of %d)", limit, total)
	}
	out, err := sw.Finish()
	if err != nil {
		return tool.Output{}, fmt.Errorf("grep: %w", err)
	}
	a.notePersist(call, out)
	return tool.Output{Content: out.Content}, nil
}

// grepArgs maps the Grep input onto rg flags.
func grepArgs(in tool.GrepInput, workdir string) []string {
	args := []string{"--no-config", "--color", "never", "--hidden", "--glob", "!.git", "--sort", "path", "--max-columns", "500"}
	switch in.OutputMode {
	case "content":
		if in.LineNumbers {
			args = append(args, "-n")
		} else {
			args = append(args, "--no-line-number")
		}
		for _, f := range []struct {
			flag string
			v    *int
		}{{"-A", in.After}, {"-B", in.Before}, {"-C", in.Context}} {
			if f.v != nil {
				args = append(args, f.flag, strconv.Itoa(*f.v))
			}
		}
	case "count":
		args = append(args, "-c")
	default:
		args = append(args, "-l")
	}
	if in.CaseInsensitive {
		args = append(args, "-i")
	}
	if in.Multiline {
		args = append(args, "-U", "--multiline-dotall")
	}
	if in.Glob != "" {
		args = append(args, "--glob", in.Glob)
	}
	if in.Type != "" {
		args = append(args, "--type", in.Type)
	}
	return append(args, "--regexp", in.Pattern, "--", resolve(workdir, in.Path))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
