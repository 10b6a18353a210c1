package webfetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// parseURL checks rawURL and upgrades http to https, as Claude Code does, except
// for IP literals and localhost, which rarely have a certificate (and are only
// reachable with private addresses allowed).
func parseURL(rawURL string) (*url.URL, error) {
	if len(rawURL) > MaxURLLength {
		return nil, &InvalidURLError{URL: rawURL[:80] + "...", Reason: fmt.Sprintf("longer than %d characters", MaxURLLength)}
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return nil, &InvalidURLError{URL: rawURL, Reason: err.Error()}
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, &InvalidURLError{URL: rawURL, Reason: "only http and https URLs can be fetched"}
	case u.Hostname() == "":
		return nil, &InvalidURLError{URL: rawURL, Reason: "it has no host"}
	case u.User != nil:
		return nil, &InvalidURLError{URL: rawURL, Reason: "URLs with a user name or password are not fetched"}
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Scheme == "http" && !localName(u.Hostname()) {
		u.Scheme = "https"
	}
	return u, nil
}

// localName: an IP literal or localhost, never upgraded to https.
func localName(host string) bool {
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// sameSite says a redirect from a to b may be followed without asking: the same
// host (give or take "www."), the same port, and the same scheme or an upgrade to
// https. Anything else goes back to the model, since the permission rules were
// checked against a's host only.
func sameSite(a, b *url.URL) bool {
	if b.User != nil || a.Port() != b.Port() {
		return false
	}
	if a.Scheme != b.Scheme && !(a.Scheme == "http" && b.Scheme == "https") {
		return false
	}
	strip := func(h string) string {
		h = strings.TrimSuffix(strings.ToLower(h), ".")
		return strings.TrimPrefix(h, "www.")
	}
	return strip(a.Hostname()) == strip(b.Hostname())
}

// get runs the request, following same-host redirects.
func (f *Fetcher) get(ctx context.Context, u *url.URL) (Result, error) {
	var crossHost bool
	client := &http.Client{
		Transport: f.transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if !sameSite(via[0].URL, req.URL) {
				crossHost = true
				return http.ErrUseLastResponse
			}
			if len(via) > f.maxRedirects {
				return &TooManyRedirectsError{URL: u.String(), Limit: f.maxRedirects}
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Result{}, &InvalidURLError{URL: u.String(), Reason: err.Error()}
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "text/html, text/markdown;q=0.9, text/plain;q=0.8, application/json;q=0.8, */*;q=0.1")
	resp, err := client.Do(req)
	if err != nil {
		var tooMany *TooManyRedirectsError
		if errors.As(err, &tooMany) {
			return Result{}, tooMany
		}
		return Result{}, fmt.Errorf("fetch %s: %w", u, err)
	}
	defer resp.Body.Close()
	res := Result{URL: u.String(), FinalURL: resp.Request.URL.String(), Status: resp.StatusCode}
	if crossHost && isRedirect(resp.StatusCode) {
		to, err := resp.Location()
		if err != nil {
			return Result{}, fmt.Errorf("fetch %s: redirect without a usable Location: %w", res.FinalURL, err)
		}
		res.Redirect = &Redirect{From: res.FinalURL, To: to.String(), Status: resp.StatusCode}
		return res, nil
	}
	if resp.StatusCode >= 400 {
		return Result{}, &StatusError{URL: res.FinalURL, Status: resp.Status, Code: resp.StatusCode}
	}
	if isRedirect(resp.StatusCode) {
		return Result{}, &StatusError{URL: res.FinalURL, Status: resp.Status + " without a Location", Code: resp.StatusCode}
	}
	if err := f.read(ctx, resp, &res); err != nil {
		return Result{}, err
	}
	return res, nil
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}
