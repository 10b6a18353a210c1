package parity

import (
	"regexp"
	"testing"
)

// NotebookEdit (issue 25, item 2): replace, insert and delete of cells, cell ids
// and cell-N indexes, and the errors, against Claude Code's own tool. Each case
// Reads the notebook first, as Claude Code requires before an edit.

// nbRead is the Read that comes before an edit.
const nbRead = `{"file_path":"$D/n.ipynb"}`

var nb = map[string]string{"n.ipynb": "notebooks/basic.ipynb"}
var nbNoIDs = map[string]string{"n.ipynb": "notebooks/no_ids.ipynb"}

// diffEnum: a value outside a parameter's enum.
const diffEnum = "a value outside an enum: Claude Code 2.1.328 shows zod's issue list as JSON; toolpipe words it as every other schema failure"

// diffCellID: the id of an inserted cell.
const diffCellID = "an inserted cell's id (nbformat 4.5): Claude Code picks a random one; toolpipe derives it from the tool_use id, so that a retried call writes the same notebook"

// insertedWithID checks the result of an insert into a notebook with cell ids:
// "Inserted cell ID with SOURCE", the id 1-13 letters and digits.
func insertedWithID(source string) func(result) string {
	re := regexp.MustCompile(`^Inserted cell [0-9a-z]{1,13} with ` + regexp.QuoteMeta(source) + `$`)
	return func(r result) string {
		if r.IsError || !re.MatchString(r.Content) {
			return "want " + re.String()
		}
		return ""
	}
}

var notebookCases = []parityCase{
	{name: "nb_replace", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"calc","new_source":"x = 40 + 2\nprint(x)"}`)}},
	{name: "nb_replace_markdown", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"intro","new_source":"# New title"}`)}},
	{name: "nb_replace_type", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"res","new_source":"*done*","cell_type":"markdown"}`)}},
	{name: "nb_replace_index", fixtures: nbNoIDs, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"cell-1","new_source":"More notes"}`)}},
	{name: "nb_insert_after", fixtures: nbNoIDs, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"cell-0","new_source":"b = 2","cell_type":"code","edit_mode":"insert"}`)}},
	{name: "nb_insert_start", fixtures: nbNoIDs, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","new_source":"# Top","cell_type":"markdown","edit_mode":"insert"}`)}},
	{name: "nb_insert_no_type", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"intro","new_source":"y","edit_mode":"insert"}`)}},
	{name: "nb_delete", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"res","new_source":"","edit_mode":"delete"}`)}},
	{name: "nb_delete_index", fixtures: nbNoIDs, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"cell-0","new_source":"","edit_mode":"delete"}`)}},
	{name: "nb_missing_cell", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"nope","new_source":"z"}`)}},
	{name: "nb_index_out", fixtures: nbNoIDs, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"cell-7","new_source":"z"}`)}},
	{name: "nb_no_cell_id", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","new_source":"z"}`)}},
	{name: "nb_not_read", fixtures: nb, blocks: []caseBlock{
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"calc","new_source":"z"}`)}},
	{name: "nb_missing_file", blocks: []caseBlock{
		blk("NotebookEdit", `{"notebook_path":"$D/none.ipynb","cell_id":"a","new_source":"z"}`)}},
	{name: "nb_not_notebook", files: map[string]string{"n.txt": "text\n"}, blocks: []caseBlock{blk("Read", `{"file_path":"$D/n.txt"}`),
		blk("NotebookEdit", `{"notebook_path":"$D/n.txt","cell_id":"a","new_source":"z"}`)}},
	{name: "nb_bad_json", files: map[string]string{"n.ipynb": "{not json"}, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"a","new_source":"z"}`)},
		differs: diffJSONParser, want: map[int]func(result) string{
			0: isErrorWith("Notebook file is not valid JSON (it may be truncated, corrupted, or still being written): invalid character")}},
	{name: "nb_bad_mode", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"calc","new_source":"z","edit_mode":"append"}`)},
		differs: diffEnum, want: map[int]func(result) string{
			1: isErrorWith("<tool_use_error>InputValidationError: NotebookEdit failed due to the following issue:\nThe parameter `edit_mode` is invalid: value must be one of 'replace', 'insert', 'delete'</tool_use_error>")}},
	{name: "nb_insert_ids", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"calc","new_source":"c = 3","cell_type":"code","edit_mode":"insert"}`)},
		differs: diffCellID, want: map[int]func(result) string{1: insertedWithID("c = 3")}},
	{name: "nb_no_source", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"calc"}`)}},
	{name: "nb_edit_notebook", fixtures: nb, blocks: []caseBlock{blk("Read", nbRead),
		blk("Edit", `{"file_path":"$D/n.ipynb","old_string":"x * 2","new_string":"x * 3"}`)}},
	// Issue 41 item 4: a notebook without a final newline (Python's json.dump
	// writes it so) keeps its ending.
	{name: "nb_no_final_newline", files: map[string]string{"n.ipynb": nbNoFinalNewline}, blocks: []caseBlock{blk("Read", nbRead),
		blk("NotebookEdit", `{"notebook_path":"$D/n.ipynb","cell_id":"c1","new_source":"print(2)"}`)}},
}

// nbNoFinalNewline is a notebook as json.dump(nb, f, indent=2) writes it.
const nbNoFinalNewline = `{
  "cells": [
    {
      "cell_type": "code",
      "execution_count": 1,
      "id": "c1",
      "metadata": {},
      "outputs": [],
      "source": [
        "print(1)"
      ]
    }
  ],
  "metadata": {
    "language_info": {
      "name": "python"
    }
  },
  "nbformat": 4,
  "nbformat_minor": 5
}`

// TestParityNotebookEdit compares NotebookEdit's results and the notebooks it
// leaves (cases_notebook_test.go).
func TestParityNotebookEdit(t *testing.T) {
	compare(t, "notebook", notebookCases, "--tools", "Bash,Read,Write,Edit,Glob,Grep,WebFetch,TaskStop,NotebookEdit")
}
