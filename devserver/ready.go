package devserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/toolpipe/toolpipe/searchattr"
)

// awaitFrontend returns once the frontend serves requests for the namespace,
// then makes sure toolpipe's search attributes exist on it. The server's
// Start returns when its services are started, which is not quite the same
// as the frontend answering, and callers dial it right away.
func awaitFrontend(ctx context.Context, addr, namespace string, logger *slog.Logger) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("devserver: dial frontend: %w", err)
	}
	defer conn.Close()

	wf := workflowservice.NewWorkflowServiceClient(conn)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		callCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := wf.DescribeNamespace(callCtx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
		cancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return fmt.Errorf("devserver: wait for frontend at %s: %w", addr, errors.Join(ctx.Err(), err))
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	return ensureSearchAttributes(ctx, operatorservice.NewOperatorServiceClient(conn), namespace, logger)
}

// ensureSearchAttributes adds any of toolpipe's search attributes the
// namespace lacks (searchattr.Ensure). New namespaces get them when they are
// created; this covers a namespace that existed before toolpipe first ran on the
// database, for example one created by `temporal server start-dev` on the same file.
func ensureSearchAttributes(ctx context.Context, op operatorservice.OperatorServiceClient, namespace string, logger *slog.Logger) error {
	_, err := searchattr.Ensure(ctx, op, namespace, func(m searchattr.Mismatch) error {
		// Not fatal: the server still runs, only queries on this attribute
		// behave differently. Changing a type means a new database, which is
		// the user's call, not ours.
		logger.Warn("devserver: search attribute has an unexpected type",
			"namespace", namespace, "name", m.Name, "type", m.Got.String(), "want", m.Want.String())
		return nil
	})
	if err != nil {
		return fmt.Errorf("devserver: %w", err)
	}
	return nil
}
