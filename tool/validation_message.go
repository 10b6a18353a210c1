package tool

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The schema failures are told to the model in Claude Code's words, one issue a line,
// so a model trained on Claude Code recognises them:
//
//	Read failed due to the following issues:
//	The required parameter `file_path` is missing
//	An unexpected parameter `path` was provided

var englishPrinter = message.NewPrinter(language.English)

// issue is one line of the message; rank orders them: missing parameters first,
// then wrong values, then unexpected parameters, as Claude Code lists them.
type issue struct {
	rank int
	text string
}

// schemaIssues flattens the validator's error tree into issues; value is the input,
// to tell an integer parameter given a fraction from one given another type.
func schemaIssues(err error, value any) []issue {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []issue{{1, err.Error()}}
	}
	var out []issue
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		name := strings.Join(e.InstanceLocation, ".")
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, m := range k.Missing {
				out = append(out, issue{0, fmt.Sprintf("The required parameter `%s` is missing", join(name, m))})
			}
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, issue{2, fmt.Sprintf("An unexpected parameter `%s` was provided", join(name, p))})
			}
		case *kind.Type:
			want, got := typeNames(k)
			what := fmt.Sprintf("The parameter `%s`", name)
			if name == "" {
				what = "The input" // not an object at all
			}
			out = append(out, issue{1, fmt.Sprintf("%s type is expected as `%s` but provided as `%s`", what, want, got)})
		default:
			where := "The input"
			if name != "" {
				where = fmt.Sprintf("The parameter `%s`", name)
			}
			out = append(out, issue{1, fmt.Sprintf("%s is invalid: %s", where, e.ErrorKind.LocalizedString(englishPrinter))})
		}
	}
	walk(ve)
	slices.SortStableFunc(out, func(a, b issue) int { return cmp.Compare(a.rank, b.rank) })
	return out
}

// issuesMessage is the message for a tool's issues.
func issuesMessage(toolName string, issues []issue) string {
	head := "issue"
	if len(issues) != 1 {
		head = "issues"
	}
	lines := make([]string, len(issues))
	for i, is := range issues {
		lines[i] = is.text
	}
	return fmt.Sprintf("%s failed due to the following %s:\n%s", toolName, head, strings.Join(lines, "\n"))
}

// typeNames names the types as Claude Code does: an integer parameter given a
// fraction expects an `int`, given anything else a `number`.
func typeNames(k *kind.Type) (want, got string) {
	want = strings.Join(k.Want, " | ")
	if want == "integer" {
		want = "number"
		if k.Got == "number" {
			want = "int"
		}
	}
	return want, k.Got
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}
