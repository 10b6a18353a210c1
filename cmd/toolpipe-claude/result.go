package main

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/mcptools"
	"github.com/toolpipe/toolpipe/modelinfo"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// resultMessage is the SDK's SDKResultMessage, with every field Claude Code
// 2.1.328 fills (so that a script reading one finds it), and toolpipe's own:
// what underneath was interrupted.
type resultMessage struct {
	Type              string                `json:"type"`
	Subtype           string                `json:"subtype"`
	IsError           bool                  `json:"is_error"`
	DurationMS        int64                 `json:"duration_ms"`
	DurationAPIMS     int64                 `json:"duration_api_ms"`
	NumTurns          int                   `json:"num_turns"`
	Result            *string               `json:"result,omitempty"`
	StopReason        *string               `json:"stop_reason"`
	SessionID         string                `json:"session_id"`
	TotalCostUSD      float64               `json:"total_cost_usd"`
	Usage             resultUsage           `json:"usage"`
	ModelUsage        map[string]modelUsage `json:"modelUsage"`
	PermissionDenials []permissionDenial    `json:"permission_denials"`
	Errors            []string              `json:"errors,omitempty"`
	TerminalReason    string                `json:"terminal_reason"`
	FastModeState     string                `json:"fast_mode_state"`
	FastModeDisabled  string                `json:"fast_mode_disabled_reason"`
	UUID              string                `json:"uuid"`
	QueuedTurnCount   int                   `json:"queued_turn_count"`
	ResultIndex       int                   `json:"result_index"`
	SafetyStops       int                   `json:"safety_stops"`
	SubagentStats     subagentStats         `json:"subagent_stats"`
	// ModelUsageSince is modelUsage since the previous result: a prompt's, as
	// each prompt is a run of the session.
	ModelUsageSince map[string]modelUsage `json:"model_usage_since_last_result"`
	// The timings of a success, from the prompt's start (toolpipe measures no
	// time to first token: the model activity streams inside the worker).
	*successTimings
	// Toolpipe is what toolpipe adds: the calls a lost worker interrupted (they
	// are not run again), the session's workflow.
	Toolpipe *resultToolpipe `json:"toolpipe,omitempty"`
}

// successTimings are the fields only a success result has.
type successTimings struct {
	APIErrorStatus      *int  `json:"api_error_status"`
	TTFTMS              int64 `json:"ttft_ms"`
	TTFTStreamMS        int64 `json:"ttft_stream_ms"`
	TimeToRequestMS     int64 `json:"time_to_request_ms"`
	FirstContentFrameMS int64 `json:"first_content_frame_ms"`
}

// subagentStats is Claude Code's tally of sub-agents; toolpipe's Task sub-agents
// are not counted (zeros).
type subagentStats struct {
	Spawned             int            `json:"spawned"`
	Requested           map[string]int `json:"requested"`
	StartedInBackground int            `json:"started_in_background"`
	MaxDepth            int            `json:"max_depth"`
	SpawnedBySubagents  int            `json:"spawned_by_subagents"`
	Completed           int            `json:"completed"`
	Failed              int            `json:"failed"`
	Killed              map[string]int `json:"killed"`
	Refused             map[string]int `json:"refused"`
	ByType              map[string]int `json:"by_type"`
}

func newSubagentStats() subagentStats {
	return subagentStats{Requested: map[string]int{"background": 0, "foreground": 0, "unset": 0},
		Killed: map[string]int{"parent": 0, "user": 0, "system": 0}, ByType: map[string]int{},
		Refused: map[string]int{"depth_limit": 0, "concurrency_limit": 0, "budget": 0}}
}

type resultToolpipe struct {
	Workflow    string            `json:"workflow"`
	Interrupted []interruptedCall `json:"interrupted,omitempty"`
}

// interruptedCall is a call whose worker was lost while it ran: it may have run in
// part, and it was not run again.
type interruptedCall struct {
	ToolUseID string `json:"tool_use_id"`
	Tool      string `json:"tool"`
	Message   string `json:"message"`
}

type resultUsage struct {
	InputTokens              int64            `json:"input_tokens"`
	CacheCreationInputTokens int64            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64            `json:"cache_read_input_tokens"`
	OutputTokens             int64            `json:"output_tokens"`
	OutputTokensDetails      map[string]int64 `json:"output_tokens_details"`
	ServerToolUse            map[string]int   `json:"server_tool_use"`
	ServiceTier              string           `json:"service_tier"`
	CacheCreation            map[string]int64 `json:"cache_creation"`
	InferenceGeo             string           `json:"inference_geo"`
	Iterations               []any            `json:"iterations"`
	Speed                    string           `json:"speed"`
	FallbackCredit           any              `json:"fallback_credit"`
}

