package workflows

import (
	"encoding/json"
	"fmt"
	"github.com/toolpipe/toolpipe/internal/preview"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
)

// The tools a session answers itself, beside TaskStop: the task list (TaskCreate,
// TaskGet, TaskUpdate, TaskList) and plan mode (EnterPlanMode, ExitPlanMode). A
// turn hands their calls to its session as it hands background commands
// (BackgroundAsk, turn_background.go), once the gate let them run; the session
// answers at once from its own state, which is workflow state: it lives as long
// as the session, continue-as-new carries it (SessionCarry.Tools) and a
// compaction, which replaces only the conversation, leaves it alone. Their calls
// are new tools to every recorded turn (change customToolsRecorded), so older
// histories never reach this code.

// SessionToolState is the state these tools keep: the task list and the
// permission mode plan mode set.
type SessionToolState struct {
	Tasks *tool.TaskList `json:"tasks,omitempty"`
	// Mode is the permission mode the session's turns run in, when the model
	// changed it (EnterPlanMode, an approved ExitPlanMode); nil: as configured.
	Mode *permissions.Mode `json:"mode,omitempty"`
	// ModeBefore is the mode to go back to when the plan is approved; nil: as
	// configured.
	ModeBefore *permissions.Mode `json:"mode_before,omitempty"`
	// Skills are the skills listed to the model when the session started
	// (session_skills.go).
	Skills []contract.SkillInfo `json:"skills,omitempty"`
}

// isSessionTool: the session answers the tool's calls (not TaskStop, which
// background.go answers): from its state at once (answerSessionTool), or, for the
// tools that wait, in a coroutine of their own (waitingTools).
func isSessionTool(name string) bool {
	return tool.IsTaskListTool(name) || tool.IsPlanModeTool(name) || name == tool.SkillName || isWaitingTool(name)
}

// answerSessionTool answers one call of a session tool.
func (s *session) answerSessionTool(ctx workflow.Context, ask BackgroundAsk) BackgroundReply {
	name, input := ask.Call.Name, ask.Call.Input
	var reply BackgroundReply
	switch {
	case tool.IsTaskListTool(name):
		if s.own.Tasks == nil {
			s.own.Tasks = &tool.TaskList{}
		}
		reply.Content, reply.IsError, reply.Response = s.own.Tasks.Apply(name, input)
	case name == tool.SkillName:
		reply = s.loadSkill(ctx, input) // session_skills.go
	case name == tool.EnterPlanModeName:
		s.enterPlanMode()
		reply.Content = tool.EnteredPlanMode
		reply.Response = marshalJSON(map[string]string{"message": tool.EnteredPlanMode})
	case name == tool.ExitPlanModeName:
		// The turn asked a person before it handed the call over: approved.
		if s.turnMode() != permissions.Plan {
			return BackgroundReply{Content: tool.UseError(tool.NotInPlanMode), IsError: true}
		}
		s.exitPlanMode()
		plan := tool.PlanOf(input)
		reply.Content = tool.ExitedPlanMode
		if plan != "" {
			reply.Content = tool.ApprovedPlan(plan)
		}
		var p *string
		if plan != "" {
			p = &plan
		}
		reply.Response = marshalJSON(map[string]any{"plan": p, "isAgent": s.in.Depth > 0})
	}
	s.note(SessionEvent{Kind: EventNotice, Text: sessionToolNotice(name, reply)})
	s.publish(ctx)
	return reply
}

// sessionToolNotice is the event a watcher sees of a session tool's call.
func sessionToolNotice(name string, r BackgroundReply) string {
	switch name {
	case tool.EnterPlanModeName:
		return "plan mode: on (calls that could change something are refused until a plan is approved)"
	case tool.ExitPlanModeName:
		if r.IsError {
			return "plan mode: " + r.Content
		}
		return "plan mode: off (the plan was approved)"
	}
	return fmt.Sprintf("%s: %s", name, preview.Shorten(r.Content, 200))
}

// configuredMode is the mode the session was started with; a session without a
// permission policy runs every call, which counts as bypassing.
func (s *session) configuredMode() (permissions.Mode, bool) {
	if s.in.Settings == nil || s.in.Settings.Permissions == nil {
		return permissions.Default, false
	}
	return s.in.Settings.Permissions.Mode, true
}

