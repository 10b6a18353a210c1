package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// SkillName is the name of the tool that loads a skill's instructions.
const SkillName = tool.SkillName

// skillTool is Skill, Claude Code's tool (2.1.328) that loads a skill: the
// instructions of a SKILL.md under ~/.claude/skills/NAME/ or, in a trusted
// workspace, .claude/skills/NAME/. The session answers it (Spec.InSession;
// workflows/session_skills.go): it knows the skills it listed to the model, loads
// the one named with the LoadSkills activity below, and adds its text to the next
// user message, as Claude Code does. Loading changes nothing, so the call runs
// beside others, asks nobody and runs in plan mode.
type skillTool struct{ tool.Base }

func (skillTool) Spec() tool.Spec {
	return tool.Spec{Name: SkillName, Builtin: true, Coerce: true, InSession: true, MaxInputBytes: maxShortInputBytes,
		Interrupt: tool.InterruptBlock, Description: skillDescription, InputSchema: skillSchema}
}

const skillDescription = `Loads a skill: instructions the user or the project keeps for a kind of task (a release checklist, a review routine, how this repository deploys). The skills there are, with what each is for, are listed in the system prompt.

- When the task is one a listed skill covers, call this first and follow the instructions it loads (they arrive in the next message) instead of your own approach.
- skill is a name from the listing, without a leading slash; a user asking for "/name" means that skill.
- args are passed to the skill (its $ARGUMENTS).
- Only listed names are valid: do not guess.`

const skillSchema = `{
  "type": "object",
  "properties": {
    "skill": {"type": "string", "description": "The name of a skill from the available-skills list. Do not guess names."},
    "args": {"type": "string", "description": "Optional arguments for the skill"}
  },
  "required": ["skill"],
  "additionalProperties": false
}`

// IsConcurrencySafe: loading reads a file and changes nothing.
func (skillTool) IsConcurrencySafe(json.RawMessage) bool { return true }

// Subject: the skill.
func (skillTool) Subject(input json.RawMessage) string { return tool.SkillOf(input).Skill }

// Summary: the skill.
func (skillTool) Summary(input json.RawMessage) string {
	return tool.Title(SkillName, tool.Code(tool.SkillOf(input).Skill, false))
}

// Access: reads instructions the user or a trusted workspace keeps.
func (skillTool) Access(json.RawMessage) tool.Access {
	return tool.Access{Kind: tool.AccessOther, ReadOnly: true, Own: tool.OwnAllow}
}

// Run is never called: the session answers.
func (skillTool) Run(context.Context, tool.Call) (tool.Output, error) {
	return tool.Output{}, errors.New("Skill is answered by the session, not by an activity")
}

// skillFile is the file a skill's directory holds.
const skillFile = "SKILL.md"

// maxSkillBytes bounds a SKILL.md: instructions, not data.
const maxSkillBytes = 1 << 20

// LoadSkills lists the skills under the request's directories, or loads the one
// it names. A directory that does not exist has none; a skill whose file cannot
// be read is left out of the listing.
func (a *Activities) LoadSkills(_ context.Context, req contract.SkillsRequest) (contract.SkillsReply, error) {
	skills := listSkills(req.Dirs)
	if req.Name == "" {
		return contract.SkillsReply{Skills: skills}, nil
	}
	i := slices.IndexFunc(skills, func(s contract.SkillInfo) bool { return s.Name == req.Name })
	if i < 0 {
		return contract.SkillsReply{}, nil
	}
	_, body, err := readSkill(filepath.Join(skills[i].Dir, skillFile))
	if err != nil {
		return contract.SkillsReply{}, fmt.Errorf("load skill %s: %w", req.Name, err)
	}
	return contract.SkillsReply{Found: true, Text: SkillText(skills[i].Dir, body, req.Args)}, nil
}

// SkillText is the message a loaded skill gives the model, as Claude Code words
// it: its base directory, then its instructions (the frontmatter left out) with
// $ARGUMENTS replaced, or the arguments after them when it has no placeholder.
func SkillText(dir, body, args string) string {
	body = strings.TrimLeft(body, "\n")
	switch {
	case strings.Contains(body, "$ARGUMENTS"):
		body = strings.ReplaceAll(body, "$ARGUMENTS", args)
	case args != "":
		body = strings.TrimRight(body, "\n") + "\n\nARGUMENTS: " + args + "\n"
	}
	return "Base directory for this skill: " + dir + "\n\n" + body + "\n"
}

// listSkills reads the skills of dirs, sorted by name; an earlier directory's
// skill hides a later one's of the same name.
func listSkills(dirs []string) []contract.SkillInfo {
	var out []contract.SkillInfo
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			dir := filepath.Join(d, e.Name())
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				continue
			}
			meta, body, err := readSkill(filepath.Join(dir, skillFile))
			if err != nil {
				continue
			}
			name := e.Name()
			if meta.Name != "" {
				name = meta.Name
			}
			if slices.ContainsFunc(out, func(s contract.SkillInfo) bool { return s.Name == name }) {
				continue
			}
			desc := strings.Join(strings.Fields(meta.Description), " ")
			if desc == "" {
				desc = skillFirstLine(body)
			}
			out = append(out, contract.SkillInfo{Name: name, Description: desc, Dir: dir})
		}
	}
	slices.SortFunc(out, func(a, b contract.SkillInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// skillMeta is the frontmatter a skill is listed by.
type skillMeta struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// readSkill reads a SKILL.md: its frontmatter (between "---" lines at the top)
// and the rest. Frontmatter that is not YAML is taken as text.
func readSkill(path string) (skillMeta, string, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return skillMeta{}, "", err
	case !st.Mode().IsRegular():
		return skillMeta{}, "", &fs.PathError{Op: "read", Path: path, Err: errors.New("not a regular file")}
	case st.Size() > maxSkillBytes:
		return skillMeta{}, "", fmt.Errorf("%s is %d bytes, more than a skill's %d", path, st.Size(), maxSkillBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return skillMeta{}, "", err
	}
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return skillMeta{}, text, nil
	}
	front, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return skillMeta{}, text, nil
	}
	var meta skillMeta
	if yaml.Unmarshal([]byte(front), &meta) != nil {
		return skillMeta{}, text, nil
	}
	return meta, body, nil
}

func skillFirstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
