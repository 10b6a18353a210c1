package blobstore_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

const oid = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestKeysRoundTrip(t *testing.T) {
	k := key(t)
	for _, tc := range []struct {
		key  blobstore.Key
		want string
		kind blobstore.Kind
	}{
		{k(blobstore.PayloadKey(oid)), "payloads/" + oid, blobstore.KindPayload},
		{k(blobstore.ToolResultKey("s", "toolu_1", false)), "s/tool-results/toolu_1.txt", blobstore.KindToolResult},
		{k(blobstore.ToolResultKey("s", "toolu_1", true)), "s/tool-results/toolu_1.json", blobstore.KindToolResult},
		{k(blobstore.MessageKey("s", 12)), "s/conversation/000012.json", blobstore.KindConversationMessage},
		{k(blobstore.MessageKey("s", 1234567)), "s/conversation/1234567.json", blobstore.KindConversationMessage},
		{k(blobstore.PartialKey("s", 3)), "s/conversation/000003.partial.json", blobstore.KindConversationPartial},
		{k(blobstore.RecordsKey("s", 3)), "s/conversation/records/000003.json", blobstore.KindConversationRecords},
		{k(blobstore.HeadKey("s")), "s/conversation/head.json", blobstore.KindConversationHead},
		{k(blobstore.TranscriptKey("s")), "s/transcript.jsonl", blobstore.KindTranscript},
		{k(blobstore.ReadStateKey("s")), "s/read-state.json", blobstore.KindReadState},
		{k(blobstore.BackgroundOutputKey("s", "b1")), "s/tasks/b1.output", blobstore.KindBackgroundOutput},
		{k(blobstore.CheckpointObjectKey(oid)), "checkpoints/objects/01/" + oid[2:], blobstore.KindCheckpointObject},
		{k(blobstore.CheckpointRecordKey("s", oid)), "s/checkpoints/" + oid + ".json", blobstore.KindCheckpointRecord},
		{k(blobstore.PlacementKey("s", 2)), "s/placement/2.json", blobstore.KindPlacement},
	} {
		if tc.key.String() != tc.want || tc.key.Kind() != tc.kind {
			t.Errorf("key %s (%v), want %s (%v)", tc.key, tc.key.Kind(), tc.want, tc.kind)
		}
		back, err := blobstore.ParseKey(tc.want)
		if err != nil || back != tc.key {
			t.Errorf("ParseKey(%s) = %+v, %v; want %+v", tc.want, back, err, tc.key)
		}
	}
}

func TestKeysRefuseWhatIsNotOneElement(t *testing.T) {
	for what, err := range map[string]error{
		"session ..":        second(blobstore.HeadKey("..")),
		"session with /":    second(blobstore.ReadStateKey("a/b")),
		"session with \\":   second(blobstore.ReadStateKey(`a\b`)),
		"empty session":     second(blobstore.MessageKey("", 1)),
		"control character": second(blobstore.HeadKey("a\tb")),
		"tool id ..":        second(blobstore.ToolResultKey("s", "..", false)),
		"negative seq":      second(blobstore.MessageKey("s", -1)),
		"short hash":        second(blobstore.PayloadKey("abc")),
		"upper-case hash":   second(blobstore.CheckpointObjectKey(strings.ToUpper(oid))),
		"transcript ..":     second(blobstore.TranscriptKey("..")),
		"task id with /":    second(blobstore.BackgroundOutputKey("s", "x/y")),
		"long session":      second(blobstore.HeadKey(strings.Repeat("s", 201))),
	} {
		if !errors.Is(err, blobstore.ErrInvalidKey) {
			t.Errorf("%s: %v, want ErrInvalidKey", what, err)
		}
	}
	for _, s := range []string{"", "x", "s/unknown.json", "s/conversation/12.json", "s/conversation/+00012.json",
		"payloads/abc", "checkpoints/objects/0/" + oid, "s/tool-results/x.bin", "../x/head.json", "s/conversation/records/x.json"} {
		if _, err := blobstore.ParseKey(s); !errors.Is(err, blobstore.ErrInvalidKey) {
			t.Errorf("ParseKey(%q): %v, want ErrInvalidKey", s, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// A session's placement records are listed under one prefix, and each listed key
// gives its generation back; nothing else under the prefix is taken for one.
func TestPlacementPrefixAndGeneration(t *testing.T) {
	prefix, err := blobstore.PlacementPrefix("s")
	if err != nil || prefix != "s/placement/" {
		t.Fatalf("PlacementPrefix = %q, %v", prefix, err)
	}
	for _, gen := range []int{1, 2, 17} {
		k, err := blobstore.PlacementKey("s", gen)
		if err != nil || !strings.HasPrefix(k.String(), prefix) {
			t.Fatalf("PlacementKey(%d) = %v, %v: not under %s", gen, k, err, prefix)
		}
		if g, ok := blobstore.PlacementGeneration(k.String()); !ok || g != gen {
			t.Errorf("PlacementGeneration(%s) = %d, %v", k, g, ok)
		}
	}
	for _, bad := range []string{"s/placement/x.json", "s/placement/0.json", "s/placement/3.tmp", "s/placement/-1.json"} {
		if g, ok := blobstore.PlacementGeneration(bad); ok {
			t.Errorf("PlacementGeneration(%s) = %d, want no generation", bad, g)
		}
	}
	if _, err := blobstore.PlacementPrefix("a/b"); err == nil {
		t.Error("PlacementPrefix of a session id with a separator: no error")
	}
}
