package contract

import (
	"github.com/toolpipe/toolpipe/internal/statedir"
	"github.com/toolpipe/toolpipe/tool"
)

// BackgroundRequest is one background task: the Bash call that started it, its id,
// and the file its output goes to, which the model Reads while it runs.
type BackgroundRequest struct {
	Call       tool.Call `json:"call"`
	TaskID     string    `json:"task_id"`
	OutputFile string    `json:"output_file"`
}

// BackgroundOutcome is how a background command ended by itself (a stopped one
// ends the activity as cancelled).
type BackgroundOutcome struct {
	ExitCode int  `json:"exit_code"`
	TimedOut bool `json:"timed_out,omitempty"`
	// Refused is why the command did not run at all (a sandbox it must run in
	// could not start); it is also written to the output file.
	Refused string `json:"refused,omitempty"`
}

// BackgroundTasksDir is where a session's background tasks write their output:
// <state dir>/<session>/tasks, beside its tool-results directory (statedir).
func BackgroundTasksDir(resultsDir string) string {
	return statedir.OfResults(resultsDir).Tasks()
}

// ListMCPToolsRequest asks for the tools of the servers in Workdir's .mcp.json.
type ListMCPToolsRequest struct {
	Workdir string `json:"workdir"`
}

// ListMCPToolsResult lists the tools, sorted by name (a Session passes Tools on as
// TurnInput.MCPTools and, through tool.APIToolsWithMCP, to the model), and the
// servers that could not be reached.
type ListMCPToolsResult struct {
	Tools    []tool.MCPSpec    `json:"tools,omitempty"`
	Failures []tool.MCPFailure `json:"failures,omitempty"`
}

// ResolveRequest lists the absolute paths a file tool call names. Globs are
// shell patterns (absolute) a read-only Bash command reads: each file they match
// is resolved too, and listed as it matched.
type ResolveRequest struct {
	ToolUseID string   `json:"tool_use_id"`
	Paths     []string `json:"paths"`
	Globs     []string `json:"globs,omitempty"`
}

// ResolveResult holds every path of the request as given and, when symbolic links
// or ".." make it point elsewhere, where it really is: a permission rule matching
// either spelling applies, and both must be inside the working directories.
type ResolveResult struct {
	Paths []string `json:"paths"`
}

// RefusedCallRequest is the input of a RefusedCall record: the call and the first
// line of the error it got, which the record fails with.
type RefusedCallRequest struct {
	ToolUseID string `json:"tool_use_id"`
	Error     string `json:"error"`
}
