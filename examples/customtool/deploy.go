package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe"
)

// deployInput is DeployPreview's input, as its schema describes it.
type deployInput struct {
	Branch string `json:"branch"`
	DryRun bool   `json:"dry_run"`
}

// DeployPreview deploys the working directory as a preview site of a branch. A dry
// run only looks, so dry runs run in parallel with other safe calls (and are retried
// after a lost worker); a real deploy runs alone and at most once. An interrupt lets
// a deploy finish (a half-done deploy is worse than a late one). Its build log can be
// long: over 4,000 characters the model gets a preview and the log's path.
var DeployPreview = toolpipe.MustTool(toolpipe.ToolSpec{
	Name: "DeployPreview",
	Description: "Deploys the working directory as a preview site for a git branch and returns its URL. " +
		"Use dry_run first to see what would be deployed.",
	InputSchema: json.RawMessage(`{
	  "type": "object",
	  "properties": {
	    "branch":  {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,39}$", "description": "the branch, lower-case"},
	    "dry_run": {"type": "boolean", "description": "list what would be deployed, deploy nothing"}
	  },
	  "required": ["branch"],
	  "additionalProperties": false
	}`),
	IsConcurrencySafe: func(input json.RawMessage) bool {
		var in deployInput
		return json.Unmarshal(input, &in) == nil && in.DryRun
	},
	Interrupt:          toolpipe.InterruptBlock,
	MaxResultSizeChars: 4_000,
	Run:                deploy,
})

// deploy "publishes" the working directory under .previews/<branch>/ and returns the
// URL and the build log.
func deploy(ctx context.Context, call toolpipe.Call) (toolpipe.Result, error) {
	var in deployInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return toolpipe.Result{}, err
	}
	files, err := siteFiles(call.Workdir)
	if err != nil {
		return toolpipe.Result{Content: "cannot list the site: " + err.Error(), IsError: true}, nil
	}
	if len(files) == 0 {
		return toolpipe.Result{Content: "nothing to deploy: the working directory has no files", IsError: true}, nil
	}
	if in.DryRun {
		return toolpipe.Result{Content: fmt.Sprintf("would deploy %s for %s: %s", plural(len(files), "file"), in.Branch, strings.Join(files, ", "))}, nil
	}
	dest := filepath.Join(call.Workdir, ".previews", in.Branch)
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return toolpipe.Result{}, err
	}
	url := "https://" + in.Branch + ".preview.example"
	var log strings.Builder
	fmt.Fprintf(&log, "deployed %s to %s\n", in.Branch, url)
	for _, f := range files {
		if err := ctx.Err(); err != nil { // cancelled: stop between files
			return toolpipe.Result{}, err
		}
		b, err := os.ReadFile(filepath.Join(call.Workdir, f))
		if err != nil {
			return toolpipe.Result{}, err
		}
		if err := os.WriteFile(filepath.Join(dest, filepath.Base(f)), b, 0o644); err != nil {
			return toolpipe.Result{}, err
		}
		for step := range 60 {
			fmt.Fprintf(&log, "[build] %s: step %02d ok (%d bytes)\n", f, step, len(b))
		}
	}
	fmt.Fprintf(&log, "done at %s\n", time.Now().UTC().Format(time.RFC3339))
	return toolpipe.Result{Content: log.String()}, nil
}

// siteFiles lists the regular files at the top of dir, hidden ones left out.
func siteFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			files = append(files, e.Name())
		}
	}
	return files, nil
}

// plural is "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
