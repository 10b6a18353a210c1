package searchattr

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
)

// Mismatch is one of toolpipe's attributes that a namespace has with another type
// than toolpipe's (Registered).
type Mismatch struct {
	// Name is the attribute's name, one of the keys of Registered.
	Name string
	// Got is the type the namespace has, Want the one toolpipe upserts.
	Got, Want enumspb.IndexedValueType
}

// Ensure adds to the namespace those of toolpipe's search attributes (Registered)
// it lacks, and returns their names, sorted (nil when it lacked none). The embedded
// server (package devserver) and scripts/clusterctl both call it, so a namespace
// gets the same attributes from either.
//
// An attribute the namespace has with another type is passed to onMismatch, in name
// order, before anything is added: Ensure never changes a type (that takes a new
// namespace or database, a person's call), and each caller decides whether it is
// fatal. An error from onMismatch stops Ensure and is returned as is; nil goes on.
// Another client adding the same attributes meanwhile (AlreadyExists) is no error.
func Ensure(ctx context.Context, op operatorservice.OperatorServiceClient, namespace string,
	onMismatch func(Mismatch) error) (added []string, err error) {
	resp, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return nil, fmt.Errorf("list search attributes of %q: %w", namespace, err)
	}
	want := Registered()
	missing := map[string]enumspb.IndexedValueType{}
	// Name order, so that a caller that stops at the first mismatch names the same
	// one every time.
	for _, name := range slices.Sorted(maps.Keys(want)) {
		got, ok := resp.GetCustomAttributes()[name]
		switch {
		case !ok:
			missing[name] = want[name]
		case got != want[name]:
			if err := onMismatch(Mismatch{Name: name, Got: got, Want: want[name]}); err != nil {
				return nil, err
			}
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	_, err = op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: missing})
	var exists *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return nil, fmt.Errorf("add search attributes to %q: %w", namespace, err)
	}
	return slices.Sorted(maps.Keys(missing)), nil
}
