package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/permissions"
)

// Describe says, for people, what a settings file would do if it took effect:
// the hooks it runs, the rules and mode it sets, the directories it adds, the
// sandbox settings it changes. A workspace's own files take effect only when the
// user trusts it; this is what the question and the notice list (internal/config,
// trust.go). found is false when there is no such file; a file that does not
// parse is described as such.
func Describe(file, projectDir string) (effects []string, found bool) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		return []string{"fail to load: " + err.Error()}, true
	}
	pf, err := parseFile(file, data, projectDir, nil)
	if err != nil {
		return []string{"fail to load: " + err.Error()}, true
	}
	var hookDesc []string
	for _, e := range hooks.Events {
		n := 0
		for _, g := range pf.hooks.Groups(e) {
			n += len(g.Hooks)
		}
		if n > 0 {
			hookDesc = append(hookDesc, fmt.Sprintf("%s (%d)", e, n))
		}
	}
	if len(hookDesc) > 0 {
		effects = append(effects, "run hooks on "+strings.Join(hookDesc, ", "))
	}
	if pf.disableAllHooks {
		effects = append(effects, "turn every hook off (disableAllHooks)")
	}
	p := pf.perms
	for _, l := range []struct {
		what  string
		rules []permissions.Rule
	}{{"allow", p.Allow}, {"ask before", p.Ask}, {"deny", p.Deny}} {
		if len(l.rules) > 0 {
			effects = append(effects, l.what+" "+ruleList(l.rules))
		}
	}
	if p.HasMode {
		effects = append(effects, "set the permission mode to "+p.DefaultMode.String())
	}
	if len(p.AdditionalDirectories) > 0 {
		effects = append(effects, "give the tools the directories "+strings.Join(p.AdditionalDirectories, ", "))
	}
	var doc struct {
		Sandbox map[string]json.RawMessage `json:"sandbox"`
	}
	if json.Unmarshal(data, &doc) == nil && len(doc.Sandbox) > 0 {
		keys := make([]string, 0, len(doc.Sandbox))
		for k := range doc.Sandbox {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		effects = append(effects, "change the sandbox settings ("+strings.Join(keys, ", ")+")")
	}
	if len(effects) == 0 {
		effects = append(effects, "set nothing toolpipe uses")
	}
	return effects, true
}

// ruleList names up to four rules, then how many more.
func ruleList(rules []permissions.Rule) string {
	var names []string
	for i, r := range rules {
		if i == 4 {
			names = append(names, fmt.Sprintf("and %d more", len(rules)-4))
			break
		}
		names = append(names, r.String())
	}
	return strings.Join(names, ", ")
}

// ProjectFiles are the workspace's own settings files, relative to it: they take
// effect only in a workspace the user trusts (LoadOptions.TrustProject).
var ProjectFiles = []string{".claude/settings.json", ".claude/settings.local.json"}
