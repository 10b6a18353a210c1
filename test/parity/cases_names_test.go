package parity

import "testing"

// Tool names (issue 28, area 7): a wrong case, and tools Claude Code has that
// toolpipe does not. Claude Code runs with --tools naming toolpipe's tools, so a
// tool absent here is absent there too.

var nameCases = []parityCase{
	{name: "nm_bash", blocks: []caseBlock{blk("bash", `{"command":"echo hi"}`)}},
	{name: "nm_read", blocks: []caseBlock{blk("read", `{"file_path":"/etc/hostname"}`)}},
	{name: "nm_upper", blocks: []caseBlock{blk("GREP", `{"pattern":"x"}`)}},
	{name: "nm_webfetch", blocks: []caseBlock{blk("webfetch", `{"url":"https://example.com","prompt":"x"}`)}},
	{name: "nm_notebookedit", blocks: []caseBlock{blk("NotebookEdit", `{"notebook_path":"/tmp/x.ipynb","new_source":"x"}`)}},
	{name: "nm_websearch", blocks: []caseBlock{blk("WebSearch", `{"query":"x"}`)}},
	{name: "nm_task", blocks: []caseBlock{blk("Task", `{"description":"x","prompt":"y","subagent_type":"general-purpose"}`)}},
	{name: "nm_agent", blocks: []caseBlock{blk("Agent", `{"description":"x","prompt":"y"}`)}},
	{name: "nm_todowrite", blocks: []caseBlock{blk("TodoWrite", `{"todos":[]}`)}},
	{name: "nm_askuser", blocks: []caseBlock{blk("AskUserQuestion", `{"questions":[]}`)}},
	{name: "nm_exitplan", blocks: []caseBlock{blk("ExitPlanMode", `{}`)}},
	{name: "nm_taskoutput", blocks: []caseBlock{blk("TaskOutput", `{"task_id":"x"}`)}},
	{name: "nm_skill", blocks: []caseBlock{blk("Skill", `{"skill":"x"}`)}},
	{name: "nm_mcp", blocks: []caseBlock{blk("mcp__nosuch__tool", `{}`)}},
	{name: "nm_readfile", blocks: []caseBlock{blk("ReadFile", `{"file_path":"/etc/hostname"}`)}},
	{name: "nm_space", blocks: []caseBlock{blk("Bash ", `{"command":"echo hi"}`)}},
	{name: "nm_str_replace", blocks: []caseBlock{blk("str_replace_based_edit_tool", `{"command":"view","path":"/etc/hostname"}`)}},
	{name: "nm_ls", blocks: []caseBlock{blk("LS", `{"path":"/tmp"}`)}},
	{name: "nm_multiedit", blocks: []caseBlock{blk("MultiEdit", `{"file_path":"/tmp/x","edits":[]}`)}},
	{name: "nm_enterplanmode", blocks: []caseBlock{blk("EnterPlanMode", `{}`)}},
	{name: "nm_croncreate", blocks: []caseBlock{blk("CronCreate", `{}`)}},
	{name: "nm_crondelete", blocks: []caseBlock{blk("CronDelete", `{}`)}},
	{name: "nm_cronlist", blocks: []caseBlock{blk("CronList", `{}`)}},
	{name: "nm_enterworktree", blocks: []caseBlock{blk("EnterWorktree", `{}`)}},
	{name: "nm_exitworktree", blocks: []caseBlock{blk("ExitWorktree", `{}`)}},
	{name: "nm_listagents", blocks: []caseBlock{blk("ListAgents", `{}`)}},
	{name: "nm_monitor", blocks: []caseBlock{blk("Monitor", `{}`)}},
	{name: "nm_reportfindings", blocks: []caseBlock{blk("ReportFindings", `{}`)}},
	{name: "nm_schedulewakeup", blocks: []caseBlock{blk("ScheduleWakeup", `{}`)}},
	{name: "nm_sendmessage", blocks: []caseBlock{blk("SendMessage", `{}`)}},
	{name: "nm_toolsearch", blocks: []caseBlock{blk("ToolSearch", `{}`)}},
	{name: "nm_workflow", blocks: []caseBlock{blk("Workflow", `{}`)}},
	{name: "nm_lsp", blocks: []caseBlock{blk("LSP", `{}`)}},
	{name: "nm_powershell", blocks: []caseBlock{blk("PowerShell", `{}`)}},
	{name: "nm_taskcreate", blocks: []caseBlock{blk("TaskCreate", `{}`)}},
	{name: "nm_taskget", blocks: []caseBlock{blk("TaskGet", `{}`)}},
	{name: "nm_tasklist", blocks: []caseBlock{blk("TaskList", `{}`)}},
	{name: "nm_taskupdate", blocks: []caseBlock{blk("TaskUpdate", `{}`)}},
	{name: "nm_killshell", blocks: []caseBlock{blk("KillShell", `{}`)}},
	{name: "nm_bashoutput", blocks: []caseBlock{blk("BashOutput", `{}`)}},
	{name: "nm_slashcommand", blocks: []caseBlock{blk("SlashCommand", `{}`)}},
	{name: "nm_repl", blocks: []caseBlock{blk("REPL", `{}`)}},
	{name: "nm_listmcpresourcestool", blocks: []caseBlock{blk("ListMcpResourcesTool", `{}`)}},
	{name: "nm_readmcpresourcetool", blocks: []caseBlock{blk("ReadMcpResourceTool", `{}`)}},
	{name: "nm_notebookread", blocks: []caseBlock{blk("NotebookRead", `{}`)}},
	{name: "nm_webbrowser", blocks: []caseBlock{blk("WebBrowser", `{}`)}},
	{name: "nm_config", blocks: []caseBlock{blk("Config", `{}`)}},
	{name: "nm_killshell_id", blocks: []caseBlock{blk("KillShell", `{"shell_id":"nope"}`)}},
	{name: "nm_taskstop_case", blocks: []caseBlock{blk("taskstop", `{"task_id":"x"}`)}},
}

// TestParityToolNames compares calls of tools by a wrong name, or of tools
// toolpipe does not have, with Claude Code offering toolpipe's tools only.
func TestParityToolNames(t *testing.T) {
	compare(t, "names", nameCases, "--tools", "Bash,Read,Write,Edit,Glob,Grep,WebFetch,TaskStop,NotebookEdit")
}
