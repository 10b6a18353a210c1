package persistence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// A session's history and its rewinds, beside its head:
//
//	<session>/conversation/turns.json    the marks of its model calls, by message
//	<session>/conversation/rewinds.json  its rewinds, oldest first
//	<session>/conversation/workspace.json its workspace's checkpoints, in time order
//
// Each is rewritten whole: one session's writes come from its one running workflow
// (a rewind is an update on it), so there is no concurrent writer to merge with.

// RecordTurn adds mark to session's history; a mark of the same message (a retried
// activity) replaces the one recorded.
func (c *Conversations) RecordTurn(session string, mark conversation.TurnMark) error {
	marks, err := c.Turns(session)
	if err != nil {
		return err
	}
	i, found := slices.BinarySearchFunc(marks, mark.Seq, func(m conversation.TurnMark, seq int) int { return m.Seq - seq })
	if found {
		marks[i] = mark
	} else {
		marks = slices.Insert(marks, i, mark)
	}
	return c.putLog(blobstore.TurnLogKey, session, marks)
}

// Turns returns session's marks in message order; none for a session that has none.
func (c *Conversations) Turns(session string) ([]conversation.TurnMark, error) {
	var marks []conversation.TurnMark
	if err := c.getLog(blobstore.TurnLogKey, session, &marks); err != nil {
		return nil, err
	}
	slices.SortFunc(marks, func(a, b conversation.TurnMark) int { return a.Seq - b.Seq })
	return marks, nil
}

// RecordRewind appends rec to session's rewinds, unless the last one is rec (a
// retried activity).
func (c *Conversations) RecordRewind(session string, rec conversation.RewindRecord) error {
	recs, err := c.Rewinds(session)
	if err != nil {
		return err
	}
	if n := len(recs); n > 0 && recs[n-1].At.Equal(rec.At) && recs[n-1].By == rec.By && recs[n-1].Target == rec.Target {
		recs[n-1] = rec
	} else {
		recs = append(recs, rec)
	}
	return c.putLog(blobstore.RewindLogKey, session, recs)
}

// Rewinds returns session's rewinds, oldest first.
func (c *Conversations) Rewinds(session string) ([]conversation.RewindRecord, error) {
	var recs []conversation.RewindRecord
	err := c.getLog(blobstore.RewindLogKey, session, &recs)
	return recs, err
}

// RecordWorkspace appends st to session's workspace timeline, unless it is the last
// entry already (a retried activity).
func (c *Conversations) RecordWorkspace(session string, st conversation.WorkspaceState) error {
	timeline, err := c.Workspace(session)
	if err != nil {
		return err
	}
	if n := len(timeline); n > 0 && timeline[n-1] == st {
		return nil
	}
	return c.putLog(blobstore.WorkspaceLogKey, session, append(timeline, st))
}

// Workspace returns session's workspace timeline, oldest first.
func (c *Conversations) Workspace(session string) ([]conversation.WorkspaceState, error) {
	var timeline []conversation.WorkspaceState
	err := c.getLog(blobstore.WorkspaceLogKey, session, &timeline)
	return timeline, err
}

func (c *Conversations) putLog(keyOf func(string) (blobstore.Key, error), session string, v any) error {
	key, err := keyErr(keyOf(session))
	if err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("persist: encode %s: %w", key.Kind(), err)
	}
	return storeErr(c.store.Put(context.Background(), key, data, blobstore.Replace))
}

func (c *Conversations) getLog(keyOf func(string) (blobstore.Key, error), session string, v any) error {
	key, err := keyErr(keyOf(session))
	if err != nil {
		return err
	}
	if err := getJSON(c.store, key, v); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
