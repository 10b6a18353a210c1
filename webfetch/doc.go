// Package webfetch fetches a web page for the WebFetch tool (DESIGN §6) the way a
// careful browser of the model's would: HTTP GET only, a bounded number of
// redirects on the same host (a redirect to another host is returned for the model
// to decide on, since the permission rules were checked against the first host),
// a size and a time limit, HTML converted to markdown, text and JSON as they are,
// and a 15-minute cache.
//
// It refuses to connect to loopback, private, link-local, unspecified and multicast
// addresses unless allowed: the check runs on the resolved address at dial time, so
// neither a host name pointing inside the network nor DNS rebinding between check
// and connect can turn the tool into a server-side request forgery.
package webfetch
