package tool

// Scope is what a search tool (Glob, Grep) may show, as the permission settings of
// the turn say. The permission check decides whether the search may run at all;
// Scope decides what its results may contain, because a search of an allowed
// directory can reach files the rules hide (a Read(./.env) deny rule) and links
// leading out of the permitted directories.
type Scope struct {
	// Dirs are permissions.additionalDirectories, absolute. The working
	// directory and the searched directory are always permitted.
	Dirs []string `json:"dirs,omitempty"`
	// DenyRead are the deny rules that apply to the tool, in settings syntax
	// (Read(./.env), Grep(//etc/**)): no path they match is shown.
	DenyRead []string `json:"deny_read,omitempty"`
	// ProjectDir and HomeDir anchor /path and ~/path rules.
	ProjectDir string `json:"project_dir,omitempty"`
	HomeDir    string `json:"home_dir,omitempty"`
}
