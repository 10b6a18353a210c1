package tool

import "slices"

// The names of the built-in tools that the rest of toolpipe refers to: the
// vocabulary of Claude Code's permission rules (permissions/), and Bash, whose
// background commands the session runs (background.go). Each tool itself lives
// in one file of package activities.
const (
	BashName     = "Bash"
	ReadName     = "Read"
	WriteName    = "Write"
	EditName     = "Edit"
	GlobName     = "Glob"
	GrepName     = "Grep"
	WebFetchName = "WebFetch"
)

// original are the tools every toolpipe worker had before tools came from the
// worker's registry. A turn knows them without recording it, as turns always did;
// any other tool of a registry, a later built-in one or a program's own, is known
// to a turn by what it recorded the first time a call named it (workflows,
// change custom-tools-recorded), so that a turn replays as it ran on every worker.
var original = []string{BashName, EditName, GlobName, GrepName, ReadName, TaskStopName, WebFetchName, WriteName}

// IsOriginal reports whether name is one of the tools every worker has had since
// before registries (see original). The list never grows.
func IsOriginal(name string) bool { return slices.Contains(original, name) }
