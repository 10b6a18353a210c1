package activities

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/toolpipe/toolpipe/tool"
)

// sizeControl turns a tool's output file into the model-facing content, holding it
// under the tool's threshold so that huge outputs never enter workflow history.
func (a *Activities) sizeControl(call tool.Call, f *os.File) (tool.Output, error) {
	def, _ := tool.Lookup(call.Name)
	limit := tool.Unlimited
	if def != nil {
		limit = min(def.MaxResultSizeChars, 50_000)
	}
	st, err := f.Stat()
	if err != nil {
		return tool.Output{}, fmt.Errorf("size: %w", err)
	}
	buf := make([]byte, min(st.Size(), int64(limit)))
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return tool.Output{}, fmt.Errorf("size: read output: %w", err)
	}
	text := validUTF8Prefix(buf[:n])
	if int64(n) < st.Size() {
		text += fmt.Sprintf("\n[output truncated: %d of %d bytes shown]", len(text), st.Size())
	}
	return tool.Output{Content: text}, nil
}

// validUTF8Prefix drops a rune cut in half at the end and replaces invalid bytes,
// since results travel as JSON strings.
func validUTF8Prefix(b []byte) string {
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
		r, size := utf8.DecodeLastRune(b)
		if r != utf8.RuneError || size != 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
