package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The credentials the sandboxes hide: the list under home (and under
// XDG_CONFIG_HOME), the files the worker's credential variables name (KUBECONFIG
// lists several), and the store a credential helper in ~/.gitconfig names.
func TestCredentialsList(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[credential \"https://example.com\"]\n\thelper = store --file=/srv/creds\n[http]\n\tcookieFile = ~/cookies.txt\n"), 0o644)
	got := credentials(home, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=/xdg",
		"GOOGLE_APPLICATION_CREDENTIALS=/keys/gcp.json", "KUBECONFIG=/k/a:/k/b", "TEMPORAL_TLS_CLIENT_KEY_PATH=~/tls/client.key"})
	for _, want := range []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".claude/.credentials.json"), filepath.Join(home, ".git-credentials"),
		"/xdg/gh", "/keys/gcp.json", "/k/a", "/k/b", filepath.Join(home, "tls/client.key"), "/srv/creds", filepath.Join(home, "cookies.txt")} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is not hidden", want)
		}
	}
	if slices.Contains(got, home) || slices.Contains(got, "/") {
		t.Errorf("the home directory itself or / is hidden: %q", got)
	}
}
