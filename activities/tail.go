package activities

import (
	"os"
	"strings"
	"sync"
)

// tailBytes is how much of a running command's output its heartbeat carries.
const tailBytes = 512

// tailer reads the end of a growing output file for progress heartbeats, without
// holding the output in memory.
type tailer struct {
	mu   sync.Mutex
	path string
}

func (t *tailer) follow(path string) {
	t.mu.Lock()
	t.path = path
	t.mu.Unlock()
}

// Progress is the heartbeat detail of a running tool: which call it is and, for a
// command, the last line it printed and how much it printed. `starter run` reads it
// from the pending activities to show live progress.
type Progress struct {
	ToolUseID string `json:"tool_use_id,omitempty"`
	LastLine  string `json:"last_line,omitempty"`
	Bytes     int64  `json:"bytes,omitempty"`
}

func (t *tailer) progress() Progress {
	t.mu.Lock()
	path := t.path
	t.mu.Unlock()
	if path == "" {
		return Progress{}
	}
	f, err := os.Open(path)
	if err != nil {
		return Progress{}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Progress{}
	}
	off := max(st.Size()-tailBytes, 0)
	buf := make([]byte, st.Size()-off)
	n, _ := f.ReadAt(buf, off)
	if n == 0 {
		return Progress{Bytes: st.Size()}
	}
	text := strings.TrimRight(strings.ToValidUTF8(string(buf[:n]), ""), "\n")
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	}
	return Progress{LastLine: text, Bytes: st.Size()}
}
