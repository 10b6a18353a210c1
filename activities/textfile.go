package activities

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Text files as Claude Code 2.1.328's file tools read and write them. A file is
// UTF-16LE when it starts with FF FE, UTF-8 otherwise (a UTF-8 byte-order mark is
// kept as the text's first character). Edit matches in the text with CRLF read as
// LF and writes the file back in its own encoding, byte-order mark and line
// endings; Write keeps the encoding and the mark. Files Edit and Write cannot
// write back faithfully are refused (notText): UTF-16BE, NUL bytes in the first
// 8 KB, invalid UTF-8.

// Why a file is not text the tools can write back.
const (
	notUTF8 = "not_utf8"
	hasNUL  = "nul"
	utf16BE = "utf16be"
)

// notTextWhat says what a file is, for the messages below (Claude Code's words).
var notTextWhat = map[string]string{
	notUTF8: "is not valid UTF-8: it uses a legacy encoding such as Windows-1252, Shift-JIS or GBK, or it is binary",
	hasNUL:  "has NUL bytes in its first 8 KB: binary data, UTF-16/UTF-32 without a byte-order mark, or text with embedded NULs",
	utf16BE: "is UTF-16 big-endian (it starts FE FF), which these tools cannot write",
}

// notTextRefusal is Edit's and Write's answer for such a file.
func notTextRefusal(kind string) string {
	return "File " + notTextWhat[kind] + ". These tools write UTF-8 (or UTF-16LE behind its byte-order mark) and never convert a file's encoding on their own, so nothing was written. If the file is text, make the change with a shell command that reads and writes it in its own encoding (iconv, or PowerShell Get-Content/Set-Content -Encoding), or ask the user whether to convert it to UTF-8 first. To replace the whole file with new UTF-8 text anyway, delete it first, then Write it."
}

// notTextNote ends Read's result for such a file.
func notTextNote(kind string) string {
	shown := ""
	if kind == notUTF8 {
		shown = " Its undecodable bytes show above as U+FFFD."
	}
	return "\n\n[This file " + notTextWhat[kind] + "." + shown + " Edit and Write will refuse it: change it with a shell command that keeps its encoding, or ask the user whether to convert it to UTF-8.]"
}

// isUTF16LE: the file starts with UTF-16LE's byte-order mark.
func isUTF16LE(head []byte) bool { return len(head) >= 2 && head[0] == 0xFF && head[1] == 0xFE }

// notTextKind is why a file that is not UTF-16LE is not writable text, or "".
func notTextKind(b []byte) string {
	switch {
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return utf16BE
	case bytes.IndexByte(b[:min(len(b), binarySniffBytes)], 0) >= 0:
		return hasNUL
	case !utf8.Valid(b):
		return notUTF8
	}
	return ""
}

// textFile is a file's content as Edit and Write see it.
type textFile struct {
	// text is the content, CRLF read as LF, a byte-order mark as U+FEFF.
	text    string
	utf16   bool   // written back as UTF-16LE
	crlf    bool   // written back with CRLF line ends
	notText string // why it cannot be written back, or ""
}

// decodeText reads b as Claude Code does.
func decodeText(b []byte) textFile {
	var f textFile
	if isUTF16LE(b) {
		f.utf16 = true
		f.text = decodeUTF16LE(b)
	} else {
		f.notText = notTextKind(b)
		f.text = lossyUTF8(b)
	}
	f.crlf = mostlyCRLF(f.text[:prefixLen(f.text, 4096)])
	f.text = strings.ReplaceAll(f.text, "\r\n", "\n")
	return f
}

// encode is text written back as the file was: its line ends and encoding.
func (f textFile) encode(text string) []byte {
	if f.crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	return f.encodeAs(text)
}

// encodeAs is text in the file's encoding, line ends as they are.
func (f textFile) encodeAs(text string) []byte {
	if !f.utf16 {
		return []byte(text)
	}
	units := utf16.Encode([]rune(text))
	out := make([]byte, 2*len(units))
	for i, u := range units {
		out[2*i], out[2*i+1] = byte(u), byte(u>>8)
	}
	return out
}

// keepBOM puts the old text's byte-order mark back in front of a non-empty new
// text that lacks it, as Claude Code does when it writes.
func keepBOM(old, text string) string {
	if text != "" && strings.HasPrefix(old, "\uFEFF") && !strings.HasPrefix(text, "\uFEFF") {
		return "\uFEFF" + text
	}
	return text
}

// mostlyCRLF: more line ends in s are CRLF than LF alone.
func mostlyCRLF(s string) bool {
	crlf, lf := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			if i > 0 && s[i-1] == '\r' {
				crlf++
			} else {
				lf++
			}
		}
	}
	return crlf > lf
}

// prefixLen is the byte length of s's first n UTF-16 code units (JavaScript's
// slice(0, n)), at a character boundary.
func prefixLen(s string, n int) int {
	units := 0
	for i, r := range s {
		if units >= n {
			return i
		}
		units += utf16.RuneLen(r)
	}
	return len(s)
}

// decodeUTF16LE decodes UTF-16LE, an odd last byte dropped; the byte-order mark
// stays as U+FEFF.
func decodeUTF16LE(b []byte) string {
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(units))
}

// lossyUTF8 decodes b as a browser's TextDecoder does (and Node's Buffer): each
// maximal invalid subpart becomes one U+FFFD, so FE FF is two of them, not one.
func lossyUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var out strings.Builder
	out.Grow(len(b) + 16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			out.Write(b[i : i+size])
			i += size
			continue
		}
		out.WriteRune(utf8.RuneError)
		i += invalidSubpart(b[i:])
	}
	return out.String()
}

// invalidSubpart is the length of the maximal subpart of an ill-formed sequence
// at the start of b (the WHATWG decoder's rule): a lead byte and the continuation
// bytes that could still have completed it.
func invalidSubpart(b []byte) int {
	c := b[0]
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}
