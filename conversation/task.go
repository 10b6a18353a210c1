package conversation

import (
	"encoding/json"
	"errors"

	"github.com/toolpipe/toolpipe/tool"
)

// TaskName is the sub-agent tool: the Session runs a Task call as a child Session.
const TaskName = "Task"

// TaskInput is the input of a Task call. Fork starts the sub-agent from the caller's
// conversation (it shares the caller's budget decisions); Resume continues an earlier
// sub-agent, by the agent id its result named.
type TaskInput struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type,omitempty"`
	Fork         bool   `json:"fork,omitempty"`
	Resume       string `json:"resume,omitempty"`
}

const taskSchema = `{
  "type": "object",
  "properties": {
    "description": {"type": "string", "description": "A short (3-5 word) description of the task"},
    "prompt": {"type": "string", "minLength": 1, "description": "The task for the agent to perform"},
    "subagent_type": {"type": "string", "description": "The type of agent to use"},
    "fork": {"type": "boolean", "description": "Start the agent from this conversation instead of a fresh one"},
    "resume": {"type": "string", "description": "An agent id from an earlier Task result, to continue that agent"}
  },
  "required": ["description", "prompt"],
  "additionalProperties": false
}`

// TaskTool describes Task to the model.
var TaskTool = tool.APITool{
	Name:        TaskName,
	Description: "Launches a sub-agent that works on a task on its own and returns its final answer.",
	InputSchema: json.RawMessage(taskSchema),
}

// ParseTask decodes and checks a Task input.
func ParseTask(input json.RawMessage) (TaskInput, error) {
	var in TaskInput
	if err := json.Unmarshal(input, &in); err != nil {
		return in, errors.New(tool.InputValidationError + ": Task input is not a JSON object: " + err.Error())
	}
	if in.Prompt == "" {
		return in, errors.New(tool.InputValidationError + ": Task needs a prompt")
	}
	return in, nil
}
