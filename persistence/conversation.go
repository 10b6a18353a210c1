package persistence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/wire"
)

// Conversations stores the messages of agent sessions:
//
//	<state dir>/<session>/conversation/000001.json       one message, as sent to the model
//	<state dir>/<session>/conversation/000003.partial.json  blocks of a message still streaming
//	<state dir>/<session>/conversation/records/000002.json  replacement records decided then
//	<state dir>/<session>/conversation/head.json         where the conversation stands
//
// A message file is written once: the first complete write wins and a retry that
// finds it uses it, so a retried activity or a replayed workflow never changes what
// the model was sent. Messages are stored after the conversation budget was applied,
// so every later request repeats the same bytes.
type Conversations struct {
	store *blobstore.Store
}

// NewConversations stores conversations under stateDir, which must be absolute (the
// file:// store rooted there).
func NewConversations(stateDir string) (*Conversations, error) {
	s, err := defaultStore(stateDir)
	if err != nil {
		return nil, err
	}
	return NewConversationsIn(s), nil
}

// NewConversationsIn stores conversations in store (keys of blobstore.MessageKey and
// its neighbours), where every host of a fleet finds them.
func NewConversationsIn(store *blobstore.Store) *Conversations { return &Conversations{store: store} }

// Store is the blob store the conversations are kept in.
func (c *Conversations) Store() *blobstore.Store { return c.store }

// WriteMessage stores message seq of session unless it is stored already, and returns
// the stored message (the earlier one when it existed).
func (c *Conversations) WriteMessage(session string, seq int, m conversation.Message) (conversation.Message, error) {
	key, err := keyErr(blobstore.MessageKey(session, seq))
	if err != nil {
		return conversation.Message{}, err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return conversation.Message{}, fmt.Errorf("persist: encode message: %w", err)
	}
	if err := c.store.Put(context.Background(), key, data, blobstore.Exclusive); err != nil {
		if errors.Is(err, blobstore.ErrExist) {
			return c.ReadMessage(session, seq)
		}
		return conversation.Message{}, storeErr(err)
	}
	return m, nil
}

// ReadMessage loads message seq of session.
func (c *Conversations) ReadMessage(session string, seq int) (conversation.Message, error) {
	var m conversation.Message
	key, err := keyErr(blobstore.MessageKey(session, seq))
	if err != nil {
		return m, err
	}
	err = getJSON(c.store, key, &m)
	return m, err
}

// HasMessage reports whether message seq of session is stored.
func (c *Conversations) HasMessage(session string, seq int) bool {
	key, err := blobstore.MessageKey(session, seq)
	if err != nil {
		return false
	}
	ok, err := c.store.Exists(context.Background(), key)
	return err == nil && ok
}

// Load reads every message of conv, in order.
func (c *Conversations) Load(conv conversation.Conversation) ([]conversation.Message, error) {
	refs := conv.Refs()
	out := make([]conversation.Message, 0, len(refs))
	for _, r := range refs {
		m, err := c.ReadMessage(r.Session, r.Seq)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// WritePartial replaces the blocks recorded so far for a message still streaming.
func (c *Conversations) WritePartial(session string, seq int, blocks []wire.Block) error {
	key, err := keyErr(blobstore.PartialKey(session, seq))
	if err != nil {
		return err
	}
	data, err := json.Marshal(blocks)
	if err != nil {
		return fmt.Errorf("persist: encode partial message: %w", err)
	}
	return storeErr(c.store.Put(context.Background(), key, data, blobstore.Replace))
}

// ReadPartial returns the blocks recorded for a message that did not finish
// streaming, or none.
func (c *Conversations) ReadPartial(session string, seq int) ([]wire.Block, error) {
	key, err := keyErr(blobstore.PartialKey(session, seq))
	if err != nil {
		return nil, err
	}
	var blocks []wire.Block
	if err := getJSON(c.store, key, &blocks); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return blocks, nil
}

// RemovePartial deletes the streaming record of a message now stored whole.
func (c *Conversations) RemovePartial(session string, seq int) error {
	key, err := keyErr(blobstore.PartialKey(session, seq))
	if err != nil {
		return err
	}
	if err := c.store.Delete(context.Background(), key); err != nil && !errors.Is(err, blobstore.ErrNotFound) {
		return storeErr(err)
	}
	return nil
}

// WriteRecords stores the replacement records decided when message seq was
// budgeted, unless stored already.
func (c *Conversations) WriteRecords(session string, seq int, records []budget.Record) error {
	key, err := keyErr(blobstore.RecordsKey(session, seq))
	if err != nil {
		return err
	}
	data, err := json.Marshal(records)
	if err != nil {
		return fmt.Errorf("persist: encode records: %w", err)
	}
	if err := c.store.Put(context.Background(), key, data, blobstore.Exclusive); err != nil && !errors.Is(err, blobstore.ErrExist) {
		return storeErr(err)
	}
	return nil
}

// ReadRecords returns every replacement record of session, in the order decided.
func (c *Conversations) ReadRecords(session string) ([]budget.Record, error) {
	prefix, err := blobstore.SessionPrefix(session)
	if err != nil {
		return nil, fmt.Errorf("persist: %w", err)
	}
	prefix += blobstore.ConversationDir + "/" + blobstore.RecordsDir + "/"
	var seqs []int
	for e, err := range c.store.List(context.Background(), prefix) {
		if err != nil {
			return nil, storeErr(err)
		}
		k, err := blobstore.ParseKey(e.Key)
		if err != nil || k.Kind() != blobstore.KindConversationRecords {
			continue
		}
		name := strings.TrimSuffix(e.Key[len(prefix):], ".json")
		if n, err := strconv.Atoi(name); err == nil {
			seqs = append(seqs, n)
		}
	}
	slices.Sort(seqs)
	var out []budget.Record
	for _, s := range seqs {
		key, err := keyErr(blobstore.RecordsKey(session, s))
		if err != nil {
			return nil, err
		}
		var rs []budget.Record
		if err := getJSON(c.store, key, &rs); err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// WriteHead replaces the session's head.
func (c *Conversations) WriteHead(session string, h conversation.Head) error {
	key, err := keyErr(blobstore.HeadKey(session))
	if err != nil {
		return err
	}
	data, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("persist: encode head: %w", err)
	}
	return storeErr(c.store.Put(context.Background(), key, data, blobstore.Replace))
}

// ReadHead returns the session's head; found is false for a session never stored.
func (c *Conversations) ReadHead(session string) (h conversation.Head, found bool, err error) {
	key, err := keyErr(blobstore.HeadKey(session))
	if err != nil {
		return h, false, err
	}
	if err := getJSON(c.store, key, &h); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return h, false, nil
		}
		return h, false, err
	}
	return h, true, nil
}
