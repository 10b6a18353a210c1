package tool

import (
	"encoding/json"
	"errors"
)

// TaskName is the sub-agent tool: the Session runs a Task call as a child Session.
// It is in no Registry: a turn never runs it (a Task call reaching a turn of its own
// is a tool it does not have); a session offers it to the model beside the
// registry's tools while sub-agents may nest (workflows/session_task.go).
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

// taskDescription tells the model when a sub-agent pays off and what it gets back;
// MaxDepth's default (workflows.SessionOptions) is stated as "two levels".
const taskDescription = `Launches a sub-agent: a fresh agent with the same tools and working directory that works on a task on its own and returns only its final answer.

- Use it for work that takes many steps or reads a lot of material you do not need to keep: broad searches across a large codebase, investigating a question, or an independent part of a larger change. Its intermediate tool calls never enter your context, only the answer does.
- Do not use it for a single Read, Glob or Grep, or to look at a file you already know: call those tools directly, it is faster.
- The sub-agent sees nothing of this conversation unless fork is true: write prompt as a complete brief (the goal, the files and facts it needs, what to return and in what form). Set fork to start it from this conversation instead.
- Several Task calls in one message run in parallel; launch independent tasks together.
- The result ends with an agent_id; pass it as resume to continue the same agent with a follow-up prompt.
- Sub-agents can launch their own, up to two levels deep by default. subagent_type is accepted for compatibility; every sub-agent is the general-purpose one.
- Its answer is not shown to the user: summarise what matters in your own reply.`

// TaskTool describes Task to the model.
var TaskTool = APITool{
	Name:        TaskName,
	Description: taskDescription,
	InputSchema: json.RawMessage(taskSchema),
}

// ParseTask decodes and checks a Task input.
func ParseTask(input json.RawMessage) (TaskInput, error) {
	var in TaskInput
	if err := json.Unmarshal(input, &in); err != nil {
		return in, errors.New(InputValidationError + ": Task input is not a JSON object: " + err.Error())
	}
	if in.Prompt == "" {
		return in, errors.New(InputValidationError + ": Task needs a prompt")
	}
	return in, nil
}
