package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/toolpipe/toolpipe/internal/config"
)

// skillDirs are the directories whose skills a new session offers the model
// (Skill), as Claude Code reads them: the user's ($CLAUDE_CONFIG_DIR/skills, else
// ~/.claude/skills), then the workspace's .claude/skills. A workspace's skills
// are its own files, instructions the model follows: they take effect only in a
// trusted workspace (config.Trust, the decision that covers its settings and
// .mcp.json), and a workspace with none asks nothing.
func skillDirs(cfg config.Config, warn io.Writer) []string {
	var dirs []string
	user := os.Getenv("CLAUDE_CONFIG_DIR")
	if user == "" && home() != "" {
		user = filepath.Join(home(), ".claude")
	}
	if user != "" {
		dirs = append(dirs, filepath.Join(user, "skills"))
	}
	project := filepath.Join(cfg.Workdir, ".claude", "skills")
	if st, err := os.Stat(project); err == nil && st.IsDir() && workspaceTrusted(cfg, warn) {
		dirs = append(dirs, project)
	}
	return dirs
}
