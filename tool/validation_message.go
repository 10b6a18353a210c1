package tool

import (
	"bytes"
	"cmp"
	"encoding/json"
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
	rank  int
	param string // the top-level parameter it is about, for the order
	text  string
}

// schemaIssues flattens the validator's error tree into issues; value is the input,
// to tell an integer parameter given a fraction from one given another type.
// order is the schema's parameters in the order it declares them: the validator
// visits properties in map order, so issues of one rank are listed in declaration
// order (as Claude Code does), then by text, never in a different order each run.
func schemaIssues(err error, value any, order []string) []issue {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []issue{{rank: 1, text: err.Error()}}
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
				out = append(out, issue{0, top(join(name, m)), fmt.Sprintf("The required parameter `%s` is missing", join(name, m))})
			}
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, issue{2, top(join(name, p)), fmt.Sprintf("An unexpected parameter `%s` was provided", join(name, p))})
			}
		case *kind.Type:
			want, got := typeNames(k)
			what := fmt.Sprintf("The parameter `%s`", name)
			if name == "" {
				what = "The input" // not an object at all
			}
			out = append(out, issue{1, top(name), fmt.Sprintf("%s type is expected as `%s` but provided as `%s`", what, want, got)})
		default:
			where := "The input"
			if name != "" {
				where = fmt.Sprintf("The parameter `%s`", name)
			}
			out = append(out, issue{1, top(name), fmt.Sprintf("%s is invalid: %s", where, e.ErrorKind.LocalizedString(englishPrinter))})
		}
	}
	walk(ve)
	pos := func(p string) int {
		if i := slices.Index(order, p); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortFunc(out, func(a, b issue) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(pos(a.param), pos(b.param)), cmp.Compare(a.text, b.text))
	})
	return out
}

// top is the top-level parameter of a dotted location.
func top(loc string) string {
	p, _, _ := strings.Cut(loc, ".")
	return p
}

// propertyOrder lists the top-level "properties" of a JSON schema in the order the
// text declares them (a Go map, and so the compiled schema, forgets it).
func propertyOrder(schema string) []string {
	var doc struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal([]byte(schema), &doc) != nil || len(doc.Properties) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(doc.Properties))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var order []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return order
		}
		key, _ := t.(string)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return order
		}
		order = append(order, key)
	}
	return order
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
