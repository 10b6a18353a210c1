package blobstore

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// SettingName is the configuration key of the store's URL and EnvURL its
// environment variable; empty means the embedded default, DefaultURL.
const (
	SettingName = "blob-url"
	EnvURL      = "TOOLPIPE_BLOB_URL"
)

// fileDefaults are the parameters every file:// store gets unless its URL sets them:
// no ".attrs" sidecar files (the directory holds exactly the objects, as before the
// store existed), temporary files next to their final name (a rename across file
// systems fails), and the root created on open.
var fileDefaults = [][2]string{{"metadata", "skip"}, {"no_tmp_dir", "1"}, {"create_dir", "1"}}

// DefaultURL is the embedded default: a file:// store rooted at stateDir (absolute).
func DefaultURL(stateDir string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Clean(stateDir))}
	return normalizeFile(&u).String()
}

// normalizeFile adds fileDefaults to a file:// URL's query where it lacks them.
func normalizeFile(u *url.URL) *url.URL {
	q := u.Query()
	for _, kv := range fileDefaults {
		if !q.Has(kv[0]) {
			q.Set(kv[0], kv[1])
		}
	}
	u.RawQuery = q.Encode()
	return u
}

// fileRoot is the directory a file:// URL names, which must be absolute: the paths
// handed to the model must not depend on a process's working directory.
func fileRoot(u *url.URL) (string, error) {
	if u.Host != "" && u.Host != "localhost" {
		return "", fmt.Errorf("file store %q: the directory must be absolute (file:///dir)", redact(u))
	}
	if !strings.HasPrefix(u.Path, "/") {
		return "", fmt.Errorf("file store %q: the directory must be absolute (file:///dir)", redact(u))
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), nil
}

// secretParams are query parameters whose values are never shown (a SAS token, a
// key); the gocloud drivers take credentials from the environment, but a URL pasted
// into a config file may carry them anyway.
var secretParams = []string{"key", "secret", "token", "password", "sig", "credential", "signature"}

// Redact returns rawURL as it may be shown: without user information and with the
// values of credential-like parameters replaced.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "<unparsable store URL>"
	}
	return redact(u)
}

func redact(u *url.URL) string {
	c := *u
	c.User = nil
	q := c.Query()
	for name := range q {
		lower := strings.ToLower(name)
		for _, s := range secretParams {
			if strings.Contains(lower, s) {
				q.Set(name, "REDACTED")
			}
		}
	}
	c.RawQuery = q.Encode()
	return c.String()
}
