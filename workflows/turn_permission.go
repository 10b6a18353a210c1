package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/tool/readonly"
)

// resolveFailure: the paths of a call could not be resolved for the permission check.
type resolveFailure struct{ err error }

func (f resolveFailure) Error() string {
	return "Permission check failed: the paths of this call could not be resolved: " + failureMessage(f.err)
}

// bashStaticPaths are the paths a command names that a symbolic link could
// redirect: not ~ (the home directory is judged as written) nor devices. As
// recorded before bashReadTargetsChange.
func bashStaticPaths(command string) []string {
	all, _ := readonly.ReadPathsV1(command)
	var out []string
	for _, p := range all {
		if p != "" && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "/dev/") && !strings.ContainsAny(p, "*?[") {
			out = append(out, p)
		}
	}
	return out
}

// bashResolvable returns what of a read-only command's reads a symbolic link
// could redirect: each path as written (not ~, which is judged as written, nor
// devices), the directory each pattern starts from, and the patterns.
func bashResolvable(command string) (paths, globs []string) {
	targets, _ := readonly.Reads(command)
	for _, t := range targets {
		p := t.Path
		if p == "" || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "/dev/") {
			continue
		}
		if t.Glob {
			globs = append(globs, p)
			if i := strings.IndexAny(p, "*?["); strings.LastIndexByte(p[:i], '/') >= 0 {
				p = p[:strings.LastIndexByte(p[:i], '/')+1]
			} else {
				p = "."
			}
		}
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths, globs
}

// verdict is the end of the permission step: run the call, or answer the model with
// message as an error result.
type verdict struct {
	allowed bool
	message string
	// sandboxOnly: allowed only because the command runs sandboxed
	// (autoAllowBashIfSandboxed); it must not run outside the sandbox.
	sandboxOnly bool
	// readOnly: a Bash command allowed only because it was classified
	// read-only (no rule, no hook, no person, no bypassPermissions allowed it):
	// it runs in the read-only sandbox, whatever dangerouslyDisableSandbox says.
	readOnly bool
	// input, when set, is the input the person who approved the call gave it
	// (ApprovalRequest.UpdatedInput): it runs instead of the model's.
	input json.RawMessage
	// ask: neither the hooks nor the rules decided; a person is asked
	// (approvalStep), message is why.
	ask bool
}

// permit decides whether a call runs: the hooks' decision first, then the rules
// and the mode; what they leave to a person is an ask verdict, which the gate's
// next step asks (approvalStep; DESIGN §5, "hook decision > rules > user"). A hook's
// deny is final. A hook's allow skips the mode's question (and plan mode and the
// working-directory confinement) but not a deny or ask rule, as in Claude Code: a
// rule the user wrote is a floor no hook lifts. A hook's ask asks even where the
// rules would allow, unless a deny rule refuses outright. It returns an error only
// when the tool's context was cancelled.
func (t *turn) permit(ctx workflow.Context, b tool.Block, pre hooks.Result) (verdict, error) {
	if pre.Decision == hooks.Deny {
		return verdict{message: hooks.DenyText(b.Name, pre)}, nil
	}
	d := permissions.Decision{Behavior: permissions.Allow}
	autoReadOnly := false
	if pol := t.in.Settings.Permissions; pol != nil {
		req, err := t.request(ctx, b)
		var rf resolveFailure
		if errors.As(err, &rf) {
			return verdict{message: rf.Error()}, nil
		}
		if err != nil {
			return verdict{}, err
		}
		p := *pol
		p.ReadOnlyCommand = readonly.IsReadOnly // not serialised: set where Decide runs
		if b.Name == tool.BashName && workflow.GetVersion(ctx, bashReadPathsChange, workflow.DefaultVersion, 1) >= 1 {
			// Read-only Bash confined to the working directories, Read deny rules
			// applied to its paths: turns recorded before decide as they did. The
			// paths' symbolic-link targets (resolved by request) count too.
			resolved := req.Paths
			p.BashPaths = func(string) ([]string, bool) { return resolved, false }
		}
		d = permissions.Decide(req, p)
		autoReadOnly = b.Name == tool.BashName && req.ReadOnly && d.Behavior == permissions.Allow && d.Rule == "" &&
			p.Mode != permissions.BypassPermissions
	}
	byRule := d.Rule != "" && d.Behavior != permissions.Allow
	sandboxOnly := false
	if d.Behavior == permissions.Ask && !byRule && pre.Decision != hooks.Ask && t.autoAllowSandboxed(b) {
		// autoAllowBashIfSandboxed: the sandbox, not a person, bounds what the
		// command can do; ask rules and hooks that ask still ask.
		d, sandboxOnly = permissions.Decision{Behavior: permissions.Allow}, true
	}
	switch {
	case pre.Decision == hooks.Allow && !byRule:
		d = permissions.Decision{Behavior: permissions.Allow}
	case pre.Decision == hooks.Ask && !(byRule && d.Behavior == permissions.Deny):
		reason := pre.Reason
		if reason == "" {
			reason = "a PreToolUse hook asks for approval"
		}
		d = permissions.Decision{Behavior: permissions.Ask, Reason: reason}
	}
	if pol := t.in.Settings.Permissions; pol != nil {
		d = pol.Mode.DenyAsk(d) // dontAsk: a hook's ask is denied too
	}
	switch d.Behavior {
	case permissions.Allow:
		return verdict{allowed: true, sandboxOnly: sandboxOnly && pre.Decision != hooks.Allow, readOnly: autoReadOnly && pre.Decision != hooks.Allow}, nil
	case permissions.Ask:
		return verdict{ask: true, message: d.Reason}, nil // approvalStep asks (turn_gate.go)
	}
	if d.Rule != "" { // the model is told in Claude Code's words, people which rule
		t.notice(b.ID, fmt.Sprintf("%s was denied by the rule %s in permissions.deny", b.Name, d.Rule))
	}
	return verdict{message: d.Reason}, nil
}

