package tool

import "encoding/json"

// APITool is a tool as the Messages API's tools parameter describes it to the model.
type APITool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// apiDescriptions are the descriptions the model reads (descriptions.go); the
// schemas carry the details of each field.
var apiDescriptions = map[string]struct{ text, schema string }{
	BashName:     {bashDescription, bashSchema},
	ReadName:     {readDescription, readSchema},
	WriteName:    {writeDescription, writeSchema},
	EditName:     {editDescription, editSchema},
	GlobName:     {globDescription, globSchema},
	GrepName:     {grepDescription, grepSchema},
	TaskStopName: {taskStopDescription, taskStopSchema},
	WebFetchName: {webFetchDescription, webFetchSchema},
}

// APITools lists every tool for the model, the built-in ones sorted by name, then the
// custom ones registered in this process sorted by name, so that the request (and
// the provider's prompt cache) is the same on every call.
func APITools() []APITool {
	names := Names()
	out := make([]APITool, 0, len(names))
	for _, n := range names {
		d := apiDescriptions[n]
		out = append(out, APITool{Name: n, Description: d.text, InputSchema: json.RawMessage(d.schema)})
	}
	return append(out, customAPITools()...)
}
