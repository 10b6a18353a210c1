package hooks

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// simpleMatcher is Claude Code's test for a matcher that is a tool name or a list of
// them: only letters, digits, '_' and '|'. Anything else is a regular expression.
var simpleMatcher = regexp.MustCompile(`^[A-Za-z0-9_|]+$`)

// Match reports whether a group's matcher selects toolName, as Claude Code matches:
// "" and "*" match every tool; a name matches exactly (case-sensitive); "A|B" is a
// list of exact names; anything else is a regular expression searched for anywhere
// in the name (unanchored, like JavaScript's RegExp.test), so "Notebook.*" matches
// NotebookEdit and "^Bash$" only Bash. Go's RE2 syntax is used, which agrees with
// JavaScript for the patterns matchers use.
func Match(matcher, toolName string) bool {
	switch {
	case matcher == "" || matcher == "*":
		return true
	case simpleMatcher.MatchString(matcher):
		return slices.Contains(strings.Split(matcher, "|"), toolName)
	}
	re, err := regexp.Compile(matcher)
	return err == nil && re.MatchString(toolName)
}

// CheckMatcher reports why a matcher can never work: a regular expression that does
// not compile. Claude Code logs such a matcher and skips it; a skipped guard hook is
// a silent hole, so the loader refuses it instead.
func CheckMatcher(matcher string) error {
	if matcher == "" || matcher == "*" || simpleMatcher.MatchString(matcher) {
		return nil
	}
	if _, err := regexp.Compile(matcher); err != nil {
		return fmt.Errorf("matcher %q is not a valid regular expression: %v", matcher, err)
	}
	return nil
}
