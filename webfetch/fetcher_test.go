package webfetch

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

const page = `<!doctype html><html><head><title>Docs</title>
<script>stealCookies()</script><style>body{color:red}</style></head>
<body><h1>Hello</h1><p>See the <a href="/next">next page</a> and <b>this</b>.</p>
<ul><li>one</li><li>two</li></ul>
<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></body></html>`

func TestHTMLBecomesMarkdown(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	s := newSite(t, mux)
	res, err := local().Fetch(ctx(t), s.URL+"/doc")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Hello", "[next page](" + s.URL + "/next)", "**this**", "- one", "| k | v |"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("markdown lacks %q:\n%s", want, res.Content)
		}
	}
	if strings.Contains(res.Content, "stealCookies") || strings.Contains(res.Content, "color:red") {
		t.Errorf("script or style kept:\n%s", res.Content)
	}
	if !res.Markdown || res.ContentType != "text/html" || res.Status != 200 || res.FinalURL != s.URL+"/doc" {
		t.Errorf("result %+v", res)
	}
}

func TestTextAndJSONAsIsBinaryRefused(t *testing.T) {
	mux := http.NewServeMux()
	serve := func(path, ctype, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			fmt.Fprint(w, body)
		})
	}
	serve("/json", "application/json", `{"a": "<b>1</b>"}`)
	serve("/text", "text/plain", "# not converted <b>")
	serve("/latin1", "text/plain; charset=iso-8859-1", "caf\xe9")
	serve("/png", "image/png", "\x89PNG\r\n\x1a\n....")
	serve("/missing-type", "", "\x00\x01\x02binary")
	s := newSite(t, mux)
	f := local()
	for path, want := range map[string]string{"/json": `{"a": "<b>1</b>"}`, "/text": "# not converted <b>", "/latin1": "café"} {
		res, err := f.Fetch(ctx(t), s.URL+path)
		if err != nil || res.Content != want || res.Markdown {
			t.Errorf("%s: %q %v, want %q", path, res.Content, err, want)
		}
	}
	for _, path := range []string{"/png", "/missing-type"} {
		_, err := f.Fetch(ctx(t), s.URL+path)
		var uc *UnsupportedContentError
		if !errors.As(err, &uc) || !strings.Contains(err.Error(), "cannot read") {
			t.Errorf("%s: %v, want an UnsupportedContentError", path, err)
		}
	}
}

func TestHTTPErrorStatus(t *testing.T) {
	s := newSite(t, http.NewServeMux()) // everything is 404
	_, err := local().Fetch(ctx(t), s.URL+"/gone")
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 404 || !strings.Contains(err.Error(), "404 Not Found") {
		t.Fatalf("got %v, want a 404 StatusError", err)
	}
}

// redirects serves /r/N, which redirects to /r/N-1 until /r/0, which is text.
func redirects(t *testing.T) *site {
	mux := http.NewServeMux()
	mux.HandleFunc("/r/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/r/%d", n-1), http.StatusFound)
			return
		}
		fmt.Fprint(w, "arrived")
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		// The same server under another name: another host for the redirect rule.
		http.Redirect(w, r, strings.Replace("http://"+r.Host, "127.0.0.1", "localhost", 1)+"/r/0?x=1", http.StatusTemporaryRedirect)
	})
	return newSite(t, mux)
}

func TestSameHostRedirectsFollowedUpToTheLimit(t *testing.T) {
	s := redirects(t)
	f := local(WithMaxRedirects(5))
	res, err := f.Fetch(ctx(t), s.URL+"/r/5")
	if err != nil || res.Content != "arrived" || res.FinalURL != s.URL+"/r/0" || res.URL != s.URL+"/r/5" {
		t.Fatalf("5 redirects: %+v %v", res, err)
	}
	_, err = f.Fetch(ctx(t), s.URL+"/r/6")
	var tm *TooManyRedirectsError
	if !errors.As(err, &tm) || tm.Limit != 5 {
		t.Fatalf("6 redirects: %v, want TooManyRedirectsError", err)
	}
	before := s.hits.Load()
	_, err = f.Fetch(ctx(t), s.URL+"/loop")
	if !errors.As(err, &tm) {
		t.Fatalf("loop: %v, want TooManyRedirectsError", err)
	}
	if n := s.hits.Load() - before; n != 6 {
		t.Errorf("loop: %d requests, want 6 (the first and 5 redirects)", n)
	}
}

func TestCrossHostRedirectReported(t *testing.T) {
	s := redirects(t)
	res, err := local().Fetch(ctx(t), s.URL+"/away")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(s.URL, "127.0.0.1", "localhost", 1) + "/r/0?x=1"
	if res.Redirect == nil || res.Redirect.To != want || res.Redirect.From != s.URL+"/away" || res.Redirect.Status != 307 || res.Content != "" {
		t.Fatalf("got %+v (redirect %+v), want a redirect to %s", res, res.Redirect, want)
	}
	if s.hits.Load() != 1 {
		t.Errorf("%d requests: the redirect was followed", s.hits.Load())
	}
}

func TestSameSite(t *testing.T) {
	for _, c := range []struct {
		from, to string
		same     bool
	}{
		{"https://example.com/a", "https://example.com/b", true},
		{"https://example.com/a", "https://www.example.com/b", true},
		{"https://www.example.com/a", "https://example.com/b", true},
		{"https://Example.com./a", "https://example.com/b", true},
		{"http://example.com/a", "https://example.com/a", true},
		{"https://example.com/a", "http://example.com/a", false},
		{"https://example.com/a", "https://example.com:8443/a", false},
		{"https://example.com/a", "https://api.example.com/a", false},
		{"https://example.com/a", "https://evil.com/a", false},
		{"https://example.com/a", "https://user:pw@example.com/a", false},
	} {
		if got := sameSite(mustURL(t, c.from), mustURL(t, c.to)); got != c.same {
			t.Errorf("%s -> %s: same %v, want %v", c.from, c.to, got, c.same)
		}
	}
}

func TestParseURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://example.com/x#frag": "https://example.com/x",
		"https://example.com/":      "https://example.com/",
		"http://127.0.0.1:8080/a":   "http://127.0.0.1:8080/a",
		"http://[::1]/a":            "http://[::1]/a",
		"http://localhost:3000/":    "http://localhost:3000/",
		"http://app.localhost/":     "http://app.localhost/",
	} {
		u, err := parseURL(raw)
		if err != nil || u.String() != want {
			t.Errorf("%s: %v %v, want %s", raw, u, err, want)
		}
	}
	for _, raw := range []string{"ftp://example.com/", "https:///path", "https://u:p@example.com/", "example.com", "https://example.com/" + strings.Repeat("a", MaxURLLength)} {
		var ie *InvalidURLError
		if _, err := parseURL(raw); !errors.As(err, &ie) {
			t.Errorf("%.60s: %v, want an InvalidURLError", raw, err)
		}
	}
}
