package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/toolpipe/toolpipe/tool"
)

// messageMemo is the memo key holding the digest of the message a turn was started
// with: a re-run whose ids name an existing turn attaches only when it carries the
// same message.
const messageMemo = "toolpipe.message"

// turnID derives a turn's workflow id from the session and the message's tool_use
// ids, so that re-running the same message attaches to the same turn (DESIGN §7).
// Each id is length-prefixed: no id can contain a separator that makes two
// different lists hash alike ("p\nq" is not ["p", "q"]).
func turnID(session string, blocks []tool.Block) string {
	h := sha256.New()
	io.WriteString(h, "ids/v2\x00")
	for _, b := range blocks {
		writeField(h, []byte(b.ID))
	}
	return fmt.Sprintf("turn-%s-%s", session, hex.EncodeToString(h.Sum(nil))[:24])
}

// legacyTurnID is the id turns had before it was length-prefixed: a turn still
// running under it (started by an older starter) is attached to.
func legacyTurnID(session string, blocks []tool.Block) string {
	h := sha256.New()
	for _, b := range blocks {
		io.WriteString(h, b.ID+"\n")
	}
	return fmt.Sprintf("turn-%s-%s", session, hex.EncodeToString(h.Sum(nil))[:20])
}

// messageDigest identifies the message itself: each block's id, name and input
// (compacted, so whitespace does not count), each field length-prefixed.
func messageDigest(blocks []tool.Block) string {
	h := sha256.New()
	io.WriteString(h, "message/v1\x00")
	for _, b := range blocks {
		writeField(h, []byte(b.ID))
		writeField(h, []byte(b.Name))
		var in bytes.Buffer
		if json.Compact(&in, b.Input) != nil {
			in.Reset()
			in.Write(b.Input)
		}
		writeField(h, in.Bytes())
		if b.InputBytes > 0 { // dropped for its size: its answer depends on the size alone
			writeField(h, []byte(fmt.Sprintf("dropped input of %d bytes", b.InputBytes)))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}

// turnCollisionError is bad input: the ids name a turn of this session that was
// started with another message.
func turnCollisionError(session, id string, blocks []tool.Block) error {
	ids := make([]string, 0, len(blocks))
	for _, b := range blocks {
		ids = append(ids, fmt.Sprintf("%q", b.ID))
	}
	return badInput("session %q already has turn %s with tool_use ids %s from a different message: ids name a turn within a session, "+
		"so give this message fresh tool_use ids or run it with another --session (re-running the same message attaches to that turn)",
		session, id, strings.Join(ids, ", "))
}

// sameMessage reports whether the existing workflow id was started with the
// message whose digest is want. A turn without the memo (a Session's child turn, or
// one started by an older starter) cannot be told apart and counts as the same.
func sameMessage(ctx context.Context, c client.Client, id, want string) (bool, error) {
	d, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return false, fmt.Errorf("describe turn %s: %w", id, err)
	}
	p := d.GetWorkflowExecutionInfo().GetMemo().GetFields()[messageMemo]
	if p == nil {
		return true, nil
	}
	var got string
	if err := converter.GetDefaultDataConverter().FromPayload(p, &got); err != nil {
		return false, fmt.Errorf("turn %s: its message digest: %w", id, err)
	}
	return got == want, nil
}

// runningLegacyTurn reports whether a turn with the pre-v2 id for these blocks is
// still running, so that a re-run across an upgrade resumes it instead of running
// its tools again.
func runningLegacyTurn(ctx context.Context, c client.Client, id string) bool {
	d, err := c.DescribeWorkflowExecution(ctx, id, "")
	return err == nil && d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
}
