package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// resultOnly is stdout for --output-format json and text: of the stream, only the
// last result is kept, and printed when the prompt has been answered.
type resultOnly struct {
	mu   sync.Mutex
	last []byte
}

func (r *resultOnly) Write(p []byte) (int, error) {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(bytes.TrimSpace(p), &head) == nil && head.Type == "result" {
		r.mu.Lock()
		r.last = bytes.TrimSpace(append([]byte(nil), p...))
		r.mu.Unlock()
	}
	return len(p), nil
}

// print writes the result as Claude Code's -p does: the result object (json) or
// its text (text; an error's text on stderr); the status is 1 for a result that is
// an error.
func (r *resultOnly) print(stdout io.Writer, format string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		return 1
	}
	var res struct {
		IsError bool     `json:"is_error"`
		Result  string   `json:"result"`
		Errors  []string `json:"errors"`
		Subtype string   `json:"subtype"`
	}
	_ = json.Unmarshal(r.last, &res)
	if format == "json" {
		fmt.Fprintf(stdout, "%s\n", r.last)
	} else if res.Result != "" || !res.IsError {
		fmt.Fprintln(stdout, res.Result)
	} else {
		fmt.Fprintln(stdout, "Error: "+strings.Join(res.Errors, "; "))
	}
	if res.IsError {
		return 1
	}
	return 0
}
