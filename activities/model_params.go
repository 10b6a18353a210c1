package activities

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
)

// buildParams turns stored messages into a streaming Messages request. The same
// messages always give the same request, so the provider's prompt cache hits.
func buildParams(tools *tool.Registry, req conversation.ModelRequest, msgs []conversation.Message) (anthropic.MessageNewParams, error) {
	p := anthropic.MessageNewParams{Model: req.Model, MaxTokens: int64(req.MaxTokens)}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for i, m := range msgs {
		var blocks []anthropic.ContentBlockParamUnion
		for _, b := range m.Content {
			switch b.Type {
			case wire.BlockText:
				if b.Text != "" {
					blocks = append(blocks, anthropic.NewTextBlock(b.Text))
				}
			case wire.BlockToolUse:
				blocks = append(blocks, anthropic.NewToolUseBlock(b.ID, json.RawMessage(b.Input), b.Name))
			case wire.BlockToolResult:
				blocks = append(blocks, toolResult(b))
			default:
				return p, fmt.Errorf("message %d: content block type %q cannot be sent", i, b.Type)
			}
		}
		if len(blocks) == 0 {
			continue // an empty message (a model that said nothing) would be refused
		}
		switch m.Role {
		case wire.RoleUser:
			p.Messages = append(p.Messages, anthropic.NewUserMessage(blocks...))
		case wire.RoleAssistant:
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(blocks...))
		default:
			return p, fmt.Errorf("message %d: role %q", i, m.Role)
		}
	}
	offered := tools.APIToolsWithMCP(req.MCPTools)
	if req.Task {
		offered = append(offered, tool.TaskTool)
	}
	for _, t := range offered {
		if slices.Contains(req.Disabled, t.Name) {
			continue // a deny rule names it whole: not offered, as in Claude Code
		}
		tp, err := toolParam(t)
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	markCache(&p)
	return p, nil
}

// toolResult sends a result's text as one text block; an empty result is sent
// without content, as the API refuses empty text blocks.
func toolResult(b wire.Block) anthropic.ContentBlockParamUnion {
	r := anthropic.ToolResultBlockParam{ToolUseID: b.ToolUseID}
	if b.IsError {
		r.IsError = anthropic.Bool(true)
	}
	if b.Content != "" {
		r.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: b.Content}}}
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &r}
}

// toolParam describes a tool with its JSON Schema; keys other than properties and
// required (additionalProperties) travel as extra fields.
func toolParam(t tool.APITool) (anthropic.ToolParam, error) {
	var schema map[string]any
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
		return anthropic.ToolParam{}, fmt.Errorf("tool %s: schema: %w", t.Name, err)
	}
	in := anthropic.ToolInputSchemaParam{Properties: schema["properties"], ExtraFields: map[string]any{}}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				in.Required = append(in.Required, s)
			}
		}
	}
	for k, v := range schema {
		if k != "properties" && k != "required" && k != "type" {
			in.ExtraFields[k] = v // encoding/json sorts map keys: the bytes do not vary
		}
	}
	return anthropic.ToolParam{Name: t.Name, Description: anthropic.String(t.Description), InputSchema: in}, nil
}
