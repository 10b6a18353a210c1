package main

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/toolpipe/toolpipe/hooks"
)

// The Claude Agent SDK's hooks registered in code (initialize's hooks: callbacks
// the SDK holds, by id) run in the SDK's process. toolpipe runs hooks as command
// hooks in the Turn's and Session's hook activities, so each callback becomes a
// command hook that runs this executable as a bridge (hookCommandName): it hands
// the hook input to the toolpipe-claude process over a Unix socket, which asks
// the SDK (hook_callback) and answers with the callback's output, the JSON
// output of Claude Code's command hooks. The hooks run where toolpipe runs hooks,
// durably, with the inputs toolpipe gives hooks.

// hookCommandName is the hidden first argument that runs the bridge.
const hookCommandName = "__hook-callback"

// hookBridge serves the bridge's socket for one session.
type hookBridge struct {
	ch   *channel
	path string
	key  []byte
	ln   net.Listener
	wg   sync.WaitGroup
}

// bridgeRequest is what the bridge command sends; bridgeReply what it gets.
type bridgeRequest struct {
	Token      string          `json:"token"`
	CallbackID string          `json:"callback_id"`
	Input      json.RawMessage `json:"input"`
}

type bridgeReply struct {
	Output json.RawMessage `json:"output,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// socketPath is the bridge socket of a session: the same for every process that
// serves it (a resumed session's hooks were configured by the first), in a
// directory only this user reaches, short enough for a socket's 108 bytes.
func socketPath(stateDir, session string) (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("toolpipe-claude-%d", os.Getuid()))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(stateDir + "\x00" + session))
	return filepath.Join(dir, hex.EncodeToString(sum[:8])+".sock"), nil
}

// bridgeKey is the state directory's key for the bridge tokens, made on first use:
// a token in a hook command (which the history shows) opens only its session's
// socket, and a later process of the same state directory accepts it.
func bridgeKey(stateDir string) ([]byte, error) {
	path := filepath.Join(stateDir, "claude", "hook-key")
	if b, err := os.ReadFile(path); err == nil && len(b) >= 32 {
		return b, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return os.ReadFile(path) // another process made it first
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Write(key); err != nil {
		return nil, err
	}
	return key, nil
}

func token(key []byte, session string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(session))
	return hex.EncodeToString(m.Sum(nil))
}

// startHookBridge listens on the session's socket. A socket left by a process that
// died is replaced; one that a live process serves is left to it (attach).
func startHookBridge(ch *channel, stateDir, session string) (*hookBridge, error) {
	path, err := socketPath(stateDir, session)
	if err != nil {
		return nil, fmt.Errorf("hook bridge: %w", err)
	}
	key, err := bridgeKey(stateDir)
	if err != nil {
		return nil, fmt.Errorf("hook bridge: %w", err)
	}
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return nil, fmt.Errorf("hook bridge: another toolpipe-claude process serves session %s's hooks (%s)", session, path)
	}
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("hook bridge: %w", err)
	}
	b := &hookBridge{ch: ch, path: path, key: key, ln: ln}
	b.wg.Add(1)
	go b.serve(token(key, session))
	return b, nil
}

func (b *hookBridge) serve(want string) {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return
		}
		go b.handle(c, want)
	}
}

func (b *hookBridge) handle(c net.Conn, want string) {
	defer c.Close()
	var req bridgeRequest
	if err := json.NewDecoder(io.LimitReader(c, 64<<20)).Decode(&req); err != nil {
		_ = json.NewEncoder(c).Encode(bridgeReply{Error: "bad request: " + err.Error()})
		return
	}
	if !hmac.Equal([]byte(req.Token), []byte(want)) {
		_ = json.NewEncoder(c).Encode(bridgeReply{Error: "this socket serves another session's hooks"})
		return
	}
	var in struct {
		ToolUseID string `json:"tool_use_id"`
	}
	_ = json.Unmarshal(req.Input, &in)
	r := map[string]any{"subtype": "hook_callback", "callback_id": req.CallbackID, "input": req.Input}
	if in.ToolUseID != "" {
		r["tool_use_id"] = in.ToolUseID
	}
	// The hook's own timeout (the hook command is killed) bounds the wait.
	out, err := b.ch.request(context.Background(), r)
	reply := bridgeReply{Output: out}
	if err != nil {
		reply = bridgeReply{Error: err.Error()}
	}
	_ = json.NewEncoder(c).Encode(reply)
}

func (b *hookBridge) close() {
	if b == nil {
		return
	}
	b.ln.Close()
	b.wg.Wait()
	_ = os.Remove(b.path)
}

// hookGroups are the SDK's callbacks as command hooks of the bridge, by event.
// Events toolpipe does not run are named in the warnings.
func hookGroups(registered map[string][]hookMatcher, exe, sock, tok string) (hooks.Config, []string) {
	var cfg hooks.Config
	var warnings []string
	names := make([]string, 0, len(registered))
	for name := range registered {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		e := hooks.Event(name)
		if !slices.Contains(hooks.Events, e) {
			warnings = append(warnings, fmt.Sprintf("hooks of the event %s registered in code are not run: toolpipe runs %s", name, eventNames()))
			continue
		}
		for _, m := range registered[name] {
			g := hooks.Group{Matcher: m.Matcher}
			for _, id := range m.HookCallbackIDs {
				g.Hooks = append(g.Hooks, hooks.Command{Type: hooks.TypeCommand, Timeout: m.Timeout,
					Command: shellQuote(exe, hookCommandName, sock, tok, id)})
			}
			cfg.Add(e, g)
		}
	}
	return cfg, warnings
}

func eventNames() string {
	var s []string
	for _, e := range hooks.Events {
		s = append(s, string(e))
	}
	return strings.Join(s, ", ")
}

// shellQuote joins words into a command line bash reads back as those words.
func shellQuote(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// runHookCallback is the bridge command: the hook input on stdin goes to the
// process serving sock, the callback's output to stdout (exit 0); a failure is
// one line on stderr and exit 1, which toolpipe reports without blocking, as a
// failing command hook.
func runHookCallback(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 3 {
		fmt.Fprintln(stderr, "toolpipe-claude: "+hookCommandName+" takes SOCKET TOKEN CALLBACK_ID")
		return 1
	}
	input, err := io.ReadAll(stdin)
	if err != nil || !json.Valid(input) {
		fmt.Fprintln(stderr, "toolpipe-claude: the hook input on stdin is not JSON")
		return 1
	}
	c, err := net.Dial("unix", args[0])
	if err != nil {
		fmt.Fprintf(stderr, "toolpipe-claude: the SDK's hook %s is not reachable: no toolpipe-claude process serves this session now (%v)\n", args[2], err)
		return 1
	}
	defer c.Close()
	if err := json.NewEncoder(c).Encode(bridgeRequest{Token: args[1], CallbackID: args[2], Input: input}); err != nil {
		fmt.Fprintln(stderr, "toolpipe-claude: hook bridge:", err)
		return 1
	}
	var reply bridgeReply
	if err := json.NewDecoder(c).Decode(&reply); err != nil {
		fmt.Fprintln(stderr, "toolpipe-claude: hook bridge: no answer:", err)
		return 1
	}
	if reply.Error != "" {
		fmt.Fprintf(stderr, "toolpipe-claude: the SDK's hook %s failed: %s\n", args[2], reply.Error)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", reply.Output)
	return 0
}
