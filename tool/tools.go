package tool

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
)

// The tool names of SPEC §6 (Claude Code's).
const (
	BashName     = "Bash"
	ReadName     = "Read"
	WriteName    = "Write"
	EditName     = "Edit"
	GlobName     = "Glob"
	GrepName     = "Grep"
	WebFetchName = "WebFetch"
)

// Bash timeouts of SPEC §6, in milliseconds.
const (
	BashDefaultTimeoutMs = 120_000
	BashMaxTimeoutMs     = 600_000
)

// always is ReadOnly for tools that never change anything.
func always(json.RawMessage) bool { return true }

var registry = map[string]*Definition{
	BashName: {
		Name: BashName, MaxResultSizeChars: 30_000, Interrupt: InterruptCancel,
		ReadOnly: func(in json.RawMessage) bool {
			var b BashInput
			return json.Unmarshal(in, &b) == nil && IsReadOnlyBash(b.Command)
		},
		schema: mustCompile(BashName, bashSchema),
	},
	ReadName: {
		Name: ReadName, MaxResultSizeChars: Unlimited, Interrupt: InterruptCancel,
		ReadOnly: always, Check: checkRead, schema: mustCompile(ReadName, readSchema),
	},
	WriteName: {
		Name: WriteName, MaxResultSizeChars: 100_000, Interrupt: InterruptBlock,
		Check: checkAbsolute, schema: mustCompile(WriteName, writeSchema),
	},
	EditName: {
		Name: EditName, MaxResultSizeChars: 100_000, Interrupt: InterruptBlock,
		Check: checkEdit, schema: mustCompile(EditName, editSchema),
	},
	GlobName: {
		Name: GlobName, MaxResultSizeChars: 100_000, Interrupt: InterruptCancel,
		ReadOnly: always, schema: mustCompile(GlobName, globSchema),
	},
	GrepName: {
		Name: GrepName, MaxResultSizeChars: 20_000, Interrupt: InterruptCancel,
		ReadOnly: always, schema: mustCompile(GrepName, grepSchema),
	},
	WebFetchName: {
		Name: WebFetchName, MaxResultSizeChars: 100_000, Interrupt: InterruptCancel,
		ReadOnly: always, Check: checkURL, schema: mustCompile(WebFetchName, webFetchSchema),
	},
}

// Lookup finds a tool by its exact (case-sensitive) name.
func Lookup(name string) (*Definition, bool) {
	d, ok := registry[name]
	return d, ok
}

// Names lists the known tools, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func checkRead(in json.RawMessage) error {
	var r ReadInput
	if err := json.Unmarshal(in, &r); err != nil {
		return err
	}
	return absolute(r.FilePath)
}

func checkAbsolute(in json.RawMessage) error {
	var w struct {
		FilePath string `json:"file_path"`
	}
	if err := json.Unmarshal(in, &w); err != nil {
		return err
	}
	return absolute(w.FilePath)
}

func checkEdit(in json.RawMessage) error {
	var e EditInput
	if err := json.Unmarshal(in, &e); err != nil {
		return err
	}
	if e.OldString == e.NewString {
		return fmt.Errorf("old_string and new_string are the same; there is nothing to change")
	}
	return absolute(e.FilePath)
}

func checkURL(in json.RawMessage) error {
	var w WebFetchInput
	if err := json.Unmarshal(in, &w); err != nil {
		return err
	}
	u, err := url.Parse(w.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url %q is not an absolute http or https URL", w.URL)
	}
	return nil
}

func absolute(p string) error {
	if !filepath.IsAbs(p) {
		return fmt.Errorf("file_path %q must be an absolute path", p)
	}
	return nil
}
