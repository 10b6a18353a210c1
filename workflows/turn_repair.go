package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// useRepair decides, once at the turn's start, whether its inputs are repaired and
// their strings decoded.
func (t *turn) useRepair(ctx workflow.Context) {
	t.repair = workflow.GetVersion(ctx, repairedInputs, workflow.DefaultVersion, 1) >= 1
	t.decode = t.repair && workflow.GetVersion(ctx, decodedInputs, workflow.DefaultVersion, 1) >= 1
	t.notes = map[string]string{}
}

// repairBlock returns b calling the tool its name stands for, with its input as
// the tool reads it, and keeps the note its result is to end with. Only the tools
// that say so are read as Claude Code reads inputs (tool.Spec.Coerce: toolpipe's
// own, not MCP or a program's tools).
func (t *turn) repairBlock(b tool.Block) tool.Block {
	if !t.repair {
		return b
	}
	b.Name = tool.Canonical(b.Name) // KillShell is TaskStop
	def, ok := t.lookup(b.Name)     // records, for a tool that is not original, what it decided
	if ok {                         // Repair leaves the input of a tool without Spec.Coerce as it is
		if t.decode {
			b.Input, _ = tool.DecodeEscapes(b.Input)
			b.Input, _ = tool.TrimPath(b.Name, b.Input)
			if b.Name == tool.BashName {
				b.Input, _ = tool.StripCdWorkdir(b.Input, t.in.Workdir)
			}
		}
		in, note := def.Repair(b.Input)
		if note != "" {
			t.notes[b.ID] = note
		}
		b.Input = in
	}
	return b
}

// validate checks a call's input as the turn's version does.
func (t *turn) validate(def *tool.Definition, input []byte) error {
	if t.repair {
		return def.ValidateRepaired(input)
	}
	return def.ValidateInput(input)
}

// withNote ends a successful result with the note of its input's repair, as
// Claude Code does (an error result gets none).
func (t *turn) withNote(r tool.Result) tool.Result {
	if note := t.notes[r.ToolUseID]; note != "" && !r.IsError {
		r.Content += "\n\n" + note
	}
	return r
}