// autoAllowSandboxed reports whether b is a Bash call that runs sandboxed under
// autoAllowBashIfSandboxed.
func (t *turn) autoAllowSandboxed(b tool.Block) bool {
	s := t.in.Settings.sandboxSettings()
	if b.Name != tool.BashName || !s.AutoAllow() {
		return false
	}
	var in tool.BashInput
	_ = json.Unmarshal(b.Input, &in) // validated against the schema before
	return s.Sandboxed(in.Command, in.DangerouslyDisableSandbox)
}

// request describes a call for permissions.Decide. The paths of file tools are made
// absolute here (pure) and resolved (symbolic links, "..") by an activity, since
// that reads the filesystem; its answer is recorded, so a replay decides the same.
func (t *turn) request(ctx workflow.Context, b tool.Block) (permissions.Request, error) {
	def, _ := t.lookup(b.Name) // known: only a known tool's call reaches the gate
	acc := def.Access(b.Input) // validated against the schema before
	req := permissions.Request{Tool: b.Name, Kind: acc.Kind, Command: acc.Command, URL: acc.URL, ReadOnly: acc.ReadOnly}
	paths := slices.Clone(acc.Paths)
	var globs []string
	if acc.Kind == tool.AccessCommand && req.ReadOnly && workflow.GetVersion(ctx, bashReadSymlinksChange, workflow.DefaultVersion, 1) >= 1 {
		// A read-only command's paths are resolved like a file tool's, so that
		// "cat link" with link pointing out of the working directory asks as Read
		// does, and so are the files its patterns match.
		if workflow.GetVersion(ctx, bashReadTargetsChange, workflow.DefaultVersion, 1) >= 1 {
			paths, globs = bashResolvable(acc.Command)
		} else {
			paths = bashStaticPaths(acc.Command)
		}
	}
	if len(paths) == 0 && len(globs) == 0 {
		return req, nil
	}
	// Joined, not cleaned: ".." after a symbolic link is the parent of its
	// target (cat l/../x), which only resolving can tell.
	abs := func(p string) string {
		switch {
		case p == "":
			return t.in.Workdir
		case !path.IsAbs(p):
			return strings.TrimSuffix(t.in.Workdir, "/") + "/" + p
		}
		return p
	}
	for i, p := range paths {
		paths[i] = abs(p)
	}
	for i, g := range globs {
		globs[i] = abs(g)
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		Summary:             "Resolve paths of " + def.Describe(b.Input),
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: 5},
	})
	var res contract.ResolveResult
	waitCtx, _ := workflow.NewDisconnectedContext(ctx)
	fut := workflow.ExecuteActivity(actx, contract.ResolvePathsActivityName, contract.ResolveRequest{ToolUseID: b.ID, Paths: paths, Globs: globs})
	if err := fut.Get(waitCtx, &res); err != nil {
		if temporal.IsCanceledError(err) {
			return req, err
		}
		// Unresolved paths could hide a symbolic link out of the working directory:
		// the call is refused rather than judged on paths that may be wrong.
		return req, resolveFailure{err}
	}
	req.Paths = res.Paths
	return req, nil
}
