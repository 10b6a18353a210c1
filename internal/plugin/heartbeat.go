package plugin

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The SDK cancels an activity's context as soon as one heartbeat RPC fails with a
// transient error (the server restarting, a second of network trouble): the tool's
// process group is killed although the server would have waited for the whole
// heartbeat timeout. blipProof decouples the tool's lifetime from that. Heartbeats go
// out through the worker's client, and the tool's context ends only when
//   - the server answers that the activity is cancelled (a sibling's failure, an
//     interrupt), paused, reset or gone (timed out, its workflow closed);
//   - the heartbeat timeout has passed since the server last heard from it, so the
//     server has given up on this attempt anyway;
//   - the SDK ends it for its own reasons: the activity's deadline, worker shutdown.
//
// A definitive answer is handed to the SDK's own heartbeat once, so the SDK's
// context carries the server's cancellation and the activity is reported as
// cancelled, not failed, exactly as before.
type blipProof struct {
	interceptor.WorkerInterceptorBase
}

// heartbeatGap is the least time between two heartbeat RPCs of one activity: the
// tools record one every 500 ms (activities.heartbeatEvery), which bounds how fast a
// cancelled sibling learns it.
const heartbeatGap = 400 * time.Millisecond

// retryEvery is how often a heartbeat is tried again while the server is away.
const retryEvery = time.Second

// rpcTimeout bounds one heartbeat RPC.
const rpcTimeout = 2 * time.Second

// timeoutSlack is added to the heartbeat timeout before a tool that cannot reach the
// server stops: the server measures from the last heartbeat it received, which may
// be a little later than the last answer that came back.
const timeoutSlack = 2 * time.Second

func (*blipProof) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &blipInbound{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}}
}

type blipInbound struct {
	interceptor.ActivityInboundInterceptorBase
	out *blipOutbound
}

func (b *blipInbound) Init(outbound interceptor.ActivityOutboundInterceptor) error {
	b.out = &blipOutbound{ActivityOutboundInterceptorBase: interceptor.ActivityOutboundInterceptorBase{Next: outbound}}
	return b.Next.Init(b.out)
}

// beatKey finds an activity's beater in the context its code runs with.
type beatKey struct{}

func (b *blipInbound) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	info := activity.GetInfo(ctx)
	if info.IsLocalActivity || info.HeartbeatTimeout <= 0 || len(info.TaskToken) == 0 {
		return b.Next.ExecuteActivity(ctx, in)
	}
	// The tool's context keeps the activity's values and deadline but not its
	// cancellation, which beater.watch passes on when it is real.
	runCtx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	if d, ok := ctx.Deadline(); ok {
		var stopDeadline context.CancelFunc
		runCtx, stopDeadline = context.WithDeadline(runCtx, d)
		defer stopDeadline()
	}
	bt := &beater{
		sdkCtx: ctx, next: b.out.Next, client: activity.GetClient(ctx), token: info.TaskToken,
		timeout: info.HeartbeatTimeout, cancel: cancel, wake: make(chan struct{}, 1), done: make(chan struct{}),
		lastOK: time.Now(),
	}
	runCtx = context.WithValue(runCtx, beatKey{}, bt)
	go bt.watch()
	go bt.send()
	defer func() {
		close(bt.done)
		cancel(context.Canceled)
	}()
	res, err := b.Next.ExecuteActivity(runCtx, in)
	// The SDK reports what it ended itself (a cancellation the server asked for,
	// the deadline, the worker's shutdown, which the liveness interceptor types);
	// a context it ended only because one heartbeat RPC failed says nothing.
	sdkEnded := bt.sdkCtx.Err() == context.DeadlineExceeded || bt.sdkCtx.Err() != nil && !transientRPC(context.Cause(bt.sdkCtx))
	if errors.Is(err, activity.ErrResultPending) || sdkEnded || !bt.report(info, res, err) {
		return res, err
	}
	return nil, activity.ErrResultPending // reported: the SDK has nothing left to send
}

// report completes the attempt with the tool's outcome itself, trying for as long
// as the server would wait for it (the heartbeat timeout), and says whether that
// was done. The SDK gives the report of a result one RPC timeout (10 s) and then
// drops it, so a tool that ended while the server was away for longer (an
// embedded server being taken over under load, a cluster's frontend restarting)
// was lost although its result was there, and the server then failed the attempt
// as lost. It is the one RPC the SDK would have sent, through the same client and
// converters; the SDK is then told the result is pending and sends nothing. An
// attempt the server no longer knows (it gave up on it, or a try whose answer was
// lost reported it) needs nothing more.
func (bt *beater) report(info activity.Info, res any, err error) bool {
	ctx, cancel := context.WithTimeout(context.Background(), bt.timeout+timeoutSlack)
	defer cancel()
	opts := client.CompleteActivityOptions{TaskToken: bt.token, Result: res, Err: err,
		Namespace: info.WorkflowNamespace, WorkflowID: info.WorkflowExecution.ID, WorkflowType: info.WorkflowType.Name,
		ActivityType: info.ActivityType.Name, TaskQueue: info.TaskQueue}
	for {
		// One try waits for the connection up to the SDK's RPC timeout and is not
		// retried past it (a deadline is not a retryable code): the tries are ours.
		rerr := bt.client.CompleteActivityWithOptions(ctx, opts)
		var notFound *serviceerror.NotFound
		switch {
		case rerr == nil || errors.As(rerr, &notFound):
			return true // reported, or reported already by a try whose answer was lost
		case !transientRPC(rerr):
			return false // the SDK's own report says what is wrong with it
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(retryEvery):
		}
	}
}

