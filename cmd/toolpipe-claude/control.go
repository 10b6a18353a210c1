package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/toolpipe/toolpipe/workflows"
)

// The control requests the SDK sends (sdk.d.ts SDKControlRequestInner) that
// toolpipe-claude answers; any other subtype gets a control error naming it, so a
// program that calls an unsupported method fails at once instead of hanging.
var controlHandlers = map[string]func(dr *driver, id string, raw json.RawMessage){
	"initialize":              (*driver).initialize,
	"interrupt":               (*driver).interruptRequest,
	"set_permission_mode":     (*driver).setPermissionMode,
	"set_model":               (*driver).setModel,
	"set_max_thinking_tokens": func(dr *driver, id string, _ json.RawMessage) { _ = dr.ch.respond(id, struct{}{}) },
	"mcp_status":              (*driver).mcpStatus,
	"rewind_files": func(dr *driver, id string, _ json.RawMessage) {
		_ = dr.ch.respondError(id, "rewind_files is not supported by toolpipe-claude yet: rewind the session's files with `starter agent rewind SESSION --to N --code` (turn numbers from `starter agent history SESSION`)")
	},
}

// control answers one control request.
func (dr *driver) control(id string, raw json.RawMessage) {
	var head controlRequestHead
	if err := json.Unmarshal(raw, &head); err != nil || head.Subtype == "" {
		_ = dr.ch.respondError(id, "the control request has no subtype (request: {\"subtype\": ...})")
		return
	}
	h, ok := controlHandlers[head.Subtype]
	if !ok {
		_ = dr.ch.respondError(id, fmt.Sprintf("toolpipe-claude does not support the control request %q; it supports %s",
			head.Subtype, strings.Join(supportedControls(), ", ")))
		return
	}
	if head.Subtype == "initialize" {
		h(dr, id, raw) // before any later line: the first prompt must see it
		return
	}
	go h(dr, id, raw)
}

func supportedControls() []string {
	var names []string
	for n := range controlHandlers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// initialize records the SDK's hooks, in-process MCP servers and system prompt
// and answers with what this executable offers.
func (dr *driver) initialize(id string, raw json.RawMessage) {
	var req initializeRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		_ = dr.ch.respondError(id, "initialize: "+err.Error())
		return
	}
	system, err := req.systemPrompt()
	if err != nil {
		_ = dr.ch.respondError(id, err.Error())
		return
	}
	if len(req.JSONSchema) > 0 && string(req.JSONSchema) != "null" {
		_ = dr.ch.respondError(id, "initialize: structured output (jsonSchema) is not supported yet by toolpipe-claude")
		return
	}
	dr.imu.Lock()
	again := dr.initialized
	if !again {
		dr.initialized = true
		dr.sdkHooks, dr.sdkMCP, dr.system, dr.appendSys = req.Hooks, req.SDKMCPServers, system, req.AppendSystemPrompt
	}
	dr.imu.Unlock()
	if len(req.Agents) > 0 {
		var names []string
		for n := range req.Agents {
			names = append(names, n)
		}
		slices.Sort(names)
		dr.warnf("custom agents (%s) are not supported: the Task tool runs a general-purpose sub-agent", strings.Join(names, ", "))
	}
	resp := map[string]any{
		"commands":                []any{},
		"agents":                  []any{map[string]string{"name": "general-purpose", "description": "toolpipe's sub-agent (the Task tool)"}},
		"output_style":            "default",
		"available_output_styles": []string{"default"},
		"models":                  []any{map[string]any{"value": "default", "resolvedModel": dr.defaultModel(), "displayName": "Default", "description": "toolpipe-claude's model (--model, ANTHROPIC_MODEL)"}},
		"account":                 map[string]string{"tokenSource": "none", "apiKeySource": "ANTHROPIC_API_KEY", "apiProvider": "firstParty"},
		"pid":                     os.Getpid(),
		"claude_code_version":     claudeCodeVersion,
		"current_permission_mode": dr.currentMode(),
		"session_state":           "idle",
		"capabilities":            []string{"interrupt_receipt_v1"},
	}
	if len(req.Hooks) > 0 {
		resp["hooks_applied"] = !again
	}
	_ = dr.ch.respond(id, resp)
}

func (dr *driver) currentMode() string {
	dr.mu.Lock()
	defer dr.mu.Unlock()
	if dr.mode == "" {
		return "default"
	}
	return dr.mode
}

// interruptRequest stops the running prompt: its cancel-able tools stop, and it
// ends once the turn has its results, without another model call.
func (dr *driver) interruptRequest(id string, _ json.RawMessage) {
	dr.mu.Lock()
	p := dr.current
	dr.mu.Unlock()
	if p != nil {
		p.interrupted.Store(true)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := p.d.interrupt(ctx, p.session); err != nil {
			_ = dr.ch.respondError(id, "interrupt: "+err.Error())
			return
		}
	}
	_ = dr.ch.respond(id, map[string]any{"still_queued": []string{}})
}

// setPermissionMode changes the mode of the turns to come: the running prompt's
// next turn, and every later prompt.
func (dr *driver) setPermissionMode(id string, raw json.RawMessage) {
	var req struct {
		Mode string `json:"mode"`
	}
	_ = json.Unmarshal(raw, &req)
	mode, err := claudeMode(req.Mode)
	if err != nil {
		_ = dr.ch.respondError(id, "set_permission_mode: "+err.Error())
		return
	}
	dr.mu.Lock()
	dr.mode = mode
	p := dr.current
	dr.mu.Unlock()
	if err := dr.configure(p, workflows.ConfigureRequest{PermissionMode: mode}); err != nil {
		_ = dr.ch.respondError(id, "set_permission_mode: "+err.Error())
		return
	}
	_ = dr.ch.respond(id, struct{}{})
}

// setModel changes the model of the calls to come; none is the default model.
func (dr *driver) setModel(id string, raw json.RawMessage) {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(raw, &req)
	dr.mu.Lock()
	dr.model = req.Model
	p := dr.current
	dr.mu.Unlock()
	model := req.Model
	if model == "" || model == "default" {
		model = dr.defaultModel()
	}
	if err := dr.configure(p, workflows.ConfigureRequest{Model: model}); err != nil {
		_ = dr.ch.respondError(id, "set_model: "+err.Error())
		return
	}
	_ = dr.ch.respond(id, struct{}{})
}

// configure passes a change on to the running prompt's session, if any.
func (dr *driver) configure(p *prompt, req workflows.ConfigureRequest) error {
	if p == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := p.d.configure(ctx, p.session, req)
	if err != nil && runEnded(err) {
		return nil // the prompt ended meanwhile: the next one starts with the change
	}
	return err
}

// runEnded says err is the session's run having ended before a change reached it:
// its loop had stopped (the update's validator says so) or its workflow had
// completed (the server's NotFound, "workflow execution already completed").
func runEnded(err error) bool {
	var nf *serviceerror.NotFound
	return errors.As(err, &nf) || strings.Contains(err.Error(), "has ended")
}

// mcpStatus lists the MCP servers of the session and how they are.
func (dr *driver) mcpStatus(id string, _ json.RawMessage) {
	dr.mu.Lock()
	var servers []mcpStatus
	if dr.current != nil {
		servers = dr.current.servers
	}
	dr.mu.Unlock()
	if servers == nil {
		servers = []mcpStatus{}
	}
	_ = dr.ch.respond(id, map[string]any{"mcpServers": servers})
}
