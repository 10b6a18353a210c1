package activities

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/toolpipe/toolpipe/tool"
)

// NotebookEditName is the name of the tool that edits Jupyter notebooks' cells.
const NotebookEditName = "NotebookEdit"

// notebookEditTool is NotebookEdit, Claude Code's tool (2.1.328) for a Jupyter
// notebook's cells: one cell's source replaced, a cell inserted, or one deleted.
// The notebook is written back as Claude Code writes it (JSON.stringify with an
// indent of one space, keys in the file's order), so a notebook edited by either
// is the same file.
type notebookEditTool struct {
	tool.Base
	a *Activities // nil in Builtins: its declaration only
}

func (notebookEditTool) Spec() tool.Spec {
	return tool.Spec{Name: NotebookEditName, Description: notebookEditDescription, InputSchema: notebookEditSchema,
		Interrupt: tool.InterruptBlock, MaxInputBytes: maxContentInputBytes, TooBigHint: contentTooBigHint,
		Builtin: true, Coerce: true}
}

const notebookEditDescription = `Replaces the source of one cell of a Jupyter notebook (.ipynb file), inserts a new cell, or deletes one.

- notebook_path should be an absolute path (a relative one is taken from the working directory).
- cell_id names the cell: its id, or cell-N for the cell at index N (0-based) of a notebook whose cells have no ids. Read the notebook first to see its cells and their ids.
- edit_mode is replace (the default), insert or delete. insert adds the new cell after the cell cell_id names, or at the beginning without cell_id, and needs cell_type. delete removes the cell; new_source is then ignored (give "").
- Replacing a code cell's source clears its outputs and execution count. cell_type changes a replaced cell's type.
- To change other files use Edit or Write.`

const notebookEditSchema = `{
  "type": "object",
  "properties": {
    "notebook_path": {"type": "string", "description": "The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)"},
    "cell_id": {"type": "string", "description": "The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the cell with this ID, or at the beginning if not specified."},
    "new_source": {"type": "string", "description": "The new source for the cell"},
    "cell_type": {"type": "string", "enum": ["code", "markdown"], "description": "The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If using edit_mode=insert, this is required."},
    "edit_mode": {"type": "string", "enum": ["replace", "insert", "delete"], "description": "The type of edit to make (replace, insert, delete). Defaults to replace."}
  },
  "required": ["notebook_path", "new_source"],
  "additionalProperties": false
}`

// notebookEditInput is NotebookEditInput (sdk-tools.d.ts).
type notebookEditInput struct {
	NotebookPath string `json:"notebook_path"`
	CellID       string `json:"cell_id,omitempty"`
	NewSource    string `json:"new_source"`
	CellType     string `json:"cell_type,omitempty"`
	EditMode     string `json:"edit_mode,omitempty"`
}

func notebookPath(input json.RawMessage) string {
	var in notebookEditInput
	_ = json.Unmarshal(input, &in) // a bad input still gets a name
	return in.NotebookPath
}

// Subject: the notebook.
func (notebookEditTool) Subject(input json.RawMessage) string { return notebookPath(input) }

// Summary: the notebook and the cell.
func (notebookEditTool) Summary(input json.RawMessage) string {
	var in notebookEditInput
	_ = json.Unmarshal(input, &in)
	parts := []string{tool.Code(in.NotebookPath, true)}
	if in.CellID != "" {
		parts = append(parts, "cell", tool.Code(in.CellID, false))
	}
	return tool.Title(NotebookEditName, parts...)
}

// Access: the notebook, under Edit rules (as in Claude Code).
func (notebookEditTool) Access(input json.RawMessage) tool.Access {
	return tool.Access{Kind: tool.AccessEdit, Paths: []string{notebookPath(input)}}
}

// HookInput: edit_mode's default filled in, as Claude Code's hooks read it.
func (notebookEditTool) HookInput(input json.RawMessage) json.RawMessage {
	var in map[string]any
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	if _, ok := in["edit_mode"]; ok {
		return nil
	}
	in["edit_mode"] = "replace"
	b, _ := json.Marshal(in)
	return b
}

// HookResponse names the notebook when the call's Output carries no
// NotebookEditOutput.
func (notebookEditTool) HookResponse(input json.RawMessage, _ string) any {
	return map[string]any{"notebook_path": notebookPath(input)}
}

// notebookEditResponse is NotebookEditOutput (sdk-tools.d.ts).
type notebookEditResponse struct {
	NewSource    string  `json:"new_source"`
	OldSource    *string `json:"old_source,omitempty"`
	CellID       string  `json:"cell_id,omitempty"`
	CellType     string  `json:"cell_type"`
	Language     string  `json:"language"`
	EditMode     string  `json:"edit_mode"`
	Error        string  `json:"error,omitempty"`
	NotebookPath string  `json:"notebook_path"`
	OriginalFile string  `json:"original_file"`
	UpdatedFile  string  `json:"updated_file"`
}

