package toolpipe

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"

	"github.com/toolpipe/toolpipe/tool"
)

// messageMemo is the memo key holding the digest of the message a turn was started
// with: a re-run whose ids name an existing turn attaches only when it carries the
// same message.
const messageMemo = "toolpipe.message"

// TurnID is the workflow id StartTurn gives the turn of these blocks in session
// sessionID: turn-<session>-<hash of the tool_use ids>, so that running the same
// message again attaches to the same turn (DESIGN §7). It depends on the ids only
// (a streamed message is named by its first block, before the rest is known).
// Each id is length-prefixed: no id can contain a separator that makes two
// different lists hash alike ("p\nq" is not ["p", "q"]).
func TurnID(sessionID string, blocks []Block) string {
	ids := make([]tool.Block, len(blocks))
	for i, b := range blocks {
		ids[i] = tool.Block{ID: b.ID}
	}
	return turnID(sessionID, ids)
}

func turnID(session string, blocks []tool.Block) string {
	h := sha256.New()
	io.WriteString(h, "ids/v2\x00")
	for _, b := range blocks {
		writeField(h, []byte(b.ID))
	}
	return fmt.Sprintf("turn-%s-%s", session, hex.EncodeToString(h.Sum(nil))[:24])
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

// sameMessage reports whether the memo of an existing turn holds the digest want.
// A turn without the memo (a Session's child turn, or one started before the memo
// existed) cannot be told apart and counts as the same.
func sameMessage(memo *commonpb.Memo, id, want string) (bool, error) {
	p := memo.GetFields()[messageMemo]
	if p == nil {
		return true, nil
	}
	var got string
	if err := converter.GetDefaultDataConverter().FromPayload(p, &got); err != nil {
		return false, fmt.Errorf("turn %s: its message digest: %w", id, err)
	}
	return got == want, nil
}
