package tool

import (
	"fmt"
	"slices"
	"strings"
)

// claudeCodeOnly are Claude Code 2.1.328's tools that toolpipe does not have, and
// the old names Claude Code still answers to for them (Task is Agent, RunWorkflow
// Workflow, ListPeers ListAgents, ProposeGoal SetGoal, ListMcpResources and
// ReadMcpResource(Dir) the MCP resource tools). A model trained on Claude Code
// calls them; it is told, as Claude Code tells it of a tool the session leaves
// out, that it is not available here in any agent, so it continues without instead
// of trying again. Names Claude Code does not know in a session either (REPL, Eval,
// tools of other products) get no hint there or here.
var claudeCodeOnly = []string{
	"Agent", "AppifactRepl", "AskUserQuestion", "CronCreate", "CronDelete", "CronList",
	"DesignSync", "EndConversation", "EnterPlanMode", "EnterWorktree", "ExitPlanMode",
	"ExitWorktree", "FetchInboxMessage", "GetGoal", "LSP", "ListAgents", "ListConnectors",
	"ListMcpResources", "ListMcpResourcesTool", "ListPeers", "McpTaskResumePolling",
	"Monitor", "NotebookEdit", "OfferChromeSetup", "PauseGoal", "Poll", "Projects",
	"ProposeGoal", "PublishPlugin", "PushNotification", "ReadMcpResource",
	"ReadMcpResourceDir", "ReadMcpResourceDirTool", "ReadMcpResourceTool",
	"ReadNotifications", "ReadWidgetContext", "RemoteTrigger", "ReportFindings",
	"RunWorkflow", "ScheduleWakeup", "SearchMcpRegistry", "SendFeedback", "SendFile",
	"SendToProject", "SendToProjectContext", "SendUserFile", "SetGoal",
	"ShareOnboardingGuide", "ShowOnboardingRolePicker", "Skill", "SuggestConnectors",
	"SuggestPluginInstall", "SuggestSkills", "Task", "TaskCreate", "TaskGet", "TaskList",
	"TaskUpdate", "TodoWrite", "ToolSearch", "WebSearch", "Workflow", "WrapUp",
}

// hints are what Claude Code 2.1.328 says, after "No such tool available: X", of
// the absent tools it has more to say about: SendMessage, the user-message tool
// (and its old name Brief), and GetTask, which no session has.
var hints = map[string]string{
	"SendMessage":     ". SendMessage is not among the tools available here. An agent cannot be continued from this context. To message another session, use your host application's own messaging tool if it provides one; otherwise that is not possible from here.",
	"SendUserMessage": ". SendUserMessage is not enabled in this session \u2014 write your message as normal assistant text instead.",
	"Brief":           ". Brief is not enabled in this session \u2014 write your message as normal assistant text instead.",
	"GetTask":         ". GetTask is not a tool you can call. A background command's or task's result reaches you by itself when it finishes, unless the message that started it said otherwise, so you don't need to check on it.",
}

// aliases are names Claude Code 2.1.328 still answers to for a tool toolpipe has.
var aliases = map[string]string{"KillShell": TaskStopName}

// Canonical is the tool a name calls: the name itself, or the tool an old name
// of Claude Code's stands for (KillShell is TaskStop).
func Canonical(name string) string {
	if c, ok := aliases[name]; ok {
		return c
	}
	return name
}

// UnknownToolMessage is the result of a call to a tool the turn does not have, in
// Claude Code's words: "Error: No such tool available: X", then, for a name that
// differs from one of the tools only in case, which to call instead, or, for a
// Claude Code tool toolpipe lacks, that it is not available here. known are the
// turn's tool names. The text is wrapped as Claude Code wraps errors that stopped
// a call before it ran.
func UnknownToolMessage(name string, known []string) string {
	msg := "Error: No such tool available: " + name
	var same []string
	for _, k := range known {
		if strings.EqualFold(k, name) && k != name {
			same = append(same, k)
		}
	}
	switch {
	case len(same) == 1:
		msg += fmt.Sprintf(". Tool names are case-sensitive: call %s instead.", same[0])
	case hints[name] != "":
		msg += hints[name]
	case slices.Contains(claudeCodeOnly, name):
		msg += fmt.Sprintf(". %s is disabled for this session, in subagents as well as here.", name)
	}
	return UseError(msg)
}