// Run edits the notebook; for PostToolUse hooks, the tool_response is
// NotebookEditOutput.
func (t notebookEditTool) Run(ctx context.Context, call tool.Call) (tool.Output, error) {
	if t.a == nil {
		return tool.Output{}, errUnbound(call)
	}
	var resp *notebookEditResponse
	out, err := t.a.limited(func(ctx context.Context, call tool.Call) (tool.Output, error) {
		var o tool.Output
		o, resp = editNotebook(call)
		return o, nil
	})(ctx, call)
	return responding(call, out, err, func() any {
		if resp == nil {
			return nil
		}
		return resp
	})
}

// cellIndexID is Claude Code's name for the cell at an index, for notebooks whose
// cells have no ids.
var cellIndexID = regexp.MustCompile(`^cell-(\d+)$`)

// editNotebook makes the edit: Claude Code's checks in its order, then the change.
func editNotebook(call tool.Call) (tool.Output, *notebookEditResponse) {
	fail := func(format string, args ...any) (tool.Output, *notebookEditResponse) {
		out, _ := useErrorOutput(format, args...)
		return out, nil
	}
	var in notebookEditInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return fail("%v", err)
	}
	path := resolve(call.Workdir, in.NotebookPath)
	mode := in.EditMode
	if mode == "" {
		mode = "replace"
	}
	// Claude Code's checks, in its order: read first, then the file.
	if !wasRead(call, path) {
		return fail("%s", NotReadMessage)
	}
	if msg := deniedRead(call, "edit", path); msg != "" { // deny_read.go
		return fail("%s", msg)
	}
	data, err := readRegular(path) // a FIFO or a device is refused, never waited on
	if m, ok := notRegular(err); ok {
		return fail("%s", notRegularMessage(NotebookEditName, in.NotebookPath, m)) // not_regular.go
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail("Notebook file does not exist.")
	case err != nil && !errors.Is(err, errIsDir):
		out, _ := fileToolError(NotebookEditName, path, err)
		return out, nil
	}
	if !isNotebook(path) {
		return fail("File must be a Jupyter notebook (.ipynb file). For editing other file types, use the FileEdit tool.")
	}
	if err != nil { // a directory named *.ipynb
		out, _ := fileToolError(NotebookEditName, path, err)
		return out, nil
	}
	if mode == "insert" && in.CellType == "" {
		return fail("Cell type is required when using edit_mode=insert.")
	}
	nb, err := parseOrdered(data)
	obj, isObj := nb.(*orderedObject)
	if err != nil || !isObj {
		return fail("Notebook is not valid JSON.")
	}
	cells, _ := obj.get("cells").([]any)
	idx := -1
	switch {
	case in.CellID == "" && mode != "insert":
		return fail("Cell ID must be specified when not inserting a new cell.")
	case in.CellID == "":
		idx = 0
	default:
		for i, c := range cells {
			if co, ok := c.(*orderedObject); ok && co.get("id") == in.CellID {
				idx = i
				break
			}
		}
		if idx < 0 {
			m := cellIndexID.FindStringSubmatch(in.CellID)
			if m == nil {
				return fail("Cell with ID %q not found in notebook.", in.CellID)
			}
			n, err := strconv.Atoi(m[1])
			if err != nil || n >= len(cells) {
				return fail("Cell with index %s does not exist in notebook.", m[1])
			}
			idx = n
		}
		if mode == "insert" {
			idx++
		}
	}
	language := "python"
	if md, ok := obj.get("metadata").(*orderedObject); ok {
		if li, ok := md.get("language_info").(*orderedObject); ok {
			if name, ok := li.get("name").(string); ok && name != "" {
				language = name
			}
		}
	}
	// A cell id is written (nbformat 4.5 and later) for an inserted cell too.
	major, _ := obj.get("nbformat").(json.Number).Float64()
	minor, _ := obj.get("nbformat_minor").(json.Number).Float64()
	withIDs := major > 4 || (major == 4 && minor >= 5)
	cellID := in.CellID
	cellType := in.CellType
	var old *string
	switch mode {
	case "delete":
		if co, ok := cells[idx].(*orderedObject); ok {
			s := sourceText(co.get("source"))
			old = &s
		}
		cells = append(cells[:idx:idx], cells[idx+1:]...)
	case "insert":
		if withIDs {
			cellID = newCellID(call.ToolUseID, cells)
		} else {
			cellID = ""
		}
		cell := &orderedObject{}
		cell.set("cell_type", cellType)
		if cellID != "" {
			cell.set("id", cellID)
		}
		cell.set("source", in.NewSource)
		cell.set("metadata", &orderedObject{})
		if cellType != "markdown" {
			cell.set("execution_count", nil)
			cell.set("outputs", []any{})
		}
		cells = append(cells[:idx:idx], append([]any{cell}, cells[idx:]...)...)
	default:
		co, ok := cells[idx].(*orderedObject)
		if !ok {
			return fail("Cell with index %d does not exist in notebook.", idx)
		}
		s := sourceText(co.get("source"))
		old = &s
		co.set("source", in.NewSource)
		if co.get("cell_type") == "code" {
			co.set("execution_count", nil)
			co.set("outputs", []any{})
		}
		if cellType != "" && cellType != co.get("cell_type") {
			co.set("cell_type", cellType)
		}
		if cellType == "" {
			cellType, _ = co.get("cell_type").(string)
		}
	}
	obj.set("cells", cells)
	f := decodeText(data)
	updated := stringifyJS(obj, 1)
	if strings.HasSuffix(f.text, "\n") { // the file's own ending, as Claude Code keeps it (issue 41 item 4)
		updated += "\n"
	}
	if err := writeFileAtomic(path, f.encode(keepBOM(f.text, updated))); err != nil {
		out, _ := fileToolError(NotebookEditName, path, err)
		return out, nil
	}
	var text string
	switch mode {
	case "replace":
		text = fmt.Sprintf("Updated cell %s with %s", cellID, in.NewSource)
	case "insert":
		text = fmt.Sprintf("Inserted cell %s with %s", cellID, in.NewSource)
		if cellID == "" { // a notebook before nbformat 4.5: its cells have no ids
			text = "Inserted a new cell with " + in.NewSource
		}
	default:
		text = fmt.Sprintf("Deleted cell %s", cellID)
	}
	if cellType == "" {
		cellType = "code"
	}
	return tool.Output{Content: text, Modifier: &tool.Modifier{ReadFiles: []string{path}}},
		&notebookEditResponse{NewSource: in.NewSource, OldSource: old, CellID: cellID, CellType: cellType,
			Language: language, EditMode: mode, NotebookPath: path, OriginalFile: f.text, UpdatedFile: updated}
}

