package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolpipe/toolpipe/agentprompt"
	"github.com/toolpipe/toolpipe/internal/statedir"
	"github.com/toolpipe/toolpipe/toolenv"
	"github.com/toolpipe/toolpipe/workflows"
)

// prompt is one user message being answered: a run of the session's workflow
// (or, for a session found running, a message sent to it).
type prompt struct {
	d           *durable
	session     string
	model       string
	start       time.Time
	interrupted atomic.Bool
	servers     []mcpStatus
	canAsk      bool // the SDK answers permission prompts (canUseTool)
}

// defaultModel is --model's default: ANTHROPIC_MODEL, else Claude Code 2.1.328's.
func (dr *driver) defaultModel() string {
	if m := toolenv.Getenv("ANTHROPIC_MODEL"); m != "" { // a held secret (worker.HideSecrets)
		return m
	}
	return "claude-opus-5-5"
}

// maxOutputTokens is the most tokens of one assistant message, as Claude Code's
// CLAUDE_CODE_MAX_OUTPUT_TOKENS sets it.
func maxOutputTokens() int {
	var n int
	if _, err := fmt.Sscan(os.Getenv("CLAUDE_CODE_MAX_OUTPUT_TOKENS"), &n); err == nil && n > 0 {
		return n
	}
	return 32000
}

// defaultMaxTurns: Claude Code runs until the model is done; a session still has
// a bound, high enough not to be met by a real task.
const defaultMaxTurns = 1000

// answer answers one queued user message and returns the result it sent.
func (dr *driver) answer(ctx context.Context, q queued) resultMessage {
	start := time.Now()
	if q.err != nil {
		return dr.failed(start, dr.sessionOrNew(), fmt.Errorf("%w", q.err))
	}
	d, err := dr.durable(ctx)
	if err != nil {
		return dr.failed(start, dr.sessionOrNew(), fmt.Errorf("toolpipe: cannot reach Temporal: %w", err))
	}
	session, fork, err := dr.pickSession(ctx, d)
	if err != nil {
		return dr.failed(start, dr.sessionOrNew(), err)
	}
	if err := dr.serveHooks(d, session); err != nil {
		return dr.failed(start, session, err)
	}
	in, p, err := dr.input(ctx, d, session, q.text, fork)
	if err != nil {
		return dr.failed(start, session, err)
	}
	p.start = start
	from := d.next(session)
	st, err := d.status(ctx, session)
	if err == nil && st == sessionRunning {
		// Killed mid-prompt, say: the session resumes here, and this message goes
		// with the results of what it was doing to its next model call.
		var note string
		if note, err = d.resume(ctx, session, q.text); note != "" {
			dr.warnf("%s", note)
		}
		if err != nil && runEnded(err) {
			err = d.start(ctx, in)
		}
	} else if err == nil {
		err = d.start(ctx, in)
	}
	if err != nil {
		return dr.failed(start, session, fmt.Errorf("toolpipe: session %s: %w", session, err))
	}
	dr.remember(session)
	dr.mu.Lock()
	dr.current = p
	dr.mu.Unlock()
	dr.state(session, "running")
	_ = dr.ch.send(dr.initFor(p, in))
	f := newFollower(dr, p, from)
	res, ferr := f.follow(ctx)
	r := f.result(res, ferr)
	// The prompt is over before its result goes out: a set_model or
	// set_permission_mode the program sends on seeing it is for the next prompt
	// (dr.mode, dr.model), not for this run, which may have ended already.
	dr.mu.Lock()
	dr.current = nil
	dr.mu.Unlock()
	_ = dr.ch.send(r)
	dr.state(session, "idle")
	return r
}

// state sends Claude Code's session_state_changed, which the SDK reads to know
// when a prompt's run has ended (it does not pass it on to the program).
func (dr *driver) state(session, s string) {
	if dr.o.outputFormat != "stream-json" || dr.o.inputFormat != "stream-json" {
		return
	}
	_ = dr.ch.send(map[string]any{"type": "system", "subtype": "session_state_changed", "state": s,
		"sdk_host_only": true, "uuid": newUUID(), "session_id": session})
}

