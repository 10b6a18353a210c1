package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// credentialPaths are the user's credentials, relative to the home directory:
// keys, tokens, cookies and password stores that no sandboxed command needs
// (it has no network to use them on) and that a command which runs without
// approval must not be able to read into a tool result. Both sandboxes hide
// them. This is the one list; add to it here.
var credentialPaths = []string{
	".ssh", ".gnupg", ".password-store", ".local/share/keyrings", ".pki",
	".aws", ".azure", ".config/gcloud", ".oci", ".kube", ".docker/config.json", ".config/containers/auth.json",
	".config/gh", ".config/hub", ".config/glab-cli", ".config/git/credentials", ".git-credentials",
	".netrc", ".npmrc", ".yarnrc.yml", ".pypirc", ".gem/credentials", ".cargo/credentials", ".cargo/credentials.toml",
	".m2/settings.xml", ".gradle/gradle.properties", ".nuget/NuGet/NuGet.Config", ".terraform.d/credentials.tfrc.json",
	".vault-token", ".pgpass", ".my.cnf", ".config/rclone", ".config/op", ".config/temporalio",
	".claude/.credentials.json", ".config/anthropic", ".codex/auth.json", ".config/openai",
	".mozilla", ".config/google-chrome", ".config/chromium",
	".bash_history", ".zsh_history", ".python_history", ".node_repl_history", ".psql_history", ".mysql_history", ".lesshst",
}

// credentialVars are environment variables of the worker that name a file or
// directory holding credentials (the variables themselves are kept from tools
// by toolenv; the files are hidden here). KUBECONFIG may list several.
var credentialVars = []string{
	"GOOGLE_APPLICATION_CREDENTIALS", "CLOUDSDK_CONFIG", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE",
	"AZURE_CONFIG_DIR", "KUBECONFIG", "DOCKER_CONFIG", "NPM_CONFIG_USERCONFIG", "GNUPGHOME", "PASSWORD_STORE_DIR",
	"NETRC", "PGPASSFILE", "VAULT_CONFIG_PATH", "GH_CONFIG_DIR",
	"TEMPORAL_TLS_CLIENT_KEY_PATH", "TEMPORAL_TLS_CLIENT_CERT_PATH", "TEMPORAL_CONFIG_FILE",
	"SSL_CLIENT_KEY", "GIT_SSL_KEY", "GIT_SSL_CERT", "GIT_COOKIE_FILE",
}

// credentials lists the absolute paths the sandboxes hide for home and environ
// (the worker's): the list above, the files the variables name, and what git's
// configuration names as credential stores (gitCredentialFiles).
func credentials(home string, environ []string) []string {
	var out []string
	add := func(p string) {
		if p = filepath.Clean(p); filepath.IsAbs(p) && p != "/" && p != home && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if home != "" {
		for _, p := range credentialPaths {
			add(filepath.Join(home, p))
		}
	}
	if xdg := envValue(environ, "XDG_CONFIG_HOME"); xdg != "" {
		for _, p := range credentialPaths {
			if rest, ok := strings.CutPrefix(p, ".config/"); ok {
				add(filepath.Join(xdg, rest))
			}
		}
	}
	for _, name := range credentialVars {
		for _, p := range filepath.SplitList(envValue(environ, name)) {
			add(expandHome(p, home))
		}
	}
	for _, p := range gitCredentialFiles(home, environ) {
		add(p)
	}
	return out
}

// gitCredentialFiles are the files git's system and global configuration name
// as holding secrets: the store of a "store --file F" credential helper, a
// cookie file (http.cookieFile) and a client key (http.sslKey). It asks git
// itself, so includes and conditional includes count; without git there are
// none.
func gitCredentialFiles(home string, environ []string) []string {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil
	}
	c := exec.Command(git, "config", "--includes", "--null", "--get-regexp", `^(credential\..*helper|http\..*cookiefile|http\..*sslkey)$`)
	c.Dir = "/" // no repository: the system and global files only
	c.Env = []string{"HOME=" + home, "PATH=" + envValue(environ, "PATH")}
	for _, name := range []string{"XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"} {
		if v := envValue(environ, name); v != "" {
			c.Env = append(c.Env, name+"="+v)
		}
	}
	out, err := c.Output()
	if err != nil {
		return nil // exit 1: no such entries
	}
	var files []string
	for _, entry := range bytes.Split(out, []byte{0}) {
		key, value, ok := strings.Cut(string(entry), "\n")
		if !ok {
			continue
		}
		key = strings.ToLower(key)
		if strings.HasSuffix(key, ".helper") {
			files = append(files, storeFile(value, home)...)
			continue
		}
		files = append(files, expandHome(value, home))
	}
	return files
}

// storeFile is the file a "store" credential helper keeps its secrets in:
// --file F, or its defaults.
func storeFile(helper, home string) []string {
	f := strings.Fields(helper)
	if len(f) == 0 || f[0] != "store" && !strings.HasSuffix(f[0], "git-credential-store") {
		return nil
	}
	for i, a := range f[1:] {
		if v, ok := strings.CutPrefix(a, "--file="); ok {
			return []string{expandHome(v, home)}
		}
		if a == "--file" && i+2 < len(f) {
			return []string{expandHome(f[i+2], home)}
		}
	}
	return nil // ~/.git-credentials and ~/.config/git/credentials are on the list
}

func expandHome(p, home string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[1:])
	}
	return p
}

func envValue(environ []string, name string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// homeDir is the worker's home directory, "" when it has none.
func homeDir() string {
	h, err := os.UserHomeDir()
	if err != nil || h == "" {
		return ""
	}
	return filepath.Clean(h)
}
