package webfetch

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html/charset"
)

// kind is how a response body is turned into text.
type kind int

const (
	kindBinary kind = iota
	kindHTML
	kindText
)

// kindOf classifies a media type: HTML is converted, text and structured text
// (JSON, XML, YAML, JavaScript) are kept as they are, the rest refused.
func kindOf(mediaType string) kind {
	switch {
	case mediaType == "text/html" || mediaType == "application/xhtml+xml":
		return kindHTML
	case strings.HasPrefix(mediaType, "text/"),
		strings.HasSuffix(mediaType, "+json"), strings.HasSuffix(mediaType, "+xml"),
		mediaType == "application/json", mediaType == "application/xml",
		mediaType == "application/javascript", mediaType == "application/x-javascript",
		mediaType == "application/yaml", mediaType == "application/x-yaml",
		mediaType == "application/toml", mediaType == "application/x-ndjson":
		return kindText
	}
	return kindBinary
}

// read reads at most maxBytes of the body into res, decoded to UTF-8 from the
// declared (or sniffed) charset, and converts HTML to markdown. The rest of a
// larger body is never read: the connection is closed instead.
func (f *Fetcher) read(ctx context.Context, resp *http.Response, res *Result) error {
	body := bufio.NewReaderSize(resp.Body, 512)
	header := resp.Header.Get("Content-Type")
	mediaType, _, err := mime.ParseMediaType(header)
	if header == "" || err != nil {
		// No usable type: sniff it, as a browser would.
		head, _ := body.Peek(512)
		header = http.DetectContentType(head)
		mediaType, _, _ = mime.ParseMediaType(header)
	}
	res.ContentType = mediaType
	k := kindOf(mediaType)
	if k == kindBinary {
		return &UnsupportedContentError{URL: res.FinalURL, ContentType: mediaType}
	}
	raw, err := io.ReadAll(io.LimitReader(body, f.maxBytes+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", res.FinalURL, err)
	}
	if int64(len(raw)) > f.maxBytes {
		raw, res.Truncated = raw[:f.maxBytes], true
	}
	res.Bytes = int64(len(raw))
	text, err := decode(raw, header)
	if err != nil {
		return fmt.Errorf("decode %s: %w", res.FinalURL, err)
	}
	if k == kindText {
		res.Content = text
		return nil
	}
	md, err := toMarkdown(ctx, text, res.FinalURL)
	if err != nil {
		return fmt.Errorf("convert %s to markdown: %w", res.FinalURL, err)
	}
	res.Content, res.Markdown = md, true
	return nil
}

// decode converts raw from the charset of contentType (or of a <meta> tag) to
// UTF-8.
func decode(raw []byte, contentType string) (string, error) {
	r, err := charset.NewReader(bytes.NewReader(raw), contentType)
	if err != nil {
		return string(raw), nil // an unknown charset: keep the bytes
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// toMarkdown converts HTML to CommonMark with tables; links and images become
// absolute against pageURL so that the model can fetch them.
func toMarkdown(ctx context.Context, html, pageURL string) (string, error) {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(),
	))
	return conv.ConvertString(html, converter.WithContext(ctx), converter.WithDomain(pageURL))
}
