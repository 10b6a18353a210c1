package tool

import (
	"encoding/json"
	"testing"
)

// TaskCreate takes a call without description, as Claude Code 2.1.328 does
// (issue 41 item 3), and still refuses one without subject.
func TestTaskCreateWithoutDescription(t *testing.T) {
	d, err := Compile(TaskCreate{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.ValidateInput(json.RawMessage(`{"subject":"Ship"}`)); err != nil {
		t.Errorf("without description: %v", err)
	}
	if err := d.ValidateInput(json.RawMessage(`{"description":"x"}`)); err == nil {
		t.Error("without subject: accepted")
	}
	var l TaskList
	if text, isErr, _ := l.create(json.RawMessage(`{"subject":"Ship"}`)); isErr || text != "Task #1 created successfully: Ship" {
		t.Errorf("create: %q %v", text, isErr)
	}
}
