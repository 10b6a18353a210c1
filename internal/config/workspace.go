package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/viper"

	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/settings"
)

// WorkspaceFiles lists the files of the workspace dir that take effect only when
// it is trusted and that exist, with what each would do: its toolpipe.yaml when
// withConfig (the command reads configuration from dir, its current directory),
// and its .mcp.json and .claude/settings*.json when withSettings (the command
// runs tools there).
func WorkspaceFiles(dir string, withConfig, withSettings bool) []WorkspaceFile {
	var files []WorkspaceFile
	if withConfig {
		if f := filepath.Join(dir, ProjectFile); exists(f) {
			files = append(files, WorkspaceFile{Path: f, Effects: describeConfig(f)})
		}
	}
	if withSettings {
		if effects, ok := mcptools.Describe(dir); ok {
			files = append(files, WorkspaceFile{Path: filepath.Join(dir, mcptools.ConfigFile), Effects: effects})
		}
		for _, rel := range settings.ProjectFiles {
			f := filepath.Join(dir, rel)
			if effects, ok := settings.Describe(f, dir); ok {
				files = append(files, WorkspaceFile{Path: f, Effects: effects})
			}
		}
		if f, effects, ok := describeSkills(dir); ok {
			files = append(files, WorkspaceFile{Path: f, Effects: effects})
		}
	}
	return files
}

// describeSkills names the skills of the workspace's .claude/skills: instructions
// the model would be offered (Skill).
func describeSkills(dir string) (string, []string, bool) {
	d := filepath.Join(dir, ".claude", "skills")
	entries, err := os.ReadDir(d)
	if err != nil {
		return "", nil, false
	}
	var names []string
	for _, e := range entries {
		if exists(filepath.Join(d, e.Name(), "SKILL.md")) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return "", nil, false
	}
	return d, []string{fmt.Sprintf("offer the model %d skill(s) to follow (%s)", len(names), strings.Join(names, ", "))}, true
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// describeConfig names the keys a toolpipe.yaml sets.
func describeConfig(file string) []string {
	f := viper.New()
	f.SetConfigFile(file)
	if err := f.ReadInConfig(); err != nil {
		return []string{"fail to load: " + err.Error()}
	}
	var keys []string
	for _, k := range f.AllKeys() {
		top, _, _ := strings.Cut(k, ".")
		if !slices.Contains(keys, top) {
			keys = append(keys, top)
		}
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		return []string{"set nothing"}
	}
	return []string{"set " + strings.Join(keys, ", ")}
}
