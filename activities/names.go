package activities

import (
	"strings"

	"github.com/toolpipe/toolpipe/contract"
)

// reservedPrefix starts the activity types the Temporal SDK keeps for itself.
const reservedPrefix = "__temporal"

// ReservedName reports whether a custom tool may not take name because it is the
// activity type of one of toolpipe's own activities (a custom tool's activity is
// registered under the tool's name, and the SDK panics on a second registration)
// or starts with the SDK's reserved prefix.
func ReservedName(name string) bool {
	switch name {
	case contract.HookActivityName, contract.PromptHookActivityName, contract.ResolvePathsActivityName, contract.TranscriptActivityName,
		contract.ListMCPToolsActivityName, contract.MCPCallActivityName, contract.BashBackgroundActivityName,
		contract.ModelActivityName, contract.AppendActivityName, contract.OpenSessionActivityName, contract.CompactActivityName:
		return true
	}
	return strings.HasPrefix(name, reservedPrefix)
}
