package activities

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/persisted"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/webfetch"
	"github.com/toolpipe/toolpipe/wire"
)

// webSite serves a page at /page, a big one at /big, and a redirect to another
// host (the same server as localhost) at /away.
func webSite(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body><h1>Release notes</h1><p>Version <b>4.2</b> is out.</p></body></html>`)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("line of text\n", 20_000))
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+strings.Replace(r.Host, "127.0.0.1", "localhost", 1)+"/page", http.StatusMovedPermanently)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func webActs(t *testing.T, cfg WebFetchConfig) *Activities {
	t.Helper()
	a, err := New(Config{StateDir: t.TempDir(), WebFetch: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func fetch(t *testing.T, a *Activities, url, prompt string) tool.Output {
	t.Helper()
	def, _ := a.Registry().Lookup(tool.WebFetchName)
	out, err := def.Run(context.Background(), call(t, tool.WebFetchName, t.TempDir(), webFetchInput{URL: url, Prompt: prompt}))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWebFetchWithoutModelReturnsMarkdown(t *testing.T) {
	s := webSite(t)
	out := fetch(t, webActs(t, WebFetchConfig{AllowPrivate: true}), s.URL+"/page", "What version is out?")
	want := "Content of " + s.URL + "/page (text/html, converted to markdown). No model is configured on this worker, so the prompt was not applied; the page follows.\n\n# Release notes\n\nVersion **4.2** is out."
	if out.IsError || out.Content != want {
		t.Fatalf("got %+v\nwant %q", out, want)
	}
}

func TestWebFetchRefusesPrivateAddresses(t *testing.T) {
	s := webSite(t)
	out := fetch(t, webActs(t, WebFetchConfig{}), s.URL+"/page", "p")
	if !out.IsError || !strings.Contains(out.Content, "refused") || !strings.Contains(out.Content, "127.0.0.1") {
		t.Fatalf("got %+v", out)
	}
}

func TestWebFetchReportsCrossHostRedirect(t *testing.T) {
	s := webSite(t)
	out := fetch(t, webActs(t, WebFetchConfig{AllowPrivate: true}), s.URL+"/away", "What version?")
	to := strings.Replace(s.URL, "127.0.0.1", "localhost", 1) + "/page"
	if out.IsError || !strings.Contains(out.Content, "REDIRECT TO ANOTHER HOST") ||
		!strings.Contains(out.Content, fmt.Sprintf("- url: %q", to)) || !strings.Contains(out.Content, `- prompt: "What version?"`) {
		t.Fatalf("got %+v", out)
	}
}

// A page over WebFetch's 100,000-character threshold is persisted; the model sees
// the preview stub (size control through a.limited).
func TestWebFetchLargePagePersisted(t *testing.T) {
	s := webSite(t)
	out := fetch(t, webActs(t, WebFetchConfig{AllowPrivate: true}), s.URL+"/big", "p")
	if out.IsError || !strings.HasPrefix(out.Content, persisted.Tag) || len(out.Content) > 10_000 {
		t.Fatalf("got %d chars: %.300s", len(out.Content), out.Content)
	}
}

// With a model, the page and the prompt go to it (non-streaming, a small
// max_tokens) and its answer is the result.
func TestWebFetchAppliesPromptWithModel(t *testing.T) {
	s := webSite(t)
	model, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: wire.BlockText, Text: "Version 4.2."}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(model.Close)
	a := webActs(t, WebFetchConfig{AllowPrivate: true, Model: WebFetchModel{APIKey: "k", BaseURL: model.URL(), Model: "small-model"}})
	out := fetch(t, a, s.URL+"/page", "What version is out?")
	if out.IsError || out.Content != "Version 4.2." {
		t.Fatalf("got %+v", out)
	}
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests", len(reqs))
	}
	r := reqs[0]
	sent := r.Messages[0].Text()
	if r.Stream || r.Model != "small-model" || r.MaxTokens != webFetchMaxTokens || r.APIKey != "k" ||
		!strings.Contains(sent, "Version **4.2** is out.") || !strings.Contains(sent, "What version is out?") {
		t.Fatalf("request %+v\n%s", r, sent)
	}
}

// A model that fails does not lose the page: it is returned with a note.
func TestWebFetchModelFailureReturnsPage(t *testing.T) {
	s := webSite(t)
	model, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Status: 529},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(model.Close)
	a := webActs(t, WebFetchConfig{AllowPrivate: true, Model: WebFetchModel{APIKey: "k", BaseURL: model.URL()}})
	out := fetch(t, a, s.URL+"/page", "What version is out?")
	if out.IsError || !strings.Contains(out.Content, "The model could not apply the prompt") || !strings.Contains(out.Content, "Version **4.2** is out.") {
		t.Fatalf("got %+v", out)
	}
	if n := len(model.Requests()); n != 1 {
		t.Errorf("%d model requests: the SDK retried", n)
	}
	if r := model.Requests()[0]; r.Model != DefaultWebFetchModel {
		t.Errorf("model %q, want %q", r.Model, DefaultWebFetchModel)
	}
}

// The injected fetcher is used (its limits apply).
func TestWebFetchUsesConfiguredFetcher(t *testing.T) {
	s := webSite(t)
	f := webfetch.New(webfetch.WithAllowPrivate(true), webfetch.WithMaxBytes(100))
	out := fetch(t, webActs(t, WebFetchConfig{Fetcher: f}), s.URL+"/big", "p")
	if out.IsError || !strings.Contains(out.Content, "Only its first 100 bytes were read.") {
		t.Fatalf("got %+v", out)
	}
}
