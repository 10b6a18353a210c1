package tool

import "encoding/json"

// APITool is a tool as the Messages API's tools parameter describes it to the model.
type APITool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// apiDescriptions are the short descriptions the model reads; the schemas carry the
// details of each field.
var apiDescriptions = map[string]struct{ text, schema string }{
	BashName:     {"Executes a bash command in the working directory and returns its output.", bashSchema},
	ReadName:     {"Reads a file from the local filesystem, with line numbers.", readSchema},
	WriteName:    {"Writes a file to the local filesystem, replacing it if it exists. Read an existing file first.", writeSchema},
	EditName:     {"Replaces exact text in a file. Read the file first.", editSchema},
	GlobName:     {"Finds files by glob pattern, most recently modified first.", globSchema},
	GrepName:     {"Searches file contents with ripgrep.", grepSchema},
	TaskStopName: {taskStopDescription, taskStopSchema},
	WebFetchName: {"Fetches a URL, converts HTML to markdown and answers the prompt about it (the markdown itself when no model is configured). A redirect to another host is reported, not followed: fetch the new URL with a new call.", webFetchSchema},
}

// APITools lists every tool for the model, sorted by name, so that the request (and
// the provider's prompt cache) is the same on every call.
func APITools() []APITool {
	names := Names()
	out := make([]APITool, 0, len(names))
	for _, n := range names {
		d := apiDescriptions[n]
		out = append(out, APITool{Name: n, Description: d.text, InputSchema: json.RawMessage(d.schema)})
	}
	return out
}
