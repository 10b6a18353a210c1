package contract

import (
	"slices"
	"strings"
)

// reservedPrefix starts the activity types the Temporal SDK keeps for itself.
const reservedPrefix = "__temporal"

// activityNames are the activity types toolpipe registers beside its tools' own.
// activities' TestEveryRegisteredActivityIsReserved keeps the list whole.
var activityNames = []string{
	ModelActivityName, AppendActivityName, OpenSessionActivityName, CompactActivityName,
	HookActivityName, PromptHookActivityName, ResolvePathsActivityName, TranscriptActivityName,
	ListMCPToolsActivityName, MCPCallActivityName, BashBackgroundActivityName, RefusedCallActivityName,
	PlaceSessionActivityName, ReleaseSessionActivityName,
	RecordTurnActivityName, RewindSessionActivityName, ForkSessionActivityName,
}

// ReservedName reports whether a custom tool may not take name: a custom tool's
// activity is registered under the tool's name, and the SDK panics on a second
// registration of toolpipe's own activity types and on its reserved prefix.
func ReservedName(name string) bool {
	return slices.Contains(activityNames, name) || strings.HasPrefix(name, reservedPrefix)
}