func (dr *driver) sessionOrNew() string {
	dr.mu.Lock()
	defer dr.mu.Unlock()
	if dr.session == "" {
		dr.session = dr.o.sessionID
		if dr.session == "" {
			dr.session = newUUID()
		}
	}
	return dr.session
}

// pickSession decides the session of the process at its first prompt: --resume's,
// the working directory's last (--continue), a fork of either (--fork-session,
// under --session-id or a new id), --session-id's, or a new one. fork is the
// session forked from, "" for none.
func (dr *driver) pickSession(ctx context.Context, d *durable) (session, fork string, err error) {
	dr.mu.Lock()
	defer dr.mu.Unlock()
	if dr.session != "" {
		return dr.session, "", nil
	}
	src := dr.o.resume
	if dr.o.continueLast {
		if src = dr.last(); src == "" {
			return "", "", errors.New("No conversation found to continue")
		}
	}
	if src != "" {
		if st, err := d.status(ctx, src); err != nil {
			return "", "", err
		} else if _, stored := d.head(src); st == sessionNone && !stored {
			return "", "", fmt.Errorf("No conversation found with session ID: %s", src)
		}
		if !dr.o.fork {
			dr.session = src
			return src, "", nil
		}
		fork = src
	}
	dr.session = dr.o.sessionID
	if dr.session == "" {
		dr.session = newUUID()
	} else if st, err := d.status(ctx, dr.session); err != nil {
		return "", "", err
	} else if _, stored := d.head(dr.session); st != sessionNone || stored {
		dr.session = ""
		return "", "", fmt.Errorf("Error: Session ID %s is already in use.", dr.o.sessionID)
	}
	return dr.session, fork, nil
}

// lastPath is where the working directory's last session is noted (--continue).
func (dr *driver) lastPath() string {
	sum := sha256.Sum256([]byte(dr.workdir))
	return filepath.Join(statedir.Dir(dr.cfg.StateDir).Claude(), "last", hex.EncodeToString(sum[:8]))
}

