package activities

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
)

// PrepareWorkspace clones the session's repository into its working directory on
// this host (issue 26 item 3). The clone is made beside the directory and renamed
// into place, so a killed attempt leaves no half clone where the session looks; a
// directory that is a clone of the same repository already is kept (a resumed
// session, a retried attempt); one that holds anything else is refused: the clone
// never mixes with or overwrites a user's files.
func (a *Activities) PrepareWorkspace(ctx context.Context, req contract.PrepareRequest) (contract.PrepareResult, error) {
	stop := keepAlive(ctx, "", nil)
	defer stop()
	if err := a.checkFence(ctx, req.SessionID, req.Generation); err != nil { // fence.go
		return contract.PrepareResult{}, err
	}
	if !filepath.IsAbs(req.Workdir) || req.Repo == "" {
		return contract.PrepareResult{}, sourceError(req, "the working directory must be absolute and the repository given")
	}
	if !emptyDir(req.Workdir) {
		origin, err := git(ctx, req.Workdir, "config", "--get", "remote.origin.url")
		if err == nil && origin == req.Repo {
			commit, _ := git(ctx, req.Workdir, "rev-parse", "HEAD")
			return contract.PrepareResult{Commit: commit}, nil
		}
		return contract.PrepareResult{}, sourceError(req, fmt.Sprintf("%s is not empty and is not a clone of %s: give the session a working directory that does not exist yet (or an empty one)", req.Workdir, req.Repo))
	}
	parent := filepath.Dir(req.Workdir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return contract.PrepareResult{}, sourceError(req, err.Error())
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(req.Workdir)+".clone-")
	if err != nil {
		return contract.PrepareResult{}, sourceError(req, err.Error())
	}
	defer os.RemoveAll(tmp)
	if _, err := git(ctx, parent, "clone", "--quiet", "--", req.Repo, tmp); err != nil {
		return contract.PrepareResult{}, sourceError(req, err.Error())
	}
	if req.Ref != "" {
		if _, err := git(ctx, tmp, "checkout", "--quiet", req.Ref, "--"); err != nil {
			return contract.PrepareResult{}, sourceError(req, fmt.Sprintf("ref %q: %v", req.Ref, err))
		}
	}
	commit, err := git(ctx, tmp, "rev-parse", "HEAD")
	if err != nil {
		return contract.PrepareResult{}, sourceError(req, err.Error())
	}
	os.Remove(req.Workdir) // empty, or missing
	if err := os.Rename(tmp, req.Workdir); err != nil {
		return contract.PrepareResult{}, sourceError(req, err.Error())
	}
	return contract.PrepareResult{Cloned: true, Commit: commit}, nil
}

// git runs git in dir without prompting, and returns its trimmed output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func sourceError(req contract.PrepareRequest, why string) error {
	return temporal.NewApplicationErrorWithOptions(fmt.Sprintf("session %s: cannot clone %s into %s: %s", req.SessionID, req.Repo, req.Workdir, why),
		contract.ErrWorkspaceSource, temporal.ApplicationErrorOptions{NonRetryable: true})
}
