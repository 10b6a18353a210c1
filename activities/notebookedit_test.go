package activities

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// notebookV45 has cell ids (nbformat 4.5); a float written 1.0 and a key order
// that is not alphabetical, which a rewrite must keep.
const notebookV45 = `{
 "metadata": {"language_info": {"name": "python"}, "scale": 1.0},
 "cells": [
  {"id": "a", "cell_type": "markdown", "metadata": {}, "source": ["# T\n", "x"]},
  {"id": "b", "cell_type": "code", "execution_count": 4, "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}], "source": "print(1)"}
 ],
 "nbformat": 4,
 "nbformat_minor": 5
}`

func runNotebookEdit(t *testing.T, a *Activities, c tool.Call) tool.Output {
	t.Helper()
	d, ok := a.Registry().Lookup(NotebookEditName)
	if !ok {
		t.Fatal("the worker's registry has no NotebookEdit")
	}
	out, err := d.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func notebookCells(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct{ Cells []map[string]any }
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("the notebook written is not JSON: %v\n%s", err, b)
	}
	return nb.Cells
}

// TestNotebookEdit: replace clears a code cell's outputs, insert goes after the
// cell named (with an id derived from the call, the same on a retry), delete
// removes; the file keeps its key order, JavaScript's number forms and its own
// ending (none here, as json.dump writes it; TestNotebookEditKeepsAFinalNewline),
// and the hook response is NotebookEditOutput.
func TestNotebookEdit(t *testing.T) {
	a := newActs(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "n.ipynb")
	reset := func() {
		if err := os.WriteFile(p, []byte(notebookV45), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	reset()
	c := call(t, NotebookEditName, dir, map[string]any{"notebook_path": p, "cell_id": "b", "new_source": "print(2)"}, p)
	c.Response = true
	out := runNotebookEdit(t, a, c)
	if out.IsError || out.Content != "Updated cell b with print(2)" {
		t.Fatalf("replace: %+v", out)
	}
	cells := notebookCells(t, p)
	if cells[1]["source"] != "print(2)" || cells[1]["execution_count"] != nil || len(cells[1]["outputs"].([]any)) != 0 {
		t.Errorf("replace: %v", cells[1])
	}
	b, _ := os.ReadFile(p)
	if !strings.HasPrefix(string(b), "{\n \"metadata\": {\n  \"language_info\"") || !strings.Contains(string(b), `"scale": 1`+"\n") || !strings.HasSuffix(string(b), "\n}") {
		t.Errorf("layout not JSON.stringify(nb, null, 1)'s:\n%s", b)
	}
	var resp notebookEditResponse
	if err := json.Unmarshal(out.Response, &resp); err != nil || resp.EditMode != "replace" || resp.CellType != "code" ||
		resp.OldSource == nil || *resp.OldSource != "print(1)" || resp.Language != "python" || resp.UpdatedFile != string(b) || resp.OriginalFile != notebookV45 {
		t.Errorf("response %s (%v)", out.Response, err)
	}

	reset()
	ins := call(t, NotebookEditName, dir, map[string]any{"notebook_path": p, "cell_id": "a", "new_source": "y = 1", "cell_type": "code", "edit_mode": "insert"}, p)
	out = runNotebookEdit(t, a, ins)
	cells = notebookCells(t, p)
	id, _ := cells[1]["id"].(string)
	if len(cells) != 3 || id == "" || cells[1]["source"] != "y = 1" || out.Content != "Inserted cell "+id+" with y = 1" {
		t.Fatalf("insert: %q, %v", out.Content, cells)
	}
	reset()
	if again := runNotebookEdit(t, a, ins); again.Content != out.Content {
		t.Errorf("a retried insert wrote another id: %q, then %q", out.Content, again.Content)
	}

	reset()
	out = runNotebookEdit(t, a, call(t, NotebookEditName, dir, map[string]any{"notebook_path": p, "cell_id": "cell-0", "new_source": "", "edit_mode": "delete"}, p))
	if cells = notebookCells(t, p); out.Content != "Deleted cell cell-0" || len(cells) != 1 || cells[0]["id"] != "b" {
		t.Errorf("delete by index: %q, %v", out.Content, cells)
	}

	reset()
	out = runNotebookEdit(t, a, call(t, NotebookEditName, dir, map[string]any{"notebook_path": p, "new_source": "top", "cell_type": "markdown", "edit_mode": "insert"}, p))
	if cells = notebookCells(t, p); out.IsError || cells[0]["source"] != "top" || cells[0]["outputs"] != nil {
		t.Errorf("insert at the start: %q, %v", out.Content, cells[0])
	}
}

// A notebook that ends with a newline keeps it (issue 41 item 4: one that had
// none was given one).
func TestNotebookEditKeepsAFinalNewline(t *testing.T) {
	a := newActs(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "n.ipynb")
	if err := os.WriteFile(p, []byte(notebookV45+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := runNotebookEdit(t, a, call(t, NotebookEditName, dir, map[string]any{"notebook_path": p, "cell_id": "b", "new_source": "print(2)"}, p)); out.IsError {
		t.Fatal(out.Content)
	}
	if b, _ := os.ReadFile(p); !strings.HasSuffix(string(b), "}\n") || strings.HasSuffix(string(b), "\n\n") {
		t.Errorf("the final newline: %q", b[len(b)-5:])
	}
}

// TestNotebookEditRefuses: each refusal in Claude Code's words, and nothing
// written.
func TestNotebookEditRefuses(t *testing.T) {
	a := newActs(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "n.ipynb")
	if err := os.WriteFile(p, []byte(notebookV45), 0o644); err != nil {
		t.Fatal(err)
	}
	txt := filepath.Join(dir, "n.txt")
	if err := os.WriteFile(txt, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   map[string]any
		read []string
		want string
	}{
		{map[string]any{"notebook_path": p, "cell_id": "b", "new_source": "z"}, nil, NotReadMessage},
		{map[string]any{"notebook_path": filepath.Join(dir, "none.ipynb"), "cell_id": "b", "new_source": "z"}, []string{filepath.Join(dir, "none.ipynb")}, "Notebook file does not exist."},
		{map[string]any{"notebook_path": txt, "cell_id": "b", "new_source": "z"}, []string{txt}, "File must be a Jupyter notebook (.ipynb file). For editing other file types, use the FileEdit tool."},
		{map[string]any{"notebook_path": p, "cell_id": "b", "new_source": "z", "edit_mode": "insert"}, []string{p}, "Cell type is required when using edit_mode=insert."},
		{map[string]any{"notebook_path": p, "new_source": "z"}, []string{p}, "Cell ID must be specified when not inserting a new cell."},
		{map[string]any{"notebook_path": p, "cell_id": "nope", "new_source": "z"}, []string{p}, `Cell with ID "nope" not found in notebook.`},
		{map[string]any{"notebook_path": p, "cell_id": "cell-9", "new_source": "z"}, []string{p}, "Cell with index 9 does not exist in notebook."},
	} {
		out := runNotebookEdit(t, a, call(t, NotebookEditName, dir, c.in, c.read...))
		if want := "<tool_use_error>" + c.want + "</tool_use_error>"; !out.IsError || out.Content != want {
			t.Errorf("%v: %q, want %q", c.in, out.Content, want)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != notebookV45 {
		t.Error("a refused edit changed the notebook")
	}
	// Edit points at NotebookEdit, as Claude Code's does.
	d, _ := a.Registry().Lookup(tool.EditName)
	out, err := d.Run(context.Background(), call(t, tool.EditName, dir, map[string]any{"file_path": p, "old_string": "print(1)", "new_string": "print(3)"}, p))
	if err != nil || out.Content != "<tool_use_error>File is a Jupyter Notebook. Use the NotebookEdit to edit this file.</tool_use_error>" {
		t.Errorf("Edit of a notebook: %q, %v", out.Content, err)
	}
}

// TestNotebookEditDeclaration: what the turn reads of the tool: Edit rules apply
// to the notebook, the UI names it, it is not safe to run beside others.
func TestNotebookEditDeclaration(t *testing.T) {
	d, ok := Builtins().Lookup(NotebookEditName)
	if !ok {
		t.Fatal("NotebookEdit is not a built-in tool")
	}
	in := json.RawMessage(`{"notebook_path":"/w/n.ipynb","cell_id":"c1","new_source":"x"}`)
	if acc := d.Access(in); acc.Kind != tool.AccessEdit || len(acc.Paths) != 1 || acc.Paths[0] != "/w/n.ipynb" {
		t.Errorf("access %+v", acc)
	}
	if got := d.Describe(in); got != "NotebookEdit(/w/n.ipynb)" {
		t.Errorf("describe %q", got)
	}
	if d.IsConcurrencySafe(in) {
		t.Error("an edit is concurrency-safe")
	}
	if err := d.ValidateInput(json.RawMessage(`{"notebook_path":"/w/n.ipynb","new_source":"x","edit_mode":"append"}`)); err == nil {
		t.Error("an edit_mode outside the enum was accepted")
	}
}
