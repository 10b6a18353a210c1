package tool

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strings"
)

// Inputs as models send them. Claude Code 2.1.328 reads a tool call's input in two
// steps before its schema check, and toolpipe does the same (Repair), so that a call
// Claude Code runs runs here too:
//
//  1. The parameter names models borrow from other tools are repaired, per tool
//     (each tool's RepairInput): Read's `length` is its `limit`, Edit's `old_str`
//     its `old_string`, Write's `path` its `file_path`. For Write and Grep the
//     repair counts only when the repaired input is then valid, and the result
//     tells the model what was read how (the note).
//  2. Values are coerced as its schemas coerce them: a number sent as a string
//     ("2", " 3 ", "+2", "2.0", not "1e1") is a number and "true"/"false" are
//     booleans, wherever the schema wants a number or a boolean. An integer
//     parameter given an integral number (2.0) takes it as that integer.
//
// Whatever is still wrong after that is refused by the schema, in Claude Code's
// words (validation_message.go), never as a decoding error of the tool.

// numericString is a number as Claude Code's schemas accept it in a string.
var numericString = regexp.MustCompile(`^[-+]?\d+(\.\d+)?$`)

// integerString is an integer in a string, as its Read repair reads one.
var integerString = regexp.MustCompile(`^[-+]?\d+$`)

// maxSafeInteger is the largest integer a JavaScript number holds exactly: Claude
// Code's integer parameters refuse larger ones.
const maxSafeInteger = 1<<53 - 1

// Repair returns the input as the tool reads it: the parameter names other tools
// use repaired and the values coerced (see above), and the note the result ends
// with when the repair told the model something. An input that needs nothing, that
// is not a JSON object, or of a tool without repairs (MCP and custom tools) is
// returned as it is.
func (d *Definition) Repair(input json.RawMessage) (json.RawMessage, string) {
	if d.params == nil {
		return input, ""
	}
	orig, ok := decodeObject(input)
	if !ok {
		return input, ""
	}
	in, _ := decodeObject(input)
	note, reshaped := d.tool.RepairInput(in)
	coerced := d.coerce(in)
	if reshaped && d.spec.RepairIfValid && d.schema.Validate(toSchemaValue(in)) != nil {
		// Write and Grep: a repair that leaves the input invalid is not made;
		// the model is told about the input as it sent it.
		in, note, reshaped = orig, "", false
		coerced = d.coerce(in)
	}
	if !reshaped && !coerced {
		return input, ""
	}
	out, err := marshalInOrder(in, keyOrder(input))
	if err != nil {
		return input, ""
	}
	return out, note
}

// keyOrder lists the keys of a JSON object in the order they are written.
func keyOrder(input json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(input))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
		keys = append(keys, k)
	}
	return keys
}

// marshalInOrder writes in with its keys in order, then any others sorted: the
// repaired input keeps the model's order, as Claude Code's does, so that its
// unexpected parameters are listed as the model wrote them.
func marshalInOrder(in map[string]any, order []string) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	seen := map[string]bool{}
	write := func(k string) error {
		v, ok := in[k]
		if !ok || seen[k] {
			return nil
		}
		seen[k] = true
		if len(seen) > 1 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
		return nil
	}
	for _, k := range order {
		if err := write(k); err != nil {
			return nil, err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(in)) {
		if err := write(k); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// decodeObject decodes a JSON object keeping numbers as written.
func decodeObject(input json.RawMessage) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// toSchemaValue is v as the schema validator takes it (its numbers json.Number).
func toSchemaValue(v map[string]any) any { return maps.Clone(v) }

// coerce applies step 2 to the parameters the schema types; it reports a change.
func (d *Definition) coerce(in map[string]any) bool {
	changed := false
	// In the schema's order, not the map's: Repair runs in workflow code.
	for _, name := range d.order {
		kind := d.params[name]
		v, ok := in[name]
		if !ok {
			continue
		}
		var nv any
		var ok1, ok2 bool
		switch kind {
		case "boolean":
			nv, ok1 = semanticBool(v)
		case "number", "integer":
			nv, ok1 = semanticNumber(v)
			if kind == "integer" {
				nv, ok2 = integral(nv, d.roundUp[name])
			}
		}
		if ok1 || ok2 {
			in[name], changed = nv, true
		}
	}
	return changed
}

// semanticBool reads "true" and "false" as the booleans; it reports a change.
func semanticBool(v any) (any, bool) {
	switch s, _ := v.(string); s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return v, false
}

// semanticNumber reads a number written in a string as the number.
func semanticNumber(v any) (any, bool) {
	s, ok := v.(string)
	if !ok {
		return v, false
	}
	t := strings.TrimSpace(s)
	if !numericString.MatchString(t) {
		return v, false
	}
	return json.Number(canonicalNumber(t)), true
}

// canonicalNumber writes a number of numericString as JSON writes it: no "+", no
// leading zeros ("+007.50" is 7.50).
func canonicalNumber(t string) string {
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimLeft(t, "+-")
	whole, frac, hasFrac := strings.Cut(t, ".")
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	if neg {
		whole = "-" + whole
	}
	if hasFrac {
		return whole + "." + frac
	}
	return whole
}

// integral writes an integral number as an integer (2.0, 1e2); roundUp also
// rounds a fraction up, for a parameter Claude Code takes as any number but
// toolpipe as whole units (Bash's timeout in milliseconds).
func integral(v any, roundUp bool) (any, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return v, false
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return v, false
	}
	if roundUp {
		f = math.Ceil(f)
	}
	if f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return v, false
	}
	s := big.NewFloat(f).Text('f', 0)
	if s == string(n) {
		return v, false
	}
	return json.Number(s), true
}

// unsafeIntegers returns the integer parameters of in whose values are integral
// but too large for Claude Code's integers (and for the tools' Go types).
func (d *Definition) unsafeIntegers(input json.RawMessage) []string {
	in, ok := decodeObject(input)
	if !ok {
		return nil
	}
	var bad []string
	for _, name := range d.order {
		n, ok := in[name].(json.Number)
		if !ok || d.params[name] != "integer" {
			continue
		}
		if f, err := n.Float64(); err != nil || math.Abs(f) > maxSafeInteger {
			bad = append(bad, name)
		}
	}
	return bad
}

// WholeNumber is v as an integer when it is one (a number, or an integer in a
// string), as Claude Code's Read repair reads offset, limit and length.
func WholeNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil && !math.IsInf(f, 0)
	case string:
		t := strings.TrimSpace(x)
		if !integerString.MatchString(t) {
			return 0, false
		}
		f, err := json.Number(canonicalNumber(t)).Float64()
		return f, err == nil
	}
	return 0, false
}

// IsTrue is Claude Code's reading of a flag: true or "true".
func IsTrue(v any) bool {
	b, _ := semanticBool(v)
	return b == true
}

// DecodeObject decodes a JSON object keeping numbers as written (json.Number), as
// RepairInput sees inputs; false when input is not an object.
func DecodeObject(input json.RawMessage) (map[string]any, bool) { return decodeObject(input) }

// Renamed moves in[from] to in[to] when to is absent and from is a string: a
// parameter name a model borrowed from another tool.
func Renamed(in map[string]any, from, to string) bool {
	s, ok := in[from].(string)
	if _, has := in[to]; !ok || has {
		return false
	}
	in[to] = s
	delete(in, from)
	return true
}

// Dropped deletes in[k], reporting whether it was there.
func Dropped(in map[string]any, k string) bool {
	_, ok := in[k]
	delete(in, k)
	return ok
}