type blipOutbound struct {
	interceptor.ActivityOutboundInterceptorBase
}

// RecordHeartbeat hands the details to the activity's beater, which sends them.
func (o *blipOutbound) RecordHeartbeat(ctx context.Context, details ...any) {
	if bt, ok := ctx.Value(beatKey{}).(*beater); ok {
		bt.record(details)
		return
	}
	o.Next.RecordHeartbeat(ctx, details...)
}

// beater sends one activity's heartbeats and decides when its tool must stop.
type beater struct {
	sdkCtx  context.Context
	next    interceptor.ActivityOutboundInterceptor
	client  client.Client
	token   []byte
	timeout time.Duration
	cancel  context.CancelCauseFunc
	wake    chan struct{}
	done    chan struct{}

	mu      sync.Mutex
	details []any
	fresh   bool
	lastOK  time.Time
}

func (bt *beater) record(details []any) {
	bt.mu.Lock()
	bt.details, bt.fresh = details, true
	bt.mu.Unlock()
	select {
	case bt.wake <- struct{}{}:
	default:
	}
}

// watch passes the SDK's cancellation on unless it only says that one heartbeat
// RPC failed for a transient reason.
func (bt *beater) watch() {
	select {
	case <-bt.done:
	case <-bt.sdkCtx.Done():
		cause := context.Cause(bt.sdkCtx)
		if bt.sdkCtx.Err() == context.DeadlineExceeded || !transientRPC(cause) {
			bt.cancel(cause)
		}
	}
}

// send heartbeats when the tool records one (at most every heartbeatGap), and every
// retryEvery while the server does not answer.
func (bt *beater) send() {
	failing := false
	var retry <-chan time.Time
	for {
		select {
		case <-bt.done:
			return
		case <-bt.wake:
		case <-retry:
		}
		bt.mu.Lock()
		details, fresh := bt.details, bt.fresh
		bt.fresh = false
		bt.mu.Unlock()
		if !fresh && !failing {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), rpcTimeout)
		err := bt.client.RecordActivityHeartbeat(ctx, bt.token, details...)
		cancel()
		switch {
		case err == nil:
			failing, retry = false, nil
			bt.mu.Lock()
			bt.lastOK = time.Now()
			bt.mu.Unlock()
		case definitive(err):
			// The SDK's own heartbeat hears the same answer and cancels its context
			// with it, so the activity is reported as the server expects.
			bt.next.RecordHeartbeat(bt.sdkCtx, details...)
			bt.cancel(err)
			return
		default:
			failing, retry = true, time.After(retryEvery)
			bt.mu.Lock()
			silent := time.Since(bt.lastOK)
			bt.mu.Unlock()
			if silent > bt.timeout+timeoutSlack {
				bt.cancel(fmt.Errorf("the server has not answered a heartbeat for %v, longer than the heartbeat timeout (%v): it has given up on this attempt: %w",
					silent.Round(time.Second), bt.timeout, err))
				return
			}
		}
		select {
		case <-bt.done:
			return
		case <-time.After(heartbeatGap):
		}
	}
}

// definitive reports whether a heartbeat's answer says the activity must stop.
func definitive(err error) bool {
	var notFound *serviceerror.NotFound
	var nsNotActive *serviceerror.NamespaceNotActive
	var nsNotFound *serviceerror.NamespaceNotFound
	return temporal.IsCanceledError(err) || errors.Is(err, activity.ErrActivityPaused) || errors.Is(err, activity.ErrActivityReset) ||
		errors.As(err, &notFound) || errors.As(err, &nsNotActive) || errors.As(err, &nsNotFound)
}

// transientRPC reports whether err is a failed RPC that a retry could get through:
// the server away, restarting or overloaded.
func transientRPC(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var code codes.Code
	var svc interface{ Status() *status.Status }
	if s, ok := status.FromError(err); ok {
		code = s.Code()
	} else if errors.As(err, &svc) {
		code = svc.Status().Code()
	} else {
		return false
	}
	switch code {
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted, codes.Internal, codes.Unknown:
		return true
	}
	return false
}
