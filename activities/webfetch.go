package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/webfetch"
)

// webFetchTool is WebFetch: a page fetched, and the call's prompt answered about it.
type webFetchTool struct {
	tool.Base
	a *Activities // nil in Builtins: its declaration only
}

func (webFetchTool) Spec() tool.Spec {
	return tool.Spec{Name: tool.WebFetchName, Description: webFetchDescription, InputSchema: webFetchSchema,
		Interrupt: tool.InterruptCancel, MaxInputBytes: maxShortInputBytes,
		Builtin: true, Coerce: true, RepairIfValid: true}
}

const webFetchDescription = `Fetches a URL and answers prompt about the page: HTML is converted to markdown, and a small model reads it (the first 100,000 characters) and answers; when no model is configured you get the markdown itself.

- url must be a full http or https URL of at most 2,000 characters; http is upgraded to https (except for localhost and IP addresses).
- prompt says what to extract: be specific, the answer is short.
- A redirect to the same host is followed; a redirect to another host is reported, not followed: fetch the new URL with a new call.
- Pages are cached for 15 minutes, so fetching again is cheap. Binary content (images, archives) is refused.
- It only reads. Use it for documentation and pages the user points to; read local files with Read.`

const webFetchSchema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "minLength": 1, "description": "The URL to fetch"},
    "prompt": {"type": "string", "description": "What to extract from the page"}
  },
  "required": ["url", "prompt"],
  "additionalProperties": false
}`

// webFetchInput is the input of WebFetch.
type webFetchInput struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt"`
}

// IsConcurrencySafe: always.
func (webFetchTool) IsConcurrencySafe(json.RawMessage) bool { return true }

// CheckInput wants an absolute http or https URL.
func (webFetchTool) CheckInput(in json.RawMessage) error {
	var w webFetchInput
	if err := json.Unmarshal(in, &w); err != nil {
		return err
	}
	u, err := url.Parse(w.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url %q is not an absolute http or https URL", w.URL)
	}
	return nil
}

// RepairInput drops other fetch tools' parameters, when that makes the input valid.
func (webFetchTool) RepairInput(in map[string]any) (string, bool) { return repairWebFetch(in) }

// Summary: the URL.
func (t webFetchTool) Summary(input json.RawMessage) string {
	return tool.Title(tool.WebFetchName, tool.Code(t.Subject(input), false))
}

// Access: the URL, under WebFetch's domain rules.
func (webFetchTool) Access(input json.RawMessage) tool.Access {
	var in webFetchInput
	_ = json.Unmarshal(input, &in) // validated against the schema before
	return tool.Access{Kind: tool.AccessURL, URL: in.URL}
}

func (t webFetchTool) Run(ctx context.Context, call tool.Call) (tool.Output, error) {
	if t.a == nil {
		return tool.Output{}, errUnbound(call)
	}
	return t.a.limited(t.a.WebFetch)(ctx, call)
}

// webFetchDropped are parameters of other fetch tools that WebFetch ignores.
var webFetchDropped = []string{"text_content_token_limit", "html_extraction_method", "web_fetch_pdf_extract_text"}

// repairWebFetch drops them.
func repairWebFetch(in map[string]any) (string, bool) {
	changed := false
	for _, k := range webFetchDropped {
		if tool.Dropped(in, k) {
			changed = true
		}
	}
	return "", changed
}

// WebFetchConfig configures the WebFetch tool. The zero value refuses private
// addresses and returns pages as markdown.
type WebFetchConfig struct {
	// AllowPrivate lets WebFetch reach loopback, private and link-local addresses
	// (webfetch-allow-private).
	AllowPrivate bool
	// Timeout bounds one fetch (webfetch-timeout); 0 means webfetch.DefaultTimeout.
	Timeout time.Duration
	// Model, when it has an API key, answers the call's prompt from the page;
	// without one the page itself is the result.
	Model WebFetchModel
	// Fetcher, when set, replaces the one built from AllowPrivate (tests use it for
	// small limits and a fake clock).
	Fetcher *webfetch.Fetcher
}

