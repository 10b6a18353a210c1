package contract

import "strings"

// reservedPrefix starts the activity types the Temporal SDK keeps for itself.
const reservedPrefix = "__temporal"

// activityNames are the activity types toolpipe registers beside its tools' own.
// activities' TestEveryRegisteredActivityIsReserved keeps the list whole.
var activityNames = []string{
	ModelActivityName, AppendActivityName, OpenSessionActivityName, CompactActivityName,
	HookActivityName, PromptHookActivityName, ResolvePathsActivityName, TranscriptActivityName,
	ListMCPToolsActivityName, MCPCallActivityName, BashBackgroundActivityName, RefusedCallActivityName,
	PlaceSessionActivityName, ReleaseSessionActivityName, ProbeHostActivityName,
	CaptureCheckpointActivityName, RestoreCheckpointActivityName, PrepareWorkspaceActivityName,
	LoadSkillsActivityName,
	RecordTurnActivityName, RecordWorkspaceActivityName, RewindSessionActivityName, ForkSessionActivityName,
}

// ReservedName reports whether a custom tool may not take name: a custom tool's
// activity is registered under the tool's name, and the SDK panics on a second
// registration of toolpipe's own activity types and on its reserved prefix.
func ReservedName(name string) bool {
	// A tool's activity is ToolActivity(name): a tool named as one of these, with
	// or without the prefix, would take its activity type (or its legacy name's).
	for _, n := range activityNames {
		if name == n || name == Unprefixed(n) || ToolActivity(name) == n {
			return true
		}
	}
	return strings.HasPrefix(name, reservedPrefix)
}
