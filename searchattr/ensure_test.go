package searchattr_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/server/temporaltest"

	"github.com/toolpipe/toolpipe/searchattr"
)

// Ensure against a real (in-memory) server: a mismatch is reported before anything
// is added and an error from the caller stops it; otherwise it adds exactly the
// missing attributes, and a second call adds nothing.
func TestEnsure(t *testing.T) {
	srv := temporaltest.NewServer(temporaltest.WithT(t))
	op := srv.GetDefaultClient().OperatorService()
	ns := srv.GetDefaultNamespace()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Status with the wrong type, SessionID missing.
	if _, err := op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: ns,
		SearchAttributes: map[string]enumspb.IndexedValueType{searchattr.Status: enumspb.INDEXED_VALUE_TYPE_TEXT}}); err != nil {
		t.Fatal(err)
	}
	attrs := func() map[string]enumspb.IndexedValueType {
		t.Helper()
		resp, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetCustomAttributes()
	}

	stop := errors.New("stop")
	added, err := searchattr.Ensure(ctx, op, ns, func(searchattr.Mismatch) error { return stop })
	if !errors.Is(err, stop) || added != nil {
		t.Fatalf("Ensure with a failing onMismatch = %v, %v; want its error", added, err)
	}
	if _, ok := attrs()[searchattr.SessionID]; ok {
		t.Fatalf("%s added although onMismatch stopped Ensure", searchattr.SessionID)
	}

	var seen []searchattr.Mismatch
	added, err = searchattr.Ensure(ctx, op, ns, func(m searchattr.Mismatch) error { seen = append(seen, m); return nil })
	if err != nil || !slices.Equal(added, []string{searchattr.FailedCalls, searchattr.ParentSession, searchattr.SessionID}) {
		t.Fatalf("Ensure = %v, %v; want [%s %s %s] added", added, err, searchattr.FailedCalls, searchattr.ParentSession, searchattr.SessionID)
	}
	want := searchattr.Mismatch{Name: searchattr.Status, Got: enumspb.INDEXED_VALUE_TYPE_TEXT, Want: enumspb.INDEXED_VALUE_TYPE_KEYWORD}
	if len(seen) != 1 || seen[0] != want {
		t.Fatalf("mismatches %+v, want %+v", seen, want)
	}
	got := attrs()
	if got[searchattr.SessionID] != enumspb.INDEXED_VALUE_TYPE_KEYWORD || got[searchattr.Status] != enumspb.INDEXED_VALUE_TYPE_TEXT {
		t.Fatalf("attributes after Ensure: %v (the mismatched type must stay)", got)
	}

	added, err = searchattr.Ensure(ctx, op, ns, func(searchattr.Mismatch) error { return nil })
	if err != nil || added != nil {
		t.Fatalf("second Ensure = %v, %v; want nothing added", added, err)
	}
}
