package filesearch

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// outLine is one line of a file an engine reports in content mode: a matching
// line (with its matched parts, for -o) or a context line.
type outLine struct {
	num   int
	text  string
	match bool
	subs  []string
}

// collector receives what an engine finds, hides what the deny rules cover,
// renders content lines, and keeps only the page that will be shown.
type collector struct {
	req      GrepRequest
	explicit bool // the search path is a file: rg shows no file name then
	w        io.Writer

	total   int // lines (content), entries (count, files) before paging
	shown   int
	matches int // count mode: occurrences in all files
	newest  *oldest

	lastFile string
	lastNum  int
	pending  []outLine // an explicit file's lines, until its end says binary or not
}

func newCollector(req GrepRequest, explicit bool, w io.Writer) *collector {
	c := &collector{req: req, explicit: explicit, w: w}
	if req.Mode == ModeFiles {
		n := req.Offset + req.HeadLimit
		if req.HeadLimit == 0 {
			n = int(^uint(0) >> 1)
		}
		c.newest = newOldest(n)
	}
	return c
}

func (c *collector) hidden(abs string) bool { return c.req.Hide != nil && c.req.Hide(abs) }

// full reports that the page is complete and known to be truncated, so the search
// can stop: content mode prints no total, unlike the count and files modes.
func (c *collector) full() bool {
	return c.req.Mode == ModeContent && c.req.HeadLimit > 0 && c.total > c.req.Offset+c.req.HeadLimit
}

// emit pages one output line (content and count modes).
func (c *collector) emit(s string) {
	i := c.total
	c.total++
	if i < c.req.Offset || c.req.HeadLimit > 0 && i >= c.req.Offset+c.req.HeadLimit {
		return
	}
	if c.shown > 0 {
		io.WriteString(c.w, "\n")
	}
	c.shown++
	io.WriteString(c.w, s)
}

// file reports a file with a match (files mode). Files are listed newest first.
func (c *collector) file(abs string) {
	if c.hidden(abs) {
		return
	}
	var mtime int64
	if st, err := os.Stat(abs); err == nil {
		mtime = st.ModTime().UnixNano()
	}
	c.total++
	c.newest.add(-mtime, Display(c.req.Workdir, abs))
}

// count reports a file's number of matching lines (count mode).
func (c *collector) count(abs string, n int) {
	if c.hidden(abs) || n == 0 {
		return
	}
	c.matches += n
	c.emit(fmt.Sprintf("%s:%d", Display(c.req.Workdir, abs), n))
}

// line reports a line of a file (content mode), in file order.
func (c *collector) line(abs string, l outLine) {
	if c.hidden(abs) {
		return
	}
	if c.explicit {
		c.pending = append(c.pending, l)
		return
	}
	c.render(abs, l)
}

// end reports that a file is done; binaryAt is where a NUL byte was seen, or -1.
func (c *collector) end(abs string, binaryAt int64) {
	if !c.explicit || c.hidden(abs) {
		return
	}
	lines := c.pending
	c.pending = nil
	if binaryAt >= 0 && len(lines) > 0 {
		c.emit(fmt.Sprintf("binary file matches (found \"\\0\" byte around offset %d)", binaryAt))
		return
	}
	for _, l := range lines {
		c.render(abs, l)
	}
}

// render prints a line as rg does: file name (not for an explicit file), line
// number, ':' for a match and '-' for context, and "--" between groups that are
// not adjacent when context was asked for.
func (c *collector) render(abs string, l outLine) {
	context := c.req.Before > 0 || c.req.After > 0
	if context && c.lastFile != "" && (abs != c.lastFile || l.num > c.lastNum+1) {
		c.emit("--")
	}
	texts := []string{l.text}
	if l.match && c.req.OnlyMatching {
		texts = l.subs
	}
	sep := "-"
	if l.match {
		sep = ":"
	}
	prefix := ""
	if !c.explicit {
		prefix = Display(c.req.Workdir, abs) + sep
	}
	num := l.num
	for _, t := range texts {
		// A multiline match spans lines: each is printed with its own number.
		parts := strings.Split(strings.TrimSuffix(t, "\n"), "\n")
		for i, p := range parts {
			// A CRLF file's lines end in "\r", which Claude Code strips from what it
			// prints (a "$" in the pattern still does not match before it).
			p = strings.TrimSuffix(p, "\r")
			n := num
			if !c.req.OnlyMatching || len(parts) > 1 {
				n = num + i
			}
			if len(p) > maxColumns {
				p = "[Omitted long context line]"
				if l.match {
					p = "[Omitted long matching line]"
				}
			}
			if c.req.LineNumbers {
				c.emit(fmt.Sprintf("%s%d%s%s", prefix, n, sep, p))
			} else {
				c.emit(prefix + p)
			}
			c.lastNum = n
		}
	}
	c.lastFile = abs
}

// finish writes what Claude Code writes around the page.
func (c *collector) finish() error {
	note := pagination(c.req.HeadLimit, c.req.Offset, c.total)
	past := c.total > 0 && c.req.Offset >= c.total // the page is empty, the search was not
	var err error
	switch c.req.Mode {
	case ModeFiles:
		if past {
			_, err = fmt.Fprintf(c.w, "No entries at this offset. [Showing results with pagination = %s]", note)
			return err
		}
		if c.total == 0 {
			_, err = io.WriteString(c.w, "No files found")
			return err
		}
		files := c.newest.sorted()[c.req.Offset:]
		fmt.Fprintf(c.w, "Found %d %s", len(files), plural(len(files), "file", "files"))
		if note != "" {
			fmt.Fprintf(c.w, " %s", note)
		}
		_, err = fmt.Fprintf(c.w, "\n%s", strings.Join(files, "\n"))
	case ModeContent:
		switch {
		case past:
			_, err = fmt.Fprintf(c.w, "No entries at this offset\n\n[Showing results with pagination = %s]", note)
		case c.total == 0:
			_, err = io.WriteString(c.w, "No matches found")
		case note != "":
			_, err = fmt.Fprintf(c.w, "\n\n[Showing results with pagination = %s]", note)
		}
	case ModeCount:
		switch {
		case past:
			io.WriteString(c.w, "No entries at this offset")
		case c.total == 0:
			io.WriteString(c.w, "No matches found")
		}
		_, err = fmt.Fprintf(c.w, "\n\nFound %d total %s across %d %s.", c.matches, plural(c.matches, "occurrence", "occurrences"),
			c.total, plural(c.total, "file", "files"))
		if note != "" {
			_, err = fmt.Fprintf(c.w, " with pagination = %s", note)
		}
	}
	return err
}
