package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/tool"
)

// listMCP lists the MCP tools of the session's working directory once per run, so
// that every model call offers the same tools and every turn knows them without
// listing again; a new run (continue-as-new) sees servers added since. Sessions
// without MCP run no activity, so their histories replay unchanged.
func (s *session) listMCP(ctx workflow.Context) {
	if !s.in.MCP {
		return
	}
	res, err := listMCPTools(onHost(ctx, s.toolQueue()), s.in.Workdir, s.opts.Turn.withDefaults().HeartbeatTimeout)
	if err != nil {
		s.note(SessionEvent{Kind: EventNotice, Text: "MCP tools are unavailable: " + failureMessage(err)})
		return
	}
	for _, f := range res.Failures {
		s.note(SessionEvent{Kind: EventNotice, Text: mcpFailureText(f)})
	}
	s.mcpTools = validMCPSpecs(res.Tools, func(text string) { s.note(SessionEvent{Kind: EventNotice, Text: text}) })
}

// validMCPSpecs keeps the specs whose schema compiles: the model is offered only
// tools the turn can run. notice reports each one left out.
func validMCPSpecs(specs []tool.MCPSpec, notice func(string)) []tool.MCPSpec {
	out := make([]tool.MCPSpec, 0, len(specs))
	for _, sp := range specs {
		if _, err := sp.Definition(); err != nil {
			notice("MCP tool " + sp.Name + " is left out: " + err.Error())
			continue
		}
		out = append(out, sp)
	}
	return out
}
