package activities

import (
	"fmt"
	"io"
	"os"

	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
)

// Overrides gives the operator's per-tool threshold override, read at each call so
// that a configuration change applies to the next call without a restart.
type Overrides interface {
	Override(toolName string) (int, bool)
}

// threshold is the persistence threshold in force for a tool (DESIGN §4.1).
func (a *Activities) threshold(name string) int {
	declared := persistence.DefaultMaxResultSizeChars
	if def, ok := a.reg.Lookup(name); ok {
		declared = def.MaxResultSizeChars()
	}
	var override int
	var has bool
	if a.cfg.Overrides != nil {
		override, has = a.cfg.Overrides.Override(name)
	}
	return persistence.Threshold(declared, override, has)
}

// sizeControl turns a tool's output file into the model-facing content: inline under
// the threshold, else persisted whole (streamed, never held in memory) and replaced by
// the preview stub. It runs inside the activity, so the full output never reaches
// workflow history; if persisting fails the result is truncated with a note, never
// lost.
func (a *Activities) sizeControl(call tool.Call, f *os.File) (tool.Output, error) {
	sw := persistence.NewSpillWriter(a.store, safeName(call.SessionID), call.ToolUseID, false, a.threshold(call.Name))
	if _, err := io.Copy(sw, f); err != nil {
		sw.Abort()
		return tool.Output{}, fmt.Errorf("size: read output: %w", err)
	}
	res, err := sw.Finish()
	if err != nil {
		return tool.Output{}, fmt.Errorf("size: %w", err)
	}
	a.notePersist(call, res)
	return tool.Output{Content: res.Content}, nil
}

// limit applies the same control to an output already in memory.
func (a *Activities) limit(call tool.Call, out tool.Output) tool.Output {
	res := persistence.Process(a.store, safeName(call.SessionID), call.ToolUseID, []byte(out.Content), false, a.threshold(call.Name))
	a.notePersist(call, res)
	out.Content = res.Content
	return out
}