// newFetcher is the worker's fetcher: one for all calls, so that its cache and
// idle connections are shared.
func newFetcher(cfg WebFetchConfig) *webfetch.Fetcher {
	if cfg.Fetcher != nil {
		return cfg.Fetcher
	}
	opts := []webfetch.Option{webfetch.WithAllowPrivate(cfg.AllowPrivate)}
	if cfg.Timeout > 0 {
		opts = append(opts, webfetch.WithTimeout(cfg.Timeout))
	}
	return webfetch.New(opts...)
}

// WebFetch fetches the call's URL and, when the worker has a model, asks it the
// call's prompt about the page; without a model the page is returned as markdown.
// Fetch failures are results the model can act on, never activity failures: a
// read-only tool would otherwise be retried against the same refusal.
func (a *Activities) WebFetch(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in webFetchInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	res, err := a.fetcher.Fetch(ctx, in.URL)
	if err != nil {
		if ctx.Err() != nil {
			return tool.Output{}, ctx.Err()
		}
		return errorOutput("%s", fetchFailure(in.URL, err))
	}
	if r := res.Redirect; r != nil {
		return tool.Output{Content: redirectNotice(r, in.Prompt)}, nil
	}
	if a.pageModel == nil {
		return tool.Output{Content: pageHeader(res, "No model is configured on this worker, so the prompt was not applied; the page follows.") + res.Content}, nil
	}
	answer, err := a.pageModel.ask(ctx, res, in.Prompt)
	if err != nil {
		if ctx.Err() != nil {
			return tool.Output{}, ctx.Err()
		}
		// The page is still worth having: the calling model can read it itself.
		a.log.Warn("webfetch: the model could not apply the prompt", "url", res.FinalURL, "error", err)
		return tool.Output{Content: pageHeader(res, fmt.Sprintf("The model could not apply the prompt (%v); the page follows.", err)) + res.Content}, nil
	}
	return tool.Output{Content: answer}, nil
}

// fetchFailure words a fetch error for the model: what went wrong and, where it
// helps, what to do.
func fetchFailure(url string, err error) string {
	var (
		blocked *webfetch.BlockedError
		status  *webfetch.StatusError
		binary  *webfetch.UnsupportedContentError
	)
	switch {
	case errors.Is(err, webfetch.ErrTimeout):
		return fmt.Sprintf("WebFetch of %s failed: %v. The server is slow or the page is very large; try again later or another URL.", url, err)
	case errors.As(err, &blocked):
		return fmt.Sprintf("WebFetch of %s refused: %v.", url, err)
	case errors.As(err, &status) && status.Code == 404:
		return fmt.Sprintf("WebFetch of %s failed: %v. The page does not exist; check the URL.", url, err)
	case errors.As(err, &binary):
		return fmt.Sprintf("WebFetch of %s failed: %v.", url, err)
	}
	return fmt.Sprintf("WebFetch of %s failed: %v", url, err)
}

// redirectNotice tells the model where a cross-host redirect leads, so that it can
// fetch it with a new call (which the permission rules then check for that host).
func redirectNotice(r *webfetch.Redirect, prompt string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "REDIRECT TO ANOTHER HOST: %s redirects (HTTP %d) to %s, which was not fetched.\n", r.From, r.Status, r.To)
	b.WriteString("To get the content, call WebFetch again with:\n")
	fmt.Fprintf(&b, "- url: %q\n- prompt: %q\n", r.To, prompt)
	return b.String()
}

// pageHeader is the line that introduces a page returned as it is.
func pageHeader(res webfetch.Result, note string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Content of %s (%s", res.FinalURL, res.ContentType)
	if res.Markdown {
		b.WriteString(", converted to markdown")
	}
	b.WriteString(").")
	if res.Truncated {
		fmt.Fprintf(&b, " Only its first %d bytes were read.", res.Bytes)
	}
	if res.FinalURL != res.URL {
		fmt.Fprintf(&b, " (Redirected from %s.)", res.URL)
	}
	return b.String() + " " + note + "\n\n"
}
