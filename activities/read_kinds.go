package activities

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Files Read does not show as text. Claude Code decides by extension (a NUL in a
// .txt is shown, with a note); images and PDFs it turns into image and document
// blocks, which toolpipe's text results cannot carry (README, "Compatibility with
// Claude Code").
var (
	binaryExts = extSet("bin exe dll so dylib o a lib obj class jar war pyc pyo wasm " +
		"zip tar gz tgz bz2 xz zst 7z rar iso dmg deb rpm apk " +
		"mp3 mp4 m4a wav flac ogg oga avi mov mkv webm wmv flv " +
		"woff woff2 ttf otf eot db sqlite sqlite3 psd ai sketch xls xlsx doc docx ppt pptx odt ods")
	imageExts = extSet("png jpg jpeg gif webp bmp tiff tif ico heic avif")
)

func extSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(list) {
		m["."+e] = true
	}
	return m
}

// unreadableKind returns why Read refuses path by its kind, or "".
func unreadableKind(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case binaryExts[ext]:
		return fmt.Sprintf("This tool cannot read binary files. The file appears to be a binary %s file. Use a skill for this file type if one is available, or a shell command or script that can read the format.", ext)
	case imageExts[ext]:
		return fmt.Sprintf("This tool cannot show images here: toolpipe's tool results are text. The file is a %s image; inspect it with a shell command (file, identify, exiftool) if its metadata helps.", ext)
	case ext == ".pdf":
		return "This tool cannot show PDF pages here: toolpipe's tool results are text. Extract the text with a shell command such as `pdftotext -f FIRST -l LAST file.pdf -`."
	}
	return ""
}

var pagesRE = regexp.MustCompile(`^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$`)

// checkPages validates Read's pages (a PDF page range), as Claude Code does, even
// for files where it is then ignored.
func checkPages(pages string) string {
	if pages == "" {
		return ""
	}
	m := pagesRE.FindStringSubmatch(pages)
	bad := fmt.Sprintf("Invalid pages parameter: %q. Give one page (\"3\") or one range (\"1-5\"), not a list. To read several pages or ranges, read each one separately. Pages are 1-indexed.", pages)
	if m == nil {
		return bad
	}
	from, _ := strconv.Atoi(m[1])
	to := from
	if m[2] != "" {
		to, _ = strconv.Atoi(m[2])
	}
	switch {
	case from < 1 || to < from:
		return bad
	case to-from+1 > 20:
		return fmt.Sprintf("Page range %q is %d pages; at most 20 pages per request. Read it in smaller ranges.", pages, to-from+1)
	}
	return ""
}
