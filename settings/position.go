package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// FileError is a problem in a settings file, at a line and column (1-based; 0 when
// the position is unknown).
type FileError struct {
	File         string
	Line, Column int
	Msg          string
}

// Error names the file and the position first, as compilers do, so editors can jump
// to it.
func (e *FileError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// lineCol converts a byte offset of data to a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	off = max(0, min(off, len(data)))
	line := bytes.Count(data[:off], []byte("\n")) + 1
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// decodeError turns encoding/json's error into a FileError at its position.
func decodeError(file string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		l, c := lineCol(data, int(syn.Offset)-1)
		return &FileError{file, l, c, "invalid JSON: " + syn.Error()}
	case errors.As(err, &typ):
		// Offset is just past the value; the start of it is what people look for.
		l, c := lineCol(data, valueStart(data, int(typ.Offset)))
		field := indexed(typ.Field)
		if field == "" {
			field = "the settings"
		}
		return &FileError{file, l, c, fmt.Sprintf("%s must be %s, not a JSON %s", field, jsonKind(typ.Type), typ.Value)}
	}
	return &FileError{File: file, Msg: "invalid JSON: " + err.Error()}
}

// indexed writes encoding/json's field path "a.0.b" as "a[0].b", the way the other
// errors name places in the file.
func indexed(field string) string {
	parts := strings.Split(field, ".")
	var b strings.Builder
	for i, p := range parts {
		if _, err := strconv.Atoi(p); err == nil && i > 0 {
			b.WriteString("[" + p + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// valueStart walks back from just past a scalar value to its first byte.
func valueStart(data []byte, end int) int {
	end = min(end, len(data))
	i := end - 1
	for i > 0 && bytes.IndexByte([]byte(",:[{ \t\r\n"), data[i-1]) < 0 {
		i--
	}
	return max(i, 0)
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a number"
}

// at returns a FileError at the value a JSON path points to (keys are strings,
// array indexes ints), or without a position when the path is not found.
func at(file string, data []byte, msg string, path ...any) error {
	if off, ok := locate(data, path); ok {
		l, c := lineCol(data, off)
		return &FileError{file, l, c, msg}
	}
	return &FileError{File: file, Msg: msg}
}

// locate finds the byte offset where the value at path starts. Keys compare
// exactly; the first match wins.
func locate(data []byte, path []any) (int, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	return find(dec, data, path)
}

func find(dec *json.Decoder, data []byte, path []any) (int, bool) {
	start := skipSeparators(data, int(dec.InputOffset()))
	if len(path) == 0 {
		return start, true
	}
	tok, err := dec.Token()
	if err != nil {
		return 0, false
	}
	switch tok {
	case json.Delim('{'):
		key, _ := path[0].(string)
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return 0, false
			}
			if k == key {
				return find(dec, data, path[1:])
			}
			if skipValue(dec) != nil {
				return 0, false
			}
		}
	case json.Delim('['):
		idx, ok := path[0].(int)
		for i := 0; dec.More(); i++ {
			if ok && i == idx {
				return find(dec, data, path[1:])
			}
			if skipValue(dec) != nil {
				return 0, false
			}
		}
	}
	return 0, false
}

func skipValue(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}

func skipSeparators(data []byte, i int) int {
	for i < len(data) && bytes.IndexByte([]byte(" \t\r\n:,"), data[i]) >= 0 {
		i++
	}
	return i
}
