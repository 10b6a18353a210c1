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

// threshold is the persistence threshold in force for a call's tool (DESIGN
// §4.1): the threshold the turn declared in the call, else (a call from an older
// workflow) the registry's, with the operator's override.
func (a *Activities) threshold(call tool.Call) int {
	declared := persistence.DefaultMaxResultSizeChars
	if call.Declared != nil {
		declared = call.Declared.MaxResultSizeChars
	} else if def, ok := a.reg.Lookup(call.Name); ok {
		declared = def.MaxResultSizeChars()
	}
	var override int
	var has bool
	if a.cfg.Overrides != nil {
		override, has = a.cfg.Overrides.Override(call.Name)
	}
	return persistence.Threshold(declared, override, has)
}

// sizeControl turns a tool's output file into the model-facing content: inline under
// the threshold, else persisted whole (streamed, never held in memory) and replaced by
// the preview stub. It runs inside the activity, so the full output never reaches
// workflow history; if persisting fails the result is truncated with a note, never
// lost.
func (a *Activities) sizeControl(call tool.Call, f *os.File) (tool.Output, error) {
	sw := persistence.NewSpillWriter(a.store, safeName(call.SessionID), call.ToolUseID, false, a.threshold(call))
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
	res := persistence.Process(a.store, safeName(call.SessionID), call.ToolUseID, []byte(out.Content), false, a.threshold(call))
	a.notePersist(call, res)
	out.Content = res.Content
	return out
}