type modelUsage struct {
	InputTokens              int64   `json:"inputTokens"`
	OutputTokens             int64   `json:"outputTokens"`
	CacheReadInputTokens     int64   `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64   `json:"cacheCreationInputTokens"`
	WebSearchRequests        int     `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
	ContextWindow            int     `json:"contextWindow"`
	MaxOutputTokens          int     `json:"maxOutputTokens"`
	ThinkingTokens           int64   `json:"thinkingTokens"`
	CacheCreation5m          int64   `json:"cacheCreationEphemeral5mInputTokens"`
	CacheCreation1h          int64   `json:"cacheCreationEphemeral1hInputTokens"`
	CanonicalModel           string  `json:"canonicalModel"`
	Provider                 string  `json:"provider"`
	CostBasis                string  `json:"costBasis"`
}

type permissionDenial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

func usageOf(u conversation.Usage) resultUsage {
	return resultUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens, CacheReadInputTokens: u.CacheReadInputTokens,
		OutputTokensDetails: map[string]int64{"thinking_tokens": 0},
		ServerToolUse:       map[string]int{"web_search_requests": 0, "web_fetch_requests": 0}, ServiceTier: "standard",
		CacheCreation: map[string]int64{"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": u.CacheCreationInputTokens},
		Iterations:    []any{}, Speed: "standard"}
}

// newResult is a result with its fixed fields filled.
func newResult(session, subtype string, isError bool, start time.Time) resultMessage {
	return resultMessage{Type: "result", Subtype: subtype, IsError: isError, SessionID: session, UUID: newUUID(),
		DurationMS: time.Since(start).Milliseconds(), ModelUsage: map[string]modelUsage{}, PermissionDenials: []permissionDenial{},
		ModelUsageSince: map[string]modelUsage{}, Usage: usageOf(conversation.Usage{}), TerminalReason: "completed",
		FastModeState: "off", FastModeDisabled: "sdk_opt_in_required", SubagentStats: newSubagentStats()}
}

// failed sends the result of a prompt that could not run, and returns it.
func (dr *driver) failed(start time.Time, session string, err error) resultMessage {
	r := newResult(session, "error_during_execution", true, start)
	r.Errors, r.TerminalReason = []string{err.Error()}, "error"
	dr.warnf("%v", err)
	_ = dr.ch.send(r)
	dr.state(session, "idle")
	return r
}

// initFor is the prompt's system/init.
func (dr *driver) initFor(p *prompt, in workflows.SessionInput) initMessage {
	var tools []string
	disabled := func(name string) bool {
		return in.Settings != nil && in.Settings.Permissions != nil && in.Settings.Permissions.Disables(name)
	}
	if !disabled("Task") {
		tools = append(tools, tool.TaskName)
	}
	for _, n := range activities.Builtins().Names() {
		if !disabled(n) {
			tools = append(tools, n)
		}
	}
	if p.d.local() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		specs, _, err := p.d.mcp.ListTools(ctx, dr.workdir)
		cancel()
		if err == nil {
			for _, s := range specs {
				if !disabled(s.Name) {
					tools = append(tools, s.Name)
				}
			}
		}
	}
	mode := "default"
	if in.Settings != nil && in.Settings.Permissions != nil {
		mode = in.Settings.Permissions.Mode.String()
	}
	var dirs []string
	if in.Settings != nil && in.Settings.Permissions != nil {
		for _, d := range in.Settings.Permissions.AdditionalDirs {
			if !slices.Contains(dirs, d) && d != dr.workdir {
				dirs = append(dirs, d)
			}
		}
	}
	if dirs == nil {
		dirs = []string{}
	}
	return initMessage{Type: "system", Subtype: "init", CWD: dr.workdir, SessionID: p.session, Tools: tools,
		MCPServers: p.servers, Model: p.model, PermissionMode: mode, SlashCommands: []string{}, APIKeySource: "ANTHROPIC_API_KEY",
		ClaudeCodeVersion: claudeCodeVersion, OutputStyle: "default", Agents: []string{"general-purpose"}, Skills: []string{},
		Plugins: []plugin{}, Capabilities: []string{"interrupt_receipt_v1"}, UUID: newUUID(), AdditionalDirs: dirs,
		FastModeState: "off", Toolpipe: &toolpipeInfo{Workflow: p.d.workflowID(p.session), StateDir: p.d.stateDir()}}
}

// modelUsageOf is the result's modelUsage of one model.
func modelUsageOf(model string, u conversation.Usage, cost float64) map[string]modelUsage {
	info, _ := modelinfo.Lookup(model)
	return map[string]modelUsage{model: {InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadInputTokens: u.CacheReadInputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens,
		CostUSD: cost, ContextWindow: info.ContextWindow, MaxOutputTokens: maxOutputTokens(),
		CacheCreation5m: u.CacheCreationInputTokens, CanonicalModel: model, Provider: "firstParty", CostBasis: "list"}}
}

func mcpEnv(cfg config.Config) mcptools.Env { return mcptools.Env{Allow: cfg.MCPEnvAllow} }
