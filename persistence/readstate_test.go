package persistence

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// Read state accumulates across runs of a session, concurrent runs included, and
// sessions do not see each other's.
func TestReadStateAccumulates(t *testing.T) {
	rs, err := NewReadState(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := rs.Load("s1"); err != nil || got != nil {
		t.Fatalf("new session: %v %v", got, err)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() { defer wg.Done(); rs.Add("s1", []string{fmt.Sprintf("/w/f%02d", i), "/w/shared"}) }()
	}
	wg.Wait()
	got, err := rs.Load("s1")
	if err != nil || len(got) != 21 || !slices.IsSorted(got) || !slices.Contains(got, "/w/f07") {
		t.Fatalf("s1: %v %v", got, err)
	}
	if other, _ := rs.Load("s2"); other != nil {
		t.Fatalf("s2 sees s1's files: %v", other)
	}
	if err := rs.Add("../x", []string{"/a"}); err == nil {
		t.Fatal("a session id that leaves the state directory was accepted")
	}
}
