package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolpipe/toolpipe/mcptools"
)

// The Claude Agent SDK's in-process MCP servers (createSdkMcpServer) run in the
// SDK's process: Claude Code reaches them with mcp_message control requests, each
// carrying one JSON-RPC message, whose response carries the server's answer. Here
// such a server is an mcptools server whose Dial gives a transport over the same
// control channel, so the worker's MCPCall activity calls it like any other: a
// durable activity, one attempt when the tool is not read-only, its call in the
// history.

// sdkServers are the SDK's in-process servers of this process, as mcptools
// servers.
func sdkServers(ch *channel, names []string) mcptools.Config {
	cfg := mcptools.Config{Servers: map[string]mcptools.Server{}}
	for _, name := range names {
		cfg.Servers[name] = mcptools.Server{Type: "sdk", Dial: func(context.Context) (mcp.Transport, error) {
			return &sdkTransport{ch: ch, server: name}, nil
		}}
	}
	return cfg
}

// sdkTransport is an mcp.Transport to one of the SDK's servers.
type sdkTransport struct {
	ch     *channel
	server string
}

func (t *sdkTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cctx, cancel := context.WithCancel(context.Background())
	return &sdkConn{ch: t.ch, server: t.server, in: make(chan jsonrpc.Message, 16), ctx: cctx, cancel: cancel}, nil
}

// sdkConn is the connection: a request written is a control request, its answer
// the message read next; a notification is sent and its placeholder answer
// dropped.
type sdkConn struct {
	ch     *channel
	server string
	in     chan jsonrpc.Message
	ctx    context.Context
	cancel context.CancelFunc
	once   sync.Once
}

func (c *sdkConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.ctx.Done():
		return nil, mcp.ErrConnectionClosed
	}
}

func (c *sdkConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	raw, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	req, isRequest := msg.(*jsonrpc.Request)
	isCall := isRequest && req.ID.IsValid()
	go func() {
		resp, err := c.ch.request(c.ctx, map[string]any{"subtype": "mcp_message", "server_name": c.server, "message": json.RawMessage(raw)})
		if !isCall {
			return // the SDK answers a notification (or a response of ours) with a placeholder
		}
		answer, aerr := sdkAnswer(resp, err)
		if aerr != nil {
			// The call fails as a JSON-RPC error of its own: the server is still there.
			answer = &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
				Message: fmt.Sprintf("the SDK's MCP server %s did not answer: %v", c.server, aerr)}}
		}
		select {
		case c.in <- answer:
		case <-c.ctx.Done():
		}
	}()
	return nil
}

// sdkAnswer decodes an mcp_message response: {"mcp_response": <JSON-RPC message>}.
func sdkAnswer(resp json.RawMessage, err error) (jsonrpc.Message, error) {
	if err != nil {
		return nil, err
	}
	var r struct {
		MCPResponse json.RawMessage `json:"mcp_response"`
	}
	if err := json.Unmarshal(resp, &r); err != nil || len(r.MCPResponse) == 0 {
		return nil, errors.New("the response has no mcp_response")
	}
	return jsonrpc.DecodeMessage(r.MCPResponse)
}

func (c *sdkConn) Close() error {
	c.once.Do(c.cancel)
	return nil
}

func (c *sdkConn) SessionID() string { return "" }
