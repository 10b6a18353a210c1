package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// The lines of the Claude Agent SDK's stream-json protocol (sdk.d.ts): what the SDK
// writes on the executable's stdin, and the envelopes of both directions' control
// messages. The messages toolpipe-claude writes are in stream.go.

// inbound is any line the SDK writes; Type says which fields mean something.
type inbound struct {
	Type string `json:"type"`
	// control_request
	RequestID string          `json:"request_id,omitempty"`
	Request   json.RawMessage `json:"request,omitempty"`
	// control_response
	Response *controlResponse `json:"response,omitempty"`
	// user
	Message         *userMessage `json:"message,omitempty"`
	ParentToolUseID *string      `json:"parent_tool_use_id,omitempty"`
	SessionID       string       `json:"session_id,omitempty"`
	UUID            string       `json:"uuid,omitempty"`
}

// userMessage is the Messages API user message of an SDKUserMessage: its content
// a string or content blocks.
type userMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text is the message's text: a string, or its text blocks joined. Other blocks
// (images, documents) are refused: a session's prompt is text, and dropping them
// would answer another question than the one asked.
func (m userMessage) text() (string, error) {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s, nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return "", fmt.Errorf("the user message's content is neither a string nor content blocks: %v", err)
	}
	var parts []string
	for _, b := range blocks {
		if b.Type != "text" {
			return "", fmt.Errorf("a %s block in a user message is not supported yet: toolpipe sessions take text prompts", b.Type)
		}
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n\n"), nil
}

// controlResponse is the response half of a control exchange, either direction.
type controlResponse struct {
	Subtype   string          `json:"subtype"` // success or error
	RequestID string          `json:"request_id"`
	Response  json.RawMessage `json:"response,omitempty"`
	Error     string          `json:"error,omitempty"`
}

// controlRequestHead is what every control request carries.
type controlRequestHead struct {
	Subtype string `json:"subtype"`
}

// initializeRequest is the SDK's first control request (SDKControlInitializeRequest).
type initializeRequest struct {
	Hooks              map[string][]hookMatcher   `json:"hooks"`
	SDKMCPServers      []string                   `json:"sdkMcpServers"`
	SystemPrompt       json.RawMessage            `json:"systemPrompt"`
	AppendSystemPrompt *string                    `json:"appendSystemPrompt"`
	Agents             map[string]json.RawMessage `json:"agents"`
	JSONSchema         json.RawMessage            `json:"jsonSchema"`
}

// hookMatcher is one SDKHookCallbackMatcher: the callbacks the SDK holds for a
// matcher, by id.
type hookMatcher struct {
	Matcher         string   `json:"matcher"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	Timeout         float64  `json:"timeout"`
}

// systemPrompt reads initialize's systemPrompt: absent (nil), or a string or
// strings (joined). The SDK sends [""] when the program gives none: Claude Code
// then runs with an empty custom prompt.
func (r initializeRequest) systemPrompt() (*string, error) {
	if len(r.SystemPrompt) == 0 || string(r.SystemPrompt) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(r.SystemPrompt, &s) == nil {
		return &s, nil
	}
	var parts []string
	if err := json.Unmarshal(r.SystemPrompt, &parts); err != nil {
		return nil, fmt.Errorf("initialize: systemPrompt is neither a string nor strings")
	}
	joined := strings.Join(parts, "\n\n")
	return &joined, nil
}

// newUUID is a random (version 4) UUID: session ids and message uuids.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func isUUID(s string) bool { return uuidRE.MatchString(s) }
