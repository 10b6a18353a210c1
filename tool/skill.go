package tool

import (
	"encoding/json"
	"strings"
)

// SkillName is Claude Code's tool that loads a skill (activities/skill.go); the
// session answers it (workflows/session_skills.go).
const SkillName = "Skill"

// SkillInput is the Skill tool's input.
type SkillInput struct {
	Skill string `json:"skill"`
	Args  string `json:"args,omitempty"`
}

// SkillOf is the skill a Skill input names, without the leading slash a user's
// "/name" brings.
func SkillOf(input json.RawMessage) SkillInput {
	var in SkillInput
	_ = json.Unmarshal(input, &in) // a bad input still gets a name
	in.Skill = strings.TrimPrefix(strings.TrimSpace(in.Skill), "/")
	return in
}

// LaunchingSkill is Skill's result, Claude Code's words; the skill's text follows
// in the next user message.
func LaunchingSkill(name string) string { return "Launching skill: " + name }

// UnknownSkill is Skill's refusal of a name the listing does not have.
func UnknownSkill(name string) string { return "Unknown skill: " + name }

// SkillsListing is the system prompt's paragraph listing the skills, Claude Code's
// words: one "- name: description" a line.
func SkillsListing(lines []string) string {
	return "The following skills are available for use with the Skill tool:\n\n" + strings.Join(lines, "\n")
}
