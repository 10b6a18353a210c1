package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/mcptools"
)

// driver is one toolpipe-claude process: Claude Code's options, the control
// channel to the SDK, and the durable session whose prompts it answers.
type driver struct {
	o       options
	cfg     config.Config
	log     *slog.Logger
	ch      *channel
	stderr  io.Writer
	workdir string
	exe     string
	// mcpExtra are --mcp-config's servers.
	mcpExtra mcptools.Config

	// What initialize said (the SDK's hooks, in-process MCP servers, system
	// prompt), read once the first prompt starts.
	imu         sync.Mutex
	initialized bool
	sdkHooks    map[string][]hookMatcher
	sdkMCP      []string
	system      *string
	appendSys   *string

	dOnce sync.Once
	d     *durable
	dErr  error

	mu      sync.Mutex
	session string // chosen by the first prompt
	mode    string // the permission mode the next prompt starts with ("" : the settings')
	model   string
	current *prompt // the prompt being answered, if any
	bridge  *hookBridge

	prompts chan queued
}

// queued is one user message to answer, or why it cannot be.
type queued struct {
	text string
	err  error
	uuid string
}

func newDriver(o options, cfg config.Config, log *slog.Logger, out, stderr io.Writer, workdir, exe string, mcpExtra mcptools.Config) *driver {
	return &driver{o: o, cfg: cfg, log: log, ch: newChannel(out), stderr: stderr, workdir: workdir, exe: exe,
		mcpExtra: mcpExtra, mode: o.mode, model: o.model, prompts: make(chan queued, 64)}
}

func (dr *driver) warnf(format string, args ...any) {
	fmt.Fprintf(dr.stderr, "toolpipe-claude: "+format+"\n", args...)
}

// read takes stdin's stream-json lines until it ends: user messages go to the
// prompt queue in order, control requests are answered, control responses go to
// the requests waiting for them. A line that is not understood is reported on
// stderr (or answered with a control error when it is a request) and skipped:
// nothing on stdin stops a running session.
func (dr *driver) read(r io.Reader) {
	defer close(dr.prompts)
	defer dr.ch.end()
	br := bufio.NewReaderSize(r, 1<<20)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			dr.line(n, line)
		}
		if err != nil {
			if err != io.EOF {
				dr.warnf("stdin: %v", err)
			}
			return
		}
	}
}

// line handles one stdin line.
func (dr *driver) line(n int, line []byte) {
	var in inbound
	if err := json.Unmarshal(line, &in); err != nil {
		dr.warnf("stdin line %d is not a JSON object (%v): ignored", n, err)
		return
	}
	switch in.Type {
	case "user":
		if in.Message == nil {
			dr.prompts <- queued{err: fmt.Errorf("stdin line %d: a user message without \"message\"", n), uuid: in.UUID}
			return
		}
		text, err := in.Message.text()
		if err == nil && strings.TrimSpace(text) == "" {
			err = fmt.Errorf("the user message is empty")
		}
		if dr.o.replayUser {
			_ = dr.ch.send(json.RawMessage(bytes.TrimSpace(line)))
		}
		dr.prompts <- queued{text: text, err: err, uuid: in.UUID}
	case "control_request":
		if in.RequestID == "" {
			dr.warnf("stdin line %d: a control_request without request_id: ignored", n)
			return
		}
		dr.control(in.RequestID, in.Request)
	case "control_response":
		if in.Response == nil || !dr.ch.deliver(*in.Response) {
			id := ""
			if in.Response != nil {
				id = in.Response.RequestID
			}
			dr.warnf("stdin line %d: a control_response for request %q, which toolpipe-claude never sent or had its answer to: ignored", n, id)
		}
	case "control_cancel_request", "keep_alive", "update_environment_variables":
		// Requests are answered at once; nothing to cancel. The others carry nothing
		// toolpipe-claude uses.
	default:
		dr.warnf("stdin line %d: a message of type %q is not part of the protocol toolpipe-claude speaks: ignored", n, in.Type)
	}
}

// hasInit reads what initialize said.
func (dr *driver) initState() (hooks map[string][]hookMatcher, sdkMCP []string, system, appendSys *string) {
	dr.imu.Lock()
	defer dr.imu.Unlock()
	return dr.sdkHooks, dr.sdkMCP, dr.system, dr.appendSys
}

// durable connects once, with a worker of this process when the SDK's hooks or
// servers live here.
func (dr *driver) durable(ctx context.Context) (*durable, error) {
	dr.dOnce.Do(func() {
		hooks, sdk, _, _ := dr.initState()
		dr.d, dr.dErr = openDurable(ctx, dr.cfg, dr.log, len(hooks) > 0 || len(sdk) > 0, dr.mcpSource)
	})
	return dr.d, dr.dErr
}

// mcpSource is the worker's MCP servers: the working directory's .mcp.json
// (unless --strict-mcp-config), --mcp-config's, and the SDK's in-process ones.
func (dr *driver) mcpSource(workdir string, env mcptools.Env) (mcptools.Config, bool, error) {
	var base mcptools.Config
	found := false
	if !dr.o.strictMCP {
		var err error
		if base, found, err = mcptools.Load(workdir, env); err != nil {
			return base, found, err
		}
	}
	_, sdk, _, _ := dr.initState()
	cfg := mcptools.Merge(mcptools.Merge(base, dr.mcpExtra), sdkServers(dr.ch, sdk))
	return cfg, found || len(cfg.Servers) > 0 || len(cfg.Refused) > 0, nil
}

// run answers the queued prompts in order until stdin ends and the last is
// answered. It returns whether the last result was an error: Claude Code then
// exits with status 1, in every input format (the SDK reports the result's
// errors as the query's failure).
func (dr *driver) run(ctx context.Context) (lastError bool) {
	defer func() {
		dr.mu.Lock()
		b := dr.bridge
		dr.mu.Unlock()
		b.close()
		if dr.d != nil {
			dr.d.close()
		}
	}()
	for q := range dr.prompts {
		if ctx.Err() != nil {
			return true
		}
		lastError = dr.answer(ctx, q).IsError
	}
	return lastError
}