// sourceText is a cell's source, a string or the strings of an array joined.
func sourceText(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case []any:
		var out string
		for _, p := range s {
			if ps, ok := p.(string); ok {
				out += ps
			}
		}
		return out
	}
	return ""
}

// newCellID is an inserted cell's id. Claude Code picks a random one; toolpipe
// derives it from the call's id, so a retried call writes the same notebook, and
// makes it unique among the notebook's ids.
func newCellID(toolUseID string, cells []any) string {
	taken := map[any]bool{}
	for _, c := range cells {
		if co, ok := c.(*orderedObject); ok {
			taken[co.get("id")] = true
		}
	}
	for n := 0; ; n++ {
		h := uint64(14695981039346656037) // FNV-1a of the id and n
		for _, b := range []byte(toolUseID + "/" + strconv.Itoa(n)) {
			h = (h ^ uint64(b)) * 1099511628211
		}
		id := strconv.FormatUint(h, 36)
		if len(id) > 13 {
			id = id[:13]
		}
		if !taken[id] {
			return id
		}
	}
}

// orderedObject is a JSON object that keeps its keys' order, as JavaScript's
// objects do, so that a notebook written back keeps its layout.
type orderedObject struct {
	keys []string
	vals map[string]any
}

func (o *orderedObject) get(k string) any { return o.vals[k] }

func (o *orderedObject) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// parseOrdered decodes JSON into *orderedObject, []any, string, json.Number, bool
// and nil. A repeated key keeps its first place and its last value, as JSON.parse.
func parseOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &orderedObject{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(kt.(string), v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// stringifyJS is JSON.stringify(v, null, indent): JavaScript's layout, escapes and
// number forms.
func stringifyJS(v any, indent int) string {
	var b strings.Builder
	writeJS(&b, v, strings.Repeat(" ", indent), "")
	return b.String()
}

func writeJS(b *strings.Builder, v any, step, at string) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case string:
		writeJSString(b, t)
	case json.Number:
		b.WriteString(jsNumber(t))
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range t {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(at + step)
			writeJS(b, e, step, at+step)
		}
		b.WriteString("\n" + at + "]")
	case *orderedObject:
		if len(t.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range t.keys {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(at + step)
			writeJSString(b, k)
			b.WriteString(": ")
			writeJS(b, t.vals[k], step, at+step)
		}
		b.WriteString("\n" + at + "}")
	}
}

// writeJSString escapes as JSON.stringify: quote, backslash and control
// characters only.
func writeJSString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// jsNumber is a number as JavaScript prints it: 1.0 is 1, 1e2 is 100.
func jsNumber(n json.Number) string {
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return string(n)
	}
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		s := strconv.FormatFloat(f, 'g', -1, 64)
		s = strings.Replace(s, "e+0", "e+", 1)
		return strings.Replace(strings.Replace(s, "e-0", "e-", 1), "e+", "e+", 1)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
