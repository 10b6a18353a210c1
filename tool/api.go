package tool

import "encoding/json"

// APITool is a tool as the Messages API's tools parameter describes it to the model.
type APITool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}
