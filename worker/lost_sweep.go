package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
)

// sweepFor bounds how long a sweep keeps trying while the server is away (an
// embedded server being taken over by another client takes a few seconds).
const sweepFor = 2 * time.Minute

// sweepRetry is the pause between two tries of a sweep that met an absent server.
const sweepRetry = 500 * time.Millisecond

// sweepLost declares lost the running tools of every dead worker of the state
// directory on this kernel, or of a kernel gone since on a local file system
// (lost.go), retrying while the server is unreachable. It
// returns how many attempts it failed.
func sweepLost(ctx context.Context, stateDir string, c client.Client, log *slog.Logger) int {
	ctx, cancel := context.WithTimeout(ctx, sweepFor)
	defer cancel()
	total := 0
	for {
		n, again := sweepOnce(ctx, stateDir, c, log)
		total += n
		if !again {
			return total
		}
		select {
		case <-ctx.Done():
			log.Warn("worker: gave up declaring a dead worker's tools lost; their heartbeat timeout will", "error", ctx.Err())
			return total
		case <-time.After(sweepRetry):
		}
	}
}

// sweepOnce goes through the workers' directories once; again is true when one
// could not be finished because the server did not answer.
func sweepOnce(ctx context.Context, stateDir string, c client.Client, log *slog.Logger) (failed int, again bool) {
	root := filepath.Join(stateDir, workersDir)
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0, false // no worker ever ran here
	}
	boot := bootID()
	shared := onSharedFS(root) // one file system for the whole of workers/
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if strings.HasPrefix(e.Name(), ".new-") {
			// Only where this kernel's clock dates it: on a shared file system the
			// server's clock does, and a worker elsewhere may still be creating it.
			if !shared {
				removeAbandoned(filepath.Join(root, e.Name()))
			}
			continue
		}
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		n, retry := sweepDir(ctx, filepath.Join(root, e.Name()), boot, shared, c, log)
		failed += n
		again = again || retry
	}
	return failed, again
}

// sweepDir fails the recorded attempts of one worker's directory if its lock is
// free, i.e. its process is dead. It holds that lock meanwhile, so two sweeps never
// work on one directory. shared says workers/ is on a file system other kernels may
// mount (onSharedFS), where another boot's worker may be alive elsewhere.
func sweepDir(ctx context.Context, dir, boot string, shared bool, c client.Client, log *slog.Logger) (failed int, again bool) {
	var o owner
	if b, err := os.ReadFile(filepath.Join(dir, "owner.json")); err != nil || json.Unmarshal(b, &o) != nil {
		return 0, false
	}
	// A worker of another kernel on a shared file system may be alive: its lock
	// proves nothing here. On a local one, that kernel is gone (the machine
	// rebooted), and its workers with it.
	otherBoot := o.BootID != boot
	if otherBoot && shared {
		return 0, false
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR, 0)
	if err != nil {
		return 0, false // removed by a sweep that just finished
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return 0, false // alive (or stalled, or being swept): not ours to judge
	}
	// What the dead worker's tools started dies before the model hears they were
	// interrupted, so that running them again does not run them twice. The groups of
	// a kernel that is gone died with it; their numbers may name others' now.
	if !otherBoot {
		killGroups(dir, log)
	}
	running := filepath.Join(dir, "running")
	recs, err := os.ReadDir(running)
	if err != nil {
		return 0, false // already swept and removed before we locked
	}
	for _, f := range recs {
		path := filepath.Join(running, f.Name())
		var r record
		if b, err := os.ReadFile(path); err != nil || json.Unmarshal(b, &r) != nil {
			_ = os.Remove(path) // torn by the death it records: nothing to act on
			continue
		}
		done, err := declareLost(ctx, c, r, o)
		if err != nil {
			log.Warn("worker: cannot declare a dead worker's tool lost yet", "workflow_id", r.WorkflowID, "activity_id", r.ActivityID, "error", err)
			again = true
			continue
		}
		if done {
			failed++
			log.Info("worker: declared a dead worker's tool lost", "workflow_id", r.WorkflowID, "activity_id", r.ActivityID,
				"activity_type", r.ActivityType, "attempt", r.Attempt, "dead_pid", o.PID)
		}
		_ = os.Remove(path)
	}
	if !again {
		_ = os.RemoveAll(dir)
	}
	return failed, again
}

// declareLost fails the recorded attempt with contract.ErrWorkerLost. Its
// workflow's sticky queue (the dead worker's) is reset first, so the workflow task
// this failure creates goes to the task queue at once instead of waiting out the
// sticky schedule-to-start timeout. done is false when the attempt had already
// ended (it completed just before the death, or timed out): nothing to declare.
func declareLost(ctx context.Context, c client.Client, r record, o owner) (done bool, err error) {
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err = c.WorkflowService().ResetStickyTaskQueue(rctx, &workflowservice.ResetStickyTaskQueueRequest{
		Namespace: r.Namespace, Execution: &common.WorkflowExecution{WorkflowId: r.WorkflowID, RunId: r.RunID}})
	if err != nil && !gone(err) {
		return false, fmt.Errorf("reset sticky queue: %w", err)
	}
	lost := temporal.NewApplicationErrorWithOptions(
		fmt.Sprintf("the worker running this tool (process %d) died while it ran; it may have partially run", o.PID),
		contract.ErrWorkerLost, temporal.ApplicationErrorOptions{})
	if err := failAttempt(rctx, c, r.Namespace, r.TaskToken, lost); err != nil {
		if gone(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// gone reports an answer that the attempt or its workflow no longer runs.
func gone(err error) bool {
	var notFound *serviceerror.NotFound
	var invalid *serviceerror.InvalidArgument
	return errors.As(err, &notFound) || errors.As(err, &invalid)
}

// abandonedAfter is how old a directory a worker was creating (.new-*) must be
// before a sweep removes it: creating one takes milliseconds, and a sweep must not
// pull it from under a worker that is starting.
const abandonedAfter = time.Minute

// removeAbandoned removes the directory a worker died creating, once it is old.
func removeAbandoned(dir string) {
	if fi, err := os.Stat(dir); err == nil && time.Since(fi.ModTime()) > abandonedAfter {
		_ = os.RemoveAll(dir)
	}
}

// sharedFSTypes are the file systems (statfs magic numbers) that other kernels may
// have mounted at the same time: network, cluster and FUSE ones (sshfs, virtiofs).
var sharedFSTypes = map[uint32]bool{
	0x6969: true, 0x517B: true, 0xFF534D42: true, 0xFE534D42: true, // nfs, smb, cifs, smb2
	0x65735546: true, 0x01021997: true, 0x00C36400: true, 0x5346414F: true, // fuse, 9p, ceph, afs
	0x01161970: true, 0x7461636F: true, 0x0BD00BD0: true, // gfs2, ocfs2, lustre
}

// onSharedFS says whether dir may be shared with other kernels; when it cannot
// tell, it says yes, which only keeps a dead worker's directory longer.
var onSharedFS = func(dir string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return true
	}
	return sharedFSTypes[uint32(st.Type)]
}
