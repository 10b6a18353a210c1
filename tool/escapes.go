package tool

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Escapes written out. A model sometimes writes a character as the text of its JSON
// escape (`caf\u00e9`, a backslash in the string, for "café"). Claude Code 2.1.328
// decodes such escapes in every string of a tool's input before anything reads it
// (its ingest repair): Write writes "café", Bash runs it, Edit matches it. toolpipe
// does the same (DecodeEscapes), with its rules:
//
//   - a surrogate pair written as two escapes is the one character;
//   - an escape preceded by an odd number of backslashes is kept (`\\u00e9` is a
//     backslash and the text u00e9);
//   - a lone surrogate and the control characters (U+0000–U+001F, U+007F–U+009F)
//     are kept as written: they would corrupt the text;
//   - a string that looks like a Windows path (`C:\users`, `\\host\share`) is left
//     whole: its backslashes are the path's.

// escapeOrPair is an escaped surrogate pair or a single \uXXXX escape.
var escapeOrPair = regexp.MustCompile(`\\u([dD][89aAbB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})`)

// drivepath and uncPath are what Claude Code takes for a Windows path in a string:
// a drive (`C:\`, `C:/`) or a share (`\\host\`, its separator not followed by a
// backslash).
var (
	drivePath = regexp.MustCompile(`(?:^|[^A-Za-z])[A-Za-z]:[\\/]`)
	uncPath   = regexp.MustCompile(`(?:^|[\s"'=])\\\\[^\s\\/]+[\\/]`)
)

// windowsPath reports whether s holds what Claude Code takes for a Windows path.
func windowsPath(s string) bool {
	if drivePath.MatchString(s) {
		return true
	}
	for _, m := range uncPath.FindAllStringIndex(s, -1) {
		if m[1] == len(s) || s[m[1]] != '\\' {
			return true
		}
	}
	return false
}

// DecodeEscapes returns the input with the \uXXXX escapes written out in its
// strings decoded as Claude Code 2.1.328 decodes them (see above), and whether
// anything changed. An input that is not JSON is returned as it is.
func DecodeEscapes(input json.RawMessage) (json.RawMessage, bool) {
	if !bytes.Contains(input, []byte(`\\u`)) {
		return input, false // no string holds a backslash followed by u
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var out bytes.Buffer
	changed := false
	// Tokens are copied in order with only the strings rewritten, so the keys keep
	// the model's order and numbers their spelling.
	var stack []bool // per open container: is it an object, expecting a key next
	var keyNext []bool
	first := []bool{true}
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		isKey := len(stack) > 0 && stack[len(stack)-1] && keyNext[len(keyNext)-1]
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteByte(byte(d))
			stack, keyNext, first = stack[:len(stack)-1], keyNext[:len(keyNext)-1], first[:len(first)-1]
			afterValue(stack, keyNext)
			continue
		}
		if !first[len(first)-1] {
			if len(stack) > 0 && stack[len(stack)-1] && !isKey {
				out.WriteByte(':')
			} else {
				out.WriteByte(',')
			}
		}
		first[len(first)-1] = false
		switch v := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(v))
			stack, keyNext, first = append(stack, v == '{'), append(keyNext, true), append(first, true)
			continue
		case string:
			s := v
			if !isKey {
				if d := decodeEscapedString(v); d != v {
					s, changed = d, true
				}
			}
			b, _ := marshalNoHTML(s)
			out.Write(b)
		case json.Number:
			out.WriteString(v.String())
		case bool:
			out.WriteString(strconv.FormatBool(v))
		case nil:
			out.WriteString("null")
		}
		if isKey {
			keyNext[len(keyNext)-1] = false
		} else {
			afterValue(stack, keyNext)
		}
	}
	if !changed || !json.Valid(out.Bytes()) {
		return input, false
	}
	return out.Bytes(), true
}

// afterValue: in an object a value is followed by a key.
func afterValue(stack, keyNext []bool) {
	if len(stack) > 0 && stack[len(stack)-1] {
		keyNext[len(keyNext)-1] = true
	}
}

// marshalNoHTML encodes s as JSON without escaping <, > and &.
func marshalNoHTML(s string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// decodeEscapedString decodes the escapes written out in one string.
func decodeEscapedString(s string) string {
	if !strings.Contains(s, `\u`) || !escapeOrPair.MatchString(s) || windowsPath(s) {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range escapeOrPair.FindAllStringSubmatchIndex(s, -1) {
		start := m[0]
		backslashes := 0
		for k := start; k > 0 && s[k-1] == '\\'; k-- {
			backslashes++
		}
		b.WriteString(s[last:start])
		last = m[1]
		if backslashes%2 == 1 {
			b.WriteString(s[m[0]:m[1]])
			continue
		}
		if m[2] >= 0 {
			hi, _ := strconv.ParseUint(s[m[2]:m[3]], 16, 32)
			lo, _ := strconv.ParseUint(s[m[4]:m[5]], 16, 32)
			b.WriteRune(utf16.DecodeRune(rune(hi), rune(lo)))
			continue
		}
		q, _ := strconv.ParseUint(s[m[6]:m[7]], 16, 32)
		if q >= 0xD800 && q <= 0xDFFF || q <= 31 || q >= 127 && q <= 159 {
			b.WriteString(s[m[0]:m[1]])
			continue
		}
		b.WriteRune(rune(q))
	}
	b.WriteString(s[last:])
	return b.String()
}

// pathParams are the built-in tools' path parameters, which Claude Code 2.1.328
// reads with the white space around them trimmed (its path expansion trims): a
// model's "a.txt " is a.txt.
var pathParams = map[string]string{
	ReadName: "file_path", WriteName: "file_path", EditName: "file_path",
	GlobName: "path", GrepName: "path",
}

// TrimPath returns the input of the named tool with the white space around its
// path parameter removed, and whether anything changed.
func TrimPath(name string, input json.RawMessage) (json.RawMessage, bool) {
	key, ok := pathParams[name]
	if !ok {
		return input, false
	}
	in, ok := decodeObject(input)
	if !ok {
		return input, false
	}
	p, ok := in[key].(string)
	if !ok {
		return input, false
	}
	t := strings.TrimFunc(p, isJSWhiteSpace)
	if t == p {
		return input, false
	}
	in[key] = t
	out, err := marshalInOrder(in, keyOrder(input))
	if err != nil {
		return input, false
	}
	return out, true
}

// isJSWhiteSpace is what JavaScript's trim removes: white space, line ends and
// the byte-order mark.
func isJSWhiteSpace(r rune) bool { return r == '\uFEFF' || unicode.IsSpace(r) }
