package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParsesTheSDKsArguments parses the arguments the Claude Agent SDK 0.3.328
// passed to Claude Code in every recorded scenario (test/claudesdk's protocol
// fixtures): each is accepted without a warning.
func TestParsesTheSDKsArguments(t *testing.T) {
	files, err := filepath.Glob("../../test/claudesdk/testdata/claude-code-2.1.328/protocol/*.args")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded arguments: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		var warn bytes.Buffer
		o, err := parseArgs(args, &warn)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if warn.Len() > 0 {
			t.Errorf("%s: warned %q", filepath.Base(f), warn.String())
		}
		if o.inputFormat != "stream-json" || o.outputFormat != "stream-json" || !o.verbose {
			t.Errorf("%s: %+v", filepath.Base(f), o)
		}
	}
}

// TestFlagsAcceptedWarnedOrRefused: options Claude Code has that change nothing
// here are accepted with one warning; those whose meaning toolpipe-claude cannot
// honour are refused saying why; unknown ones are refused as Claude Code does;
// combinations Claude Code refuses are refused in its words.
func TestFlagsAcceptedWarnedOrRefused(t *testing.T) {
	cases := []struct {
		args      []string
		err, warn string
	}{
		{args: []string{"-p", "hi", "--output-format", "json", "--max-turns", "3", "--allowedTools", "Read,Bash(git diff *)"}},
		{args: []string{"-p", "hi", "--effort", "high"}, warn: "--effort is ignored"},
		{args: []string{"-p", "hi", "--betas", "a", "b"}, warn: "--betas is ignored"},
		{args: []string{"-p", "hi", "--json-schema", "{}"}, err: "--json-schema is not supported"},
		{args: []string{"-p", "hi", "--initialize-fields", "settings"}, err: "--initialize-fields is not supported"},
		{args: []string{"-p", "hi", "--frobnicate"}, err: "unknown option '--frobnicate'"},
		{args: []string{"-p", "hi", "--output-format", "stream-json"}, err: "requires --verbose"},
		{args: []string{"--input-format", "stream-json", "--output-format", "json", "-p"}, err: "requires output-format=stream-json"},
		{args: []string{"hi"}, err: "the interactive mode is not supported"},
		{args: []string{"-p", "hi", "--permission-prompt-tool", "mcp__x__y"}, err: "answer permission prompts with the SDK's canUseTool"},
		{args: []string{"-p", "hi", "--fork-session"}, err: "--fork-session requires --resume"},
	}
	for _, c := range cases {
		var warn bytes.Buffer
		_, err := parseArgs(c.args, &warn)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: error %v, want one with %q", c.args, err, c.err)
		case c.warn != "" && !strings.Contains(warn.String(), c.warn):
			t.Errorf("%v: warned %q, want %q", c.args, warn.String(), c.warn)
		case c.warn == "" && c.err == "" && warn.Len() > 0:
			t.Errorf("%v: warned %q", c.args, warn.String())
		}
	}
}
