package webfetch

import (
	"errors"
	"fmt"
)

// ErrTimeout: the whole fetch (connect, redirects, headers and body) took longer
// than the time limit.
var ErrTimeout = errors.New("the fetch took longer than its time limit")

// BlockedError: the URL's host resolved to an address WebFetch must not reach
// (loopback, private, link-local, ...) and private addresses are not allowed.
type BlockedError struct {
	// Host is the requested host; Address the resolved address refused.
	Host, Address string
}

func (e *BlockedError) Error() string {
	host := e.Host
	if host == "" {
		host = "the host"
	}
	return fmt.Sprintf("%s resolves to %s, a loopback, private, link-local or otherwise internal address: "+
		"WebFetch does not fetch from the local network unless the worker allows it (webfetch-allow-private)", host, e.Address)
}

// InvalidURLError: the URL cannot be fetched as given.
type InvalidURLError struct {
	URL, Reason string
}

func (e *InvalidURLError) Error() string {
	return fmt.Sprintf("invalid URL %q: %s", e.URL, e.Reason)
}

// TooManyRedirectsError: the same-host redirects went on past the limit (or in a
// loop).
type TooManyRedirectsError struct {
	URL   string
	Limit int
}

func (e *TooManyRedirectsError) Error() string {
	return fmt.Sprintf("%s redirected more than %d times", e.URL, e.Limit)
}

// StatusError: the server answered with an HTTP error status.
type StatusError struct {
	URL    string
	Status string
	Code   int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s answered HTTP %s", e.URL, e.Status)
}

// UnsupportedContentError: the response is neither HTML, text nor JSON (an image,
// a PDF, an archive...), which WebFetch cannot turn into text.
type UnsupportedContentError struct {
	URL, ContentType string
}

func (e *UnsupportedContentError) Error() string {
	return fmt.Sprintf("%s is %s, which WebFetch cannot read: it reads HTML, text and JSON", e.URL, e.ContentType)
}
