// Command clusterctl does the little administration scripts/cluster.sh needs on the
// Temporal server it runs, which the server's own binaries cannot do (that is the
// `temporal` CLI's job, and the CLI is not in this module): wait for the frontend,
// register the namespace with toolpipe's search attributes, and check it.
//
//	clusterctl ensure-namespace --address 127.0.0.1:7233 --namespace default
//	clusterctl check --address 127.0.0.1:7233 --namespace default
//
// Both are idempotent; ensure-namespace returns once the namespace serves requests.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"time"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/toolpipe/toolpipe/searchattr"
)

// searchAttributes are the ones the embedded server registers for toolpipe's
// namespace too (both take them from package searchattr, a leaf that does not link
// the Temporal server into this small tool), so a turn behaves the same on either.
var searchAttributes = searchattr.Registered()

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	addr := fs.String("address", "127.0.0.1:7233", "the frontend's host:port")
	ns := fs.String("namespace", "default", "the namespace")
	retention := fs.Duration("retention", 72*time.Hour, "workflow retention of a namespace this registers")
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for the frontend")
	_ = fs.Parse(os.Args[2:])

	ctx, cancel := context.WithTimeout(context.Background(), *wait)
	defer cancel()
	var err error
	switch os.Args[1] {
	case "ensure-namespace":
		err = ensureNamespace(ctx, *addr, *ns, *retention)
	case "check":
		err = check(ctx, *addr, *ns)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "clusterctl %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: clusterctl ensure-namespace|check [--address HOST:PORT] [--namespace NS] [--wait DURATION]")
	os.Exit(2)
}

// dial connects to the frontend, retrying while it starts up (connection refused,
// or the server still joining its own ring) until ctx is done.
func dial(ctx context.Context, addr, ns string) (client.Client, error) {
	quiet := log.NewStructuredLogger(slog.New(slog.DiscardHandler))
	for {
		c, err := client.DialContext(ctx, client.Options{HostPort: addr, Namespace: ns, Logger: quiet})
		if err == nil {
			return c, nil
		}
		if retry(ctx, err) != nil {
			return nil, fmt.Errorf("frontend at %s: %w", addr, err)
		}
	}
}

// retry sleeps a little before the next attempt, or says why there is none.
func retry(ctx context.Context, err error) error {
	select {
	case <-ctx.Done():
		return err
	case <-time.After(500 * time.Millisecond):
		return nil
	}
}

func ensureNamespace(ctx context.Context, addr, ns string, retention time.Duration) error {
	c, err := dial(ctx, addr, ns)
	if err != nil {
		return err
	}
	defer c.Close()
	wf := c.WorkflowService()
	_, err = wf.DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: ns})
	var notFound *serviceerror.NamespaceNotFound
	switch {
	case errors.As(err, &notFound):
		_, err = wf.RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
			Namespace:                        ns,
			Description:                      "toolpipe turns",
			WorkflowExecutionRetentionPeriod: durationpb.New(retention),
		})
		// AlreadyExists: another clusterctl registered it in the meantime.
		var exists *serviceerror.NamespaceAlreadyExists
		if err != nil && !errors.As(err, &exists) {
			return fmt.Errorf("register namespace %q: %w", ns, err)
		}
		if err == nil {
			fmt.Printf("registered namespace %q\n", ns)
		}
	case err != nil:
		return fmt.Errorf("describe namespace %q: %w", ns, err)
	}
	// A namespace just registered reaches the services' namespace caches a little
	// later: wait until a request that goes through them succeeds, before adding
	// search attributes (which needs it too) and before the worker polls it.
	for {
		_, err := wf.CountWorkflowExecutions(ctx, &workflowservice.CountWorkflowExecutionsRequest{Namespace: ns})
		if err == nil {
			break
		}
		if retry(ctx, err) != nil {
			return fmt.Errorf("namespace %q registered but not serving: %w", ns, err)
		}
	}
	return ensureSearchAttributes(ctx, c.OperatorService(), ns)
}

// ensureSearchAttributes adds those of toolpipe's search attributes the namespace
// lacks (searchattr.Ensure); one registered with another type is an error a person
// must resolve.
func ensureSearchAttributes(ctx context.Context, op operatorservice.OperatorServiceClient, ns string) error {
	added, err := searchattr.Ensure(ctx, op, ns, func(m searchattr.Mismatch) error {
		return fmt.Errorf("search attribute %s of namespace %q is %s, toolpipe needs %s", m.Name, ns, m.Got, m.Want)
	})
	if err != nil {
		return err
	}
	if len(added) > 0 {
		fmt.Printf("added search attributes %v to namespace %q\n", added, ns)
	}
	return nil
}

// check says whether the frontend answers and the namespace exists with toolpipe's
// search attributes, without waiting for a server that is not there.
func check(ctx context.Context, addr, ns string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, client.Options{HostPort: addr, Namespace: ns,
		Logger: log.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		return fmt.Errorf("frontend at %s: %w", addr, err)
	}
	defer c.Close()
	d, err := c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: ns})
	if err != nil {
		return fmt.Errorf("namespace %q: %w", ns, err)
	}
	fmt.Printf("frontend %s serves namespace %q (retention %s)\n", addr, ns,
		d.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration())
	resp, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
	if err != nil {
		return fmt.Errorf("list search attributes of %q: %w", ns, err)
	}
	for _, name := range slices.Sorted(maps.Keys(searchAttributes)) {
		got, ok := resp.GetCustomAttributes()[name]
		if !ok || got != searchAttributes[name] {
			return fmt.Errorf("namespace %q lacks search attribute %s (%s): run scripts/cluster.sh up", ns, name, searchAttributes[name])
		}
		fmt.Printf("search attribute %s %s\n", name, got)
	}
	return nil
}