func (dr *driver) last() string {
	b, err := os.ReadFile(dr.lastPath())
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func (dr *driver) remember(session string) {
	path := dr.lastPath()
	if os.MkdirAll(filepath.Dir(path), 0o700) == nil {
		tmp := path + ".tmp"
		if os.WriteFile(tmp, []byte(session+"\n"), 0o600) == nil {
			_ = os.Rename(tmp, path)
		}
	}
}

// serveHooks starts the bridge of the SDK's hook callbacks for the session, once.
func (dr *driver) serveHooks(d *durable, session string) error {
	hooks, _, _, _ := dr.initState()
	dr.mu.Lock()
	defer dr.mu.Unlock()
	if len(hooks) == 0 || dr.bridge != nil {
		return nil
	}
	b, err := startHookBridge(dr.ch, d.stateDir(), session)
	if err != nil {
		return err
	}
	dr.bridge = b
	return nil
}

// input is the session input of a prompt, and the prompt it makes.
func (dr *driver) input(ctx context.Context, d *durable, session, text, fork string) (workflows.SessionInput, *prompt, error) {
	hooksReg, _, system, appendSys := dr.initState()
	dr.mu.Lock()
	mode, model := dr.mode, dr.model
	dr.mu.Unlock()
	if model == "" || model == "default" {
		model = dr.defaultModel()
	}
	pin := policyInput{workdir: dr.workdir, stateDir: d.stateDir(), session: session, mode: mode}
	if len(hooksReg) > 0 {
		sock, err := socketPath(d.stateDir(), session)
		if err != nil {
			return workflows.SessionInput{}, nil, err
		}
		key, err := bridgeKey(d.stateDir())
		if err != nil {
			return workflows.SessionInput{}, nil, err
		}
		var warnings []string
		pin.sdkHooks, warnings = hookGroups(hooksReg, dr.exe, sock, token(key, session))
		for _, w := range warnings {
			dr.warnf("%s", w)
		}
	}
	settings, warnings, err := turnSettings(dr.o, pin)
	if err != nil {
		return workflows.SessionInput{}, nil, err
	}
	for _, w := range warnings {
		dr.warnf("warning: %s", w)
	}
	settings.AskTimeout = dr.cfg.AskTimeout
	sys := agentprompt.Options{Workdir: dr.workdir, Home: home(), Now: time.Now(), System: dr.o.system, Append: dr.o.appendSystem}
	if system != nil && strings.TrimSpace(*system) != "" {
		sys.System = *system
	}
	if appendSys != nil {
		sys.Append = strings.TrimSpace(sys.Append + "\n\n" + *appendSys)
	}
	maxTurns := dr.o.maxTurns
	if maxTurns == 0 {
		maxTurns = defaultMaxTurns
	}
	_, mcp, err := dr.mcpSource(dr.workdir, mcpEnv(dr.cfg))
	if err != nil {
		return workflows.SessionInput{}, nil, err
	}
	in := workflows.SessionInput{
		SessionID: session, Prompt: text, Workdir: dr.workdir, MCP: mcp, Settings: settings,
		Model: workflows.ModelOptions{Model: model, MaxTokens: maxOutputTokens(), System: agentprompt.Build(sys)},
		Options: workflows.SessionOptions{MaxTurns: maxTurns, MaxBudgetUSD: dr.o.maxBudget,
			ModelHeartbeatTimeout: dr.cfg.HeartbeatTimeout, Turn: workflows.TurnOptions{HeartbeatTimeout: dr.cfg.HeartbeatTimeout}},
	}
	if p, ok := dr.cfg.Prices.Lookup(model); ok {
		in.Model.Price = &p
	}
	if fork != "" {
		f, err := forkOf(ctx, d, fork)
		if err != nil {
			return workflows.SessionInput{}, nil, err
		}
		in.Fork = f
	}
	p := &prompt{d: d, session: session, model: model, canAsk: dr.o.promptTool == "stdio" && !dr.o.promptsNobody}
	p.servers = dr.servers(ctx, d)
	return in, p, nil
}

// forkOf is what a fork of session src starts from: its conversation and budget
// state as its last prompt left them. A session still answering a prompt cannot
// be forked yet.
func forkOf(ctx context.Context, d *durable, src string) (*workflows.Fork, error) {
	st, err := d.status(ctx, src)
	if err != nil {
		return nil, err
	}
	if st == sessionRunning {
		return nil, fmt.Errorf("session %s is answering a prompt: fork it once that has its result", src)
	}
	if st == sessionClosed {
		if res, err := d.result(ctx, src); err == nil && res.Conversation.Len() > 0 {
			return &workflows.Fork{Conversation: res.Conversation, State: res.Budget}, nil
		}
	}
	h, ok := d.head(src)
	if !ok {
		return nil, fmt.Errorf("No conversation found with session ID: %s", src)
	}
	return &workflows.Fork{Conversation: h.Conversation}, nil
}

// servers are the MCP servers of the session and whether they connect, for
// system/init and mcp_status, when this process's worker runs them.
func (dr *driver) servers(ctx context.Context, d *durable) []mcpStatus {
	cfg, found, err := dr.mcpSource(dr.workdir, mcpEnv(dr.cfg))
	if err != nil || !found {
		return []mcpStatus{}
	}
	_, sdk, _, _ := dr.initState()
	failed := map[string]bool{}
	if d.local() {
		lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, failures, _ := d.mcp.ListTools(lctx, dr.workdir)
		cancel()
		for _, f := range failures {
			failed[f.Server] = true
		}
	}
	var out []mcpStatus
	for _, name := range cfg.Names() {
		s := mcpStatus{Name: name, Status: "connected"}
		if failed[name] {
			s.Status = "failed"
		}
		if slices.Contains(sdk, name) {
			s.Source = "sdk"
		}
		out = append(out, s)
	}
	for _, name := range cfg.RefusedNames() {
		out = append(out, mcpStatus{Name: name, Status: "failed"})
	}
	if out == nil {
		out = []mcpStatus{}
	}
	return out
}

// home is the user's home directory for ~/.claude/CLAUDE.md, or "".
func home() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return h
}
