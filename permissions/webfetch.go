package permissions

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// compileDomain reads a WebFetch specifier, "domain:HOST". Claude Code
// documents an exact host; a rule for example.com therefore does not cover
// api.example.com, which may be run by someone else (user content hosts).
// Subdomains are opted into explicitly with domain:*.example.com (strict
// subdomains only), and domain:* matches every host. Hosts are compared in
// lower case, without a trailing dot.
func compileDomain(spec string) (string, matcher, error) {
	host, ok := strings.CutPrefix(spec, "domain:")
	if !ok {
		return "", matcher{}, errors.New("a WebFetch specifier must be domain:HOST, such as domain:example.com")
	}
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	switch {
	case host == "":
		return "", matcher{}, errors.New("empty host after domain:")
	case host == "*":
		return "domain:*", matcher{kind: domainAny}, nil
	case strings.Contains(host, "://"):
		return "", matcher{}, errors.New("domain: takes a host name, not a URL; drop the scheme")
	}
	m := matcher{kind: domainExact, text: host}
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		m = matcher{kind: domainSuffix, text: rest}
	}
	if !validHost(m.text) {
		return "", matcher{}, fmt.Errorf("invalid host %q: use letters, digits, '-' and '.', with '*.' only at the start", host)
	}
	return "domain:" + host, m, nil
}

func validHost(h string) bool {
	if h == "" || h[0] == '.' || h[len(h)-1] == '.' || strings.Contains(h, "..") {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c >= 0x80) {
			return false
		}
	}
	return true
}

// hostOf returns the lower-case host of a WebFetch URL, or "" when it has
// none. A URL without a scheme is read as https, as WebFetch upgrades it,
// so that "evil.com/x" is still checked against domain:evil.com.
func hostOf(raw string) string {
	raw = strings.TrimSpace(raw)
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// matchDomain reports whether host matches a WebFetch rule.
func matchDomain(m matcher, host string) bool {
	switch m.kind {
	case matchAll:
		return true
	case domainAny:
		return host != ""
	case domainExact:
		return host == m.text
	case domainSuffix:
		return len(host) > len(m.text)+1 && host[len(host)-len(m.text)-1] == '.' && strings.HasSuffix(host, m.text)
	}
	return false
}
