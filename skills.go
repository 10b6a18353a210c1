package toolpipe

import (
	"os"
	"path/filepath"
)

// skillDirs are the directories whose skills (NAME/SKILL.md) a new session offers
// its model through the Skill tool, as Claude Code reads them: the user's
// (Settings.UserDir, else $CLAUDE_CONFIG_DIR, else ~/.claude, then skills/), and
// the working directory's .claude/skills only when Settings.TrustWorkspace says
// its own files take effect: a workspace's skills are instructions the model
// follows. A session started without Settings reads no Claude Code configuration,
// skills included.
func skillDirs(workdir string, s *Settings) []string {
	if s == nil {
		return nil
	}
	user := s.UserDir
	if user == "" {
		user = os.Getenv("CLAUDE_CONFIG_DIR")
	}
	if user == "" {
		if h, err := os.UserHomeDir(); err == nil {
			user = filepath.Join(h, ".claude")
		}
	}
	var dirs []string
	if user != "" {
		dirs = append(dirs, filepath.Join(user, "skills"))
	}
	if s.TrustWorkspace && workdir != "" {
		dirs = append(dirs, filepath.Join(workdir, ".claude", "skills"))
	}
	return dirs
}
