package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// repairedInputs is the change id under which a turn reads inputs as Claude Code
// does (tool.Definition.Repair): numbers and booleans sent as strings, integers
// written 2.0, the parameter names models borrow. Turns from before it refused
// such inputs, and replay doing so.
const repairedInputs = "repaired-inputs"

// decodedInputs is the change id under which a turn reads its inputs' strings as
// Claude Code 2.1.328 does before the permission check and the tool see them: the
// \uXXXX escapes a model wrote out are decoded (tool.DecodeEscapes), a path
// parameter loses the white space around it (tool.TrimPath) and a Bash command its
// leading `cd <working directory> && ` (tool.StripCdWorkdir). Turns from before it
// passed them on as written, and replay doing so.
const decodedInputs = "decoded-inputs"

// useRepair decides, once at the turn's start, whether its inputs are repaired and
// their strings decoded.
func (t *turn) useRepair(ctx workflow.Context) {
	t.repair = workflow.GetVersion(ctx, repairedInputs, workflow.DefaultVersion, 1) >= 1
	t.decode = t.repair && workflow.GetVersion(ctx, decodedInputs, workflow.DefaultVersion, 1) >= 1
	t.notes = map[string]string{}
}

// repairBlock returns b calling the tool its name stands for, with its input as
// the tool reads it, and keeps the note
// its result is to end with. Only built-in tools have repairs: the lookup of a
// custom tool, which records its decision, is left to the tracker.
func (t *turn) repairBlock(b tool.Block) tool.Block {
	if !t.repair {
		return b
	}
	b.Name = tool.Canonical(b.Name) // KillShell is TaskStop
	if !tool.IsBuiltin(b.Name) {
		return b
	}
	def, ok := tool.Lookup(b.Name)
	if !ok {
		return b
	}
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
