package mcptools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolpipe/toolpipe/tool"
)

// Output turns a tool call's result into the model-facing text: text content as is,
// joined by newlines; images, audio and resources named briefly (a tool_result here
// is text); structured content as JSON when there is no other content. isError
// makes it an error result.
func Output(res *mcp.CallToolResult) tool.Output {
	if res == nil {
		return tool.Output{}
	}
	parts := make([]string, 0, len(res.Content))
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	return tool.Output{Content: strings.Join(parts, "\n"), IsError: res.IsError}
}

func contentText(c mcp.Content) string {
	switch x := c.(type) {
	case *mcp.TextContent:
		return x.Text
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %s, %d bytes]", x.MIMEType, len(x.Data))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %d bytes]", x.MIMEType, len(x.Data))
	case *mcp.ResourceLink:
		return fmt.Sprintf("[resource link: %s %s]", x.Name, x.URI)
	case *mcp.EmbeddedResource:
		r := x.Resource
		if r == nil {
			return "[resource]"
		}
		if r.Text != "" {
			return r.Text
		}
		return fmt.Sprintf("[resource: %s, %s, %d bytes]", r.URI, r.MIMEType, len(r.Blob))
	}
	b, _ := json.Marshal(c)
	return string(b)
}