// turnMode is the mode the next turn runs in.
func (s *session) turnMode() permissions.Mode {
	if s.own.Mode != nil {
		return *s.own.Mode
	}
	m, _ := s.configuredMode()
	return m
}

func (s *session) enterPlanMode() {
	if s.turnMode() == permissions.Plan {
		return // already: the mode to go back to stays
	}
	s.own.ModeBefore = s.own.Mode
	plan := permissions.Plan
	s.own.Mode = &plan
}

func (s *session) exitPlanMode() {
	before := s.own.ModeBefore
	if before == nil {
		if m, _ := s.configuredMode(); m == permissions.Plan {
			def := permissions.Default // started in plan mode: approval leaves it
			before = &def
		}
	}
	s.own.Mode, s.own.ModeBefore = before, nil
}

// turnSettings are the settings the next turn (and sub-agent) enforces: the
// session's, in the mode the model set. A session without a permission policy
// gets one of plan mode alone while it plans, and none again after.
func (s *session) turnSettings() *TurnSettings {
	if s.own.Mode == nil {
		return s.in.Settings
	}
	var st TurnSettings
	if s.in.Settings != nil {
		st = *s.in.Settings
	}
	var pol permissions.Policy
	if st.Permissions != nil {
		pol = *st.Permissions
	} else {
		pol.WorkDir = s.in.Workdir
	}
	pol.Mode = *s.own.Mode
	st.Permissions = &pol
	return &st
}

// carryTools is the state continue-as-new carries; nil when there is none, so
// that the carry of a session that never used these tools is as before.
func (s *session) carryTools() *SessionToolState {
	if s.own.Tasks == nil && s.own.Mode == nil && s.own.Skills == nil {
		return nil
	}
	c := s.own
	c.Tasks = c.Tasks.Clone()
	return &c
}

// restoreTools takes the carried state back.
func (s *session) restoreTools(c *SessionToolState) {
	if c != nil {
		s.own = *c
	}
}

// sessionTaskItems are the task list for the state query (nil: none).
func (s *session) sessionTaskItems() []tool.TaskItem {
	if s.own.Tasks == nil {
		return nil
	}
	return s.own.Tasks.Tasks
}

// inPlanMode: the model entered plan mode and no plan was approved since.
func (s *session) inPlanMode() bool {
	return s.own.Mode != nil && *s.own.Mode == permissions.Plan
}

// taskLinks says what a task waits on, for the details.
func taskLinks(t tool.TaskItem) string {
	out := ""
	if t.Owner != "" {
		out += " · owner " + cell(t.Owner)
	}
	if len(t.BlockedBy) > 0 {
		out += " · blocked by #" + strings.Join(t.BlockedBy, ", #")
	}
	return out
}

func marshalJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// waitingTools are the session tools that need their session's durable state (a timer, a
// person's answer), not a worker: the turn hands their calls to the session, as it
// does background shells (turn_background.go), and the session answers each in a
// coroutine of its own, so a call that waits (a question) holds up no other.
var waitingTools = map[string]func(s *session, ctx workflow.Context, ask BackgroundAsk) BackgroundReply{
	tool.ScheduleWakeupName:  (*session).scheduleWakeup, // session_schedulewakeup.go
	tool.AskUserQuestionName: (*session).askUser,        // session_askuserquestion.go
}

// isWaitingTool says the session answers calls of the named tool in a coroutine
// of their own (serveSessionTool).
func isWaitingTool(name string) bool {
	_, ok := waitingTools[name]
	return ok
}

// serveSessionTool answers one call of a session tool and signals the reply to
// the asking turn.
func (s *session) serveSessionTool(ctx workflow.Context, ask BackgroundAsk) {
	workflow.Go(ctx, func(ctx workflow.Context) {
		reply := waitingTools[ask.Call.Name](s, ctx, ask)
		// The turn waits for this; a turn that is gone needs no answer.
		_ = workflow.SignalExternalWorkflow(ctx, ask.TurnID, "", backgroundReplySignal(ask.ToolUseID), reply).Get(ctx, nil)
	})
}

// noSessionTool is the result of a session tool's call in a turn without a
// session (`starter run`).
func noSessionTool(name string) string {
	return "Error: " + name + " needs an agent session (starter agent, or the Go API's Session): a turn run on its own has no session to keep it."
}
