package tool

import (
	"encoding/json"
	"strings"
)

// The plan-mode tools' names.
const (
	EnterPlanModeName = "EnterPlanMode"
	ExitPlanModeName  = "ExitPlanMode"
)

// IsPlanModeTool reports whether name is EnterPlanMode or ExitPlanMode.
func IsPlanModeTool(name string) bool { return name == EnterPlanModeName || name == ExitPlanModeName }

// EnteredPlanMode is EnterPlanMode's result, Claude Code's words (2.1.328).
const EnteredPlanMode = `Entered plan mode. You should now focus on exploring the codebase and designing an implementation approach.

In plan mode, you should:
1. Thoroughly explore the codebase to understand existing patterns
2. Identify similar features and architectural approaches
3. Consider multiple approaches and their trade-offs
4. Use AskUserQuestion if you need to clarify the approach
5. Design a concrete implementation strategy
6. When ready, use ExitPlanMode to present your plan for approval

Remember: DO NOT write or edit any files yet. This is a read-only exploration and planning phase.`

// NotInPlanMode is ExitPlanMode's refusal outside plan mode, Claude Code's words.
const NotInPlanMode = "You are not in plan mode. To enter plan mode, call the EnterPlanMode tool first. If your plan was already approved, continue with implementation."

// ExitedPlanMode is ExitPlanMode's result once a person approved, without a
// plan in the input, Claude Code's words.
const ExitedPlanMode = "User has approved exiting plan mode. You can now proceed."

// ApprovedPlan is ExitPlanMode's result once a person approved the plan given.
func ApprovedPlan(plan string) string {
	return "User has approved your plan. You can now start coding.\n\n## Approved Plan:\n" + plan
}

// EnterPlanMode switches the session to plan mode: from its next turn on, every
// call that could change something is refused (permissions.Plan) until a person
// approves the plan ExitPlanMode presents. The session answers it
// (workflows/session_planmode.go).
type EnterPlanMode struct{ sessionTool }

// Spec of EnterPlanMode.
func (EnterPlanMode) Spec() Spec {
	return sessionSpec(EnterPlanModeName, `Switches this session to plan mode, for a task that deserves a plan the user approves before anything changes: a new feature, a change across several files, a choice between designs, or a request whose scope is unclear.

In plan mode only read-only tools run (Read, Glob, Grep, read-only commands, WebFetch, the task list); every call that could change something is refused. Explore, then call ExitPlanMode with the plan: the user approves it (or not), and approval ends plan mode. Do not use it for small, clear changes or for research that changes nothing anyway.`, `{
  "type": "object",
  "properties": {},
  "additionalProperties": false
}`)
}

// Subject: none.
func (EnterPlanMode) Subject(json.RawMessage) string { return "" }

// ExitPlanModeInput is ExitPlanMode's input: Claude Code's (whose plan is a file
// it reads) with the plan itself, so that the approval shows it wherever the
// person answers.
type ExitPlanModeInput struct {
	Plan string `json:"plan,omitempty"`
}

// ExitPlanMode presents the plan for approval. Its call always asks a person
// (Access.Own: OwnAsk): the approval waits durably in the turn like any other
// (`starter approve`, the Go API's Approve), and the session answers an approved
// call by leaving plan mode. Outside plan mode the turn refuses it as Claude Code
// does.
type ExitPlanMode struct{ sessionTool }

// Spec of ExitPlanMode.
func (ExitPlanMode) Spec() Spec {
	return sessionSpec(ExitPlanModeName, `Presents your plan to the user for approval and, once approved, ends plan mode so that you can carry it out. Call it only in plan mode, when the plan is finished: the steps, the files to change, and how the change will be checked.

- Pass the whole plan, in markdown, as plan: the user reads it in the approval question.
- The call waits for the user's answer. If they approve, tools that change things run again; if they refuse, the result says why: revise the plan and present it again.
- Do not ask whether the plan is good in any other way; this call is the question.`, `{
  "type": "object",
  "properties": {
    "plan": {"type": "string", "description": "The plan to approve, in markdown"},
    "allowedPrompts": {"type": "array", "description": "Deprecated: no longer used.", "items": {"type": "object"}}
  },
  "additionalProperties": true
}`)
}

// PlanOf is the plan an ExitPlanMode input presents.
func PlanOf(input json.RawMessage) string {
	var in ExitPlanModeInput
	_ = json.Unmarshal(input, &in)
	return strings.TrimSpace(in.Plan)
}

// Subject: the plan's first line.
func (ExitPlanMode) Subject(input json.RawMessage) string {
	first, _, _ := strings.Cut(PlanOf(input), "\n")
	return first
}

// Access: a person approves the plan, in every mode.
func (ExitPlanMode) Access(input json.RawMessage) Access {
	reason := "The agent presents its plan; approve it to end plan mode and let the agent carry it out."
	if p := PlanOf(input); p != "" {
		reason += "\n\n" + p
	}
	return Access{Kind: AccessOther, ReadOnly: true, Own: OwnAsk, OwnReason: reason}
}

// IsConcurrencySafe: no; the mode changes after it, so it runs alone.
func (ExitPlanMode) IsConcurrencySafe(json.RawMessage) bool { return false }

// IsConcurrencySafe: no; the mode changes after it, so it runs alone.
func (EnterPlanMode) IsConcurrencySafe(json.RawMessage) bool { return false }
