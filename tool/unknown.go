package tool

import (
	"fmt"
	"slices"
	"strings"
)

// claudeCodeOnly are Claude Code 2.1.328's tools that toolpipe does not have. A
// model trained on Claude Code calls them; it is told, as Claude Code tells it of a
// tool the session leaves out, that it is not available here in any agent, so it
// continues without instead of trying again.
var claudeCodeOnly = []string{
	"Agent", "AskUserQuestion", "CronCreate", "CronDelete", "CronList", "EnterPlanMode",
	"EnterWorktree", "ExitPlanMode", "ExitWorktree", "LSP", "ListAgents",
	"ListMcpResourcesTool", "Monitor", "NotebookEdit", "ReadMcpResourceTool",
	"ReportFindings", "ScheduleWakeup", "Skill", "Task", "TaskCreate", "TaskGet",
	"TaskList", "TaskUpdate", "TodoWrite", "ToolSearch", "WebSearch", "Workflow",
}

// sendMessageHint is what Claude Code says of SendMessage where it is absent.
const sendMessageHint = ". SendMessage is not among the tools available here. An agent cannot be continued from this context. To message another session, use your host application's own messaging tool if it provides one; otherwise that is not possible from here."

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
	case name == "SendMessage":
		msg += sendMessageHint
	case slices.Contains(claudeCodeOnly, name):
		msg += fmt.Sprintf(". %s is disabled for this session, in subagents as well as here.", name)
	}
	return UseError(msg)
}
