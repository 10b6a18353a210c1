package contract

// LoadSkillsActivityName lists a session's skills (SKILL.md files) or loads one
// for the Skill tool (activities/skill.go, workflows/session_skills.go).
const LoadSkillsActivityName = "toolpipe.LoadSkills"

// SkillsRequest asks for the skills under Dirs, or for one of them.
type SkillsRequest struct {
	// Dirs are the skill directories in precedence order (the user's, then the
	// trusted workspace's): each holds one directory per skill with a SKILL.md.
	// A name found in an earlier one hides it in later ones.
	Dirs []string `json:"dirs"`
	// Name is the skill to load ("" lists them all); Args replace $ARGUMENTS in it.
	Name string `json:"name,omitempty"`
	Args string `json:"args,omitempty"`
}

// SkillInfo is one skill as the model's listing shows it.
type SkillInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Dir is the skill's directory (its base directory for the model).
	Dir string `json:"dir"`
}

// SkillsReply is the listing, or the loaded skill's text for the model.
type SkillsReply struct {
	Skills []SkillInfo `json:"skills,omitempty"`
	// Text is the loaded skill's message; Found says Name was found.
	Text  string `json:"text,omitempty"`
	Found bool   `json:"found,omitempty"`
}
