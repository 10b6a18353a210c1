package tool

// The typed inputs of the tools. Their JSON field names are Claude Code's; the schemas
// in schemas.go are the authority on what is accepted.

// BashInput is the input of Bash.
type BashInput struct {
	Command     string `json:"command"`
	TimeoutMs   int    `json:"timeout,omitempty"`
	Description string `json:"description,omitempty"`
	// DangerouslyDisableSandbox asks to run the command outside the sandbox; it
	// is honoured only where sandbox.allowUnsandboxedCommands allows it, and then
	// the command needs the usual permission.
	DangerouslyDisableSandbox bool `json:"dangerouslyDisableSandbox,omitempty"`
	// RunInBackground starts the command as a background task of the session and
	// answers at once with its id and output file (tool/taskstop.go); TimeoutMs
	// then bounds how long it may run (BashBackgroundDefaultTimeoutMs).
	RunInBackground bool `json:"run_in_background,omitempty"`
}

// ReadInput is the input of Read (Claude Code's FileReadInput).
type ReadInput struct {
	FilePath string `json:"file_path"`
	// Offset is the first line (1-based); absent, zero or negative: the start.
	Offset *int `json:"offset,omitempty"`
	// Limit is how many lines; absent, zero or negative: the default.
	Limit *int `json:"limit,omitempty"`
	// Pages is a PDF page range ("3", "1-5"); ignored for other files.
	Pages string `json:"pages,omitempty"`
	// AllowLarge lifts the size and token limits, up to a hard cap.
	AllowLarge bool `json:"allow_large,omitempty"`
}

// Ranged says the call names a line range, which a file over the size limit needs.
func (r ReadInput) Ranged() bool { return r.Offset != nil || r.Limit != nil }

// WriteInput is the input of Write.
type WriteInput struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

// EditInput is the input of Edit.
type EditInput struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// GlobInput is the input of Glob.
type GlobInput struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

// GrepInput is the input of Grep: every field of Claude Code's GrepInput
// (sdk-tools.d.ts), with its meaning.
type GrepInput struct {
	Pattern         string `json:"pattern"`
	Path            string `json:"path,omitempty"`
	Glob            string `json:"glob,omitempty"`
	Type            string `json:"type,omitempty"`
	OutputMode      string `json:"output_mode,omitempty"`
	CaseInsensitive bool   `json:"-i,omitempty"`
	// LineNumbers defaults to true (content mode).
	LineNumbers  *bool `json:"-n,omitempty"`
	OnlyMatching bool  `json:"-o,omitempty"`
	After        *int  `json:"-A,omitempty"`
	Before       *int  `json:"-B,omitempty"`
	// C is an alias of Context: lines on both sides of a match.
	C       *int `json:"-C,omitempty"`
	Context *int `json:"context,omitempty"`
	// HeadLimit defaults to 250 lines or entries; 0 shows all. Offset skips
	// that many first.
	HeadLimit *int `json:"head_limit,omitempty"`
	Offset    *int `json:"offset,omitempty"`
	Multiline bool `json:"multiline,omitempty"`
}

// WebFetchInput is the input of WebFetch.
type WebFetchInput struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt"`
}
