package persistence

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

// A payload over MaxPayloadBytes is refused before anything is written, and a
// stored one over it (a client that does not drop oversize inputs) is refused
// before it is read, with an error that names the limit.
func TestPayloadDriverRefusesOversizePayloads(t *testing.T) {
	dir := t.TempDir()
	d, err := NewPayloadDriver(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Store(converter.StorageDriverStoreContext{}, []*commonpb.Payload{{Data: make([]byte, MaxPayloadBytes+1)}})
	var big *PayloadTooLargeError
	if !errors.As(err, &big) || !strings.Contains(err.Error(), "payload store's limit of 67108864 bytes") {
		t.Fatalf("store: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("the refused payload left %d files", len(ents))
	}
	name := strings.Repeat("ab", 32)
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(MaxPayloadBytes + 1) // sparse: what is refused is never read
	f.Close()
	_, err = d.Retrieve(converter.StorageDriverRetrieveContext{}, []converter.StorageDriverClaim{{ClaimData: map[string]string{payloadClaimKey: name}}})
	if !errors.As(err, &big) {
		t.Fatalf("retrieve: %v", err)
	}
}
