package activities

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolpipe/toolpipe/internal/preview"
	"github.com/toolpipe/toolpipe/tool"
)

// Read of a Jupyter notebook shows its cells as Claude Code 2.1.328 does: each
// cell between <cell id="…"> tags (a non-code cell with its <cell_type>, a code
// cell in another language than Python with its <language>), each output after
// it; offset and limit do not apply. Image outputs, which Claude Code sends as
// image blocks, are named instead: toolpipe's results are text.

const (
	// notebookMaxBytes is the largest notebook Read parses (Claude Code's).
	notebookMaxBytes = 100 << 20
	// notebookMaxOutputChars: a cell's outputs over this are replaced by how to
	// read them with jq.
	notebookMaxOutputChars = 10_000
)

const notebookInvalid = `Notebook file is not a valid Jupyter notebook (top-level "cells" must be an array of cell objects, each with a string or string-array "source").`

func isNotebook(path string) bool { return strings.EqualFold(filepath.Ext(path), ".ipynb") }

type notebook struct {
	Cells    []json.RawMessage `json:"cells"`
	Metadata struct {
		LanguageInfo struct {
			Name string `json:"name"`
		} `json:"language_info"`
	} `json:"metadata"`
}

type notebookCell struct {
	ID       *string          `json:"id"`
	CellType string           `json:"cell_type"`
	Source   json.RawMessage  `json:"source"`
	Outputs  []notebookOutput `json:"outputs"`
}

type notebookOutput struct {
	OutputType string                     `json:"output_type"`
	Text       json.RawMessage            `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	Ename      string                     `json:"ename"`
	Evalue     string                     `json:"evalue"`
	Traceback  []string                   `json:"traceback"`
}

// readNotebook renders the notebook at path.
func readNotebook(path string, st fs.FileInfo) (tool.Output, error) {
	if st.Size() > notebookMaxBytes {
		return errorOutput("Notebook file exceeds the maximum size this tool can read (%s). %s", preview.FormatSize(notebookMaxBytes), notebookJQHint)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return errorOutput("%v", err)
	}
	var nb notebook
	if err := json.Unmarshal(data, &nb); err != nil {
		return errorOutput("Notebook file is not valid JSON (it may be truncated, corrupted, or still being written): %v", err)
	}
	if nb.Cells == nil {
		return errorOutput("%s", notebookInvalid)
	}
	lang := nb.Metadata.LanguageInfo.Name
	if lang == "" {
		lang = "python"
	}
	var parts []string
	for i, raw := range nb.Cells {
		var c notebookCell
		src, ok := "", json.Unmarshal(raw, &c) == nil && len(c.Source) > 0
		if ok {
			src, ok = joinSource(c.Source)
		}
		if !ok {
			return errorOutput("%s", notebookInvalid)
		}
		parts = append(parts, renderCell(c, i, lang, src)...)
	}
	text := strings.Join(parts, "\n")
	if text == "" {
		text = "(Read completed with no output)" // a notebook without cells
	}
	if tokens := estimateTokens(text); tokens > readMaxTokens {
		return errorOutput("File content (%d tokens) exceeds maximum allowed tokens (%d). %s", tokens, readMaxTokens, notebookJQHint)
	}
	return tool.Output{Content: text, Modifier: &tool.Modifier{ReadFiles: []string{path}}}, nil
}

// notebookJQHint is how to read part of a notebook.
const notebookJQHint = `Use Bash with jq to read specific portions:
  cat <notebook_path> | jq '.cells[:20]' # First 20 cells
  cat <notebook_path> | jq '.cells[100:120]' # Cells 100-120
  cat <notebook_path> | jq '.cells | length' # Count total cells
  cat <notebook_path> | jq '.cells[] | select(.cell_type=="code") | .source' # All code sources`

// renderCell is the cell and its outputs, each a text part.
func renderCell(c notebookCell, i int, lang, src string) []string {
	id := fmt.Sprintf("cell-%d", i)
	if c.ID != nil {
		id = *c.ID
	}
	var head string
	switch {
	case c.CellType != "code":
		head = "<cell_type>" + c.CellType + "</cell_type>"
	case lang != "python":
		head = "<language>" + lang + "</language>"
	}
	parts := []string{fmt.Sprintf(`<cell id="%s">%s%s</cell id="%s">`, id, head, src, id)}
	if c.CellType != "code" || len(c.Outputs) == 0 {
		return parts
	}
	var outs []string
	size, unknown := 0, false
	for _, o := range c.Outputs {
		text, image, known := renderOutput(o)
		if !known {
			unknown = true
			continue
		}
		size += len([]rune(text)) + image
		if text != "" {
			outs = append(outs, "\n"+text)
		}
		if image > 0 {
			outs = append(outs, "[image output not shown: toolpipe's tool results are text]")
		}
	}
	if size > notebookMaxOutputChars {
		outs = []string{fmt.Sprintf("\nOutputs are too large to include. Use Bash with: cat <notebook_path> | jq '.cells[%d].outputs'", i)}
	}
	parts = append(parts, outs...)
	if unknown {
		parts = append(parts, "\nOutputs of an unknown type are not shown.")
	}
	return parts
}

// renderOutput is an output's text and the size of its image data, or false for
// an output type notebooks do not have.
func renderOutput(o notebookOutput) (text string, image int, known bool) {
	switch o.OutputType {
	case "stream":
		text, _ = joinSource(o.Text)
	case "execute_result", "display_data":
		text, _ = joinSource(o.Data["text/plain"])
		for _, mt := range []string{"image/png", "image/jpeg"} {
			var img string
			if json.Unmarshal(o.Data[mt], &img) == nil && img != "" {
				image = len(strings.Join(strings.Fields(img), ""))
				break
			}
		}
	case "error":
		text = o.Ename + ": " + o.Evalue + "\n" + strings.Join(o.Traceback, "\n")
	default:
		return "", 0, false
	}
	return text, image, true
}

// joinSource reads a notebook string: a string or an array of strings; absent
// is empty.
func joinSource(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var lines []string
	if json.Unmarshal(raw, &lines) == nil {
		return strings.Join(lines, ""), true
	}
	return "", false
}
