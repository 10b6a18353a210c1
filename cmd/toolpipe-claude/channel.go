package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// channel is stdout, one JSON object a line, and the control requests toolpipe-claude
// sends the SDK over it (can_use_tool, hook_callback, mcp_message), whose answers
// come back on stdin as control_response lines. Writes are serialised: the
// follower, the hook and MCP bridges and the control handlers all write.
type channel struct {
	mu  sync.Mutex
	out io.Writer
	err error // the first write error: the reader has gone

	pmu     sync.Mutex
	next    int
	pending map[string]chan controlResponse
	done    chan struct{} // closed when stdin ends: no answer will come
	ended   bool
}

func newChannel(out io.Writer) *channel {
	return &channel{out: out, pending: map[string]chan controlResponse{}, done: make(chan struct{})}
}

// send writes v as one line.
func (c *channel) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	if _, err := c.out.Write(append(b, '\n')); err != nil {
		c.err = fmt.Errorf("stdout: %w", err)
		return c.err
	}
	return nil
}

// respond answers the SDK's control request id with a success.
func (c *channel) respond(id string, response any) error {
	raw, err := json.Marshal(response)
	if err != nil {
		return err
	}
	return c.send(map[string]any{"type": "control_response",
		"response": controlResponse{Subtype: "success", RequestID: id, Response: raw}})
}

// respondError answers the SDK's control request id with an error.
func (c *channel) respondError(id, msg string) error {
	return c.send(map[string]any{"type": "control_response",
		"response": controlResponse{Subtype: "error", RequestID: id, Error: msg}})
}

// errNoSDK: stdin has ended, so no control request can be answered.
var errNoSDK = errors.New("the SDK has closed stdin: no control request can be answered")

// request sends a control request and waits for its answer. When ctx ends first,
// the SDK is told to drop it (control_cancel_request).
func (c *channel) request(ctx context.Context, req any) (json.RawMessage, error) {
	c.pmu.Lock()
	if c.ended {
		c.pmu.Unlock()
		return nil, errNoSDK
	}
	c.next++
	id := "tpc-" + strconv.Itoa(c.next)
	ch := make(chan controlResponse, 1)
	c.pending[id] = ch
	c.pmu.Unlock()
	defer func() {
		c.pmu.Lock()
		delete(c.pending, id)
		c.pmu.Unlock()
	}()
	if err := c.send(map[string]any{"type": "control_request", "request_id": id, "request": req}); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		if r.Subtype == "error" {
			return nil, fmt.Errorf("the SDK answered with an error: %s", r.Error)
		}
		return r.Response, nil
	case <-ctx.Done():
		_ = c.send(map[string]any{"type": "control_cancel_request", "request_id": id})
		return nil, ctx.Err()
	case <-c.done:
		return nil, errNoSDK
	}
}

// deliver routes the SDK's answer to the request waiting for it; false when no
// request of that id waits (never sent, or answered already).
func (c *channel) deliver(r controlResponse) bool {
	c.pmu.Lock()
	ch, ok := c.pending[r.RequestID]
	if ok {
		delete(c.pending, r.RequestID)
	}
	c.pmu.Unlock()
	if ok {
		ch <- r
	}
	return ok
}

// end says stdin has ended: waiting requests fail, new ones are refused.
func (c *channel) end() {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if !c.ended {
		c.ended = true
		close(c.done)
	}
}
