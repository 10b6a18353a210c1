package persistence

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/conversation"
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
	dir string
}

// NewConversations stores conversations under stateDir, which must be absolute.
func NewConversations(stateDir string) (*Conversations, error) {
	dir, err := stateRoot(stateDir)
	if err != nil {
		return nil, err
	}
	return &Conversations{dir: dir}, nil
}

func (c *Conversations) base(session string) (string, error) {
	return sessionPath(c.dir, session, "conversation")
}

func seqName(seq int) string { return fmt.Sprintf("%06d", seq) }

// WriteMessage stores message seq of session unless it is stored already, and returns
// the stored message (the earlier one when it existed).
func (c *Conversations) WriteMessage(session string, seq int, m conversation.Message) (conversation.Message, error) {
	dir, err := c.base(session)
	if err != nil {
		return conversation.Message{}, err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return conversation.Message{}, fmt.Errorf("persist: encode message: %w", err)
	}
	path := filepath.Join(dir, seqName(seq)+".json")
	if err := writeOnce(path, data); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return c.ReadMessage(session, seq)
		}
		return conversation.Message{}, err
	}
	return m, nil
}

// ReadMessage loads message seq of session.
func (c *Conversations) ReadMessage(session string, seq int) (conversation.Message, error) {
	var m conversation.Message
	dir, err := c.base(session)
	if err != nil {
		return m, err
	}
	err = readJSON(filepath.Join(dir, seqName(seq)+".json"), &m)
	return m, err
}

// HasMessage reports whether message seq of session is stored.
func (c *Conversations) HasMessage(session string, seq int) bool {
	dir, err := c.base(session)
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(dir, seqName(seq)+".json"))
	return err == nil
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
	dir, err := c.base(session)
	if err != nil {
		return err
	}
	data, err := json.Marshal(blocks)
	if err != nil {
		return fmt.Errorf("persist: encode partial message: %w", err)
	}
	return writeReplace(filepath.Join(dir, seqName(seq)+".partial.json"), data)
}

// ReadPartial returns the blocks recorded for a message that did not finish
// streaming, or none.
func (c *Conversations) ReadPartial(session string, seq int) ([]wire.Block, error) {
	dir, err := c.base(session)
	if err != nil {
		return nil, err
	}
	var blocks []wire.Block
	if err := readJSON(filepath.Join(dir, seqName(seq)+".partial.json"), &blocks); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return blocks, nil
}

// RemovePartial deletes the streaming record of a message now stored whole.
func (c *Conversations) RemovePartial(session string, seq int) error {
	dir, err := c.base(session)
	if err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, seqName(seq)+".partial.json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("persist: %w", err)
	}
	return nil
}

// WriteRecords stores the replacement records decided when message seq was
// budgeted, unless stored already.
func (c *Conversations) WriteRecords(session string, seq int, records []budget.Record) error {
	dir, err := c.base(session)
	if err != nil {
		return err
	}
	data, err := json.Marshal(records)
	if err != nil {
		return fmt.Errorf("persist: encode records: %w", err)
	}
	if err := writeOnce(filepath.Join(dir, "records", seqName(seq)+".json"), data); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// ReadRecords returns every replacement record of session, in the order decided.
func (c *Conversations) ReadRecords(session string) ([]budget.Record, error) {
	dir, err := c.base(session)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(dir, "records"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("persist: %w", err)
	}
	var seqs []int
	for _, e := range entries {
		if n, err := strconv.Atoi(strings.TrimSuffix(e.Name(), ".json")); err == nil && strings.HasSuffix(e.Name(), ".json") {
			seqs = append(seqs, n)
		}
	}
	slices.Sort(seqs)
	var out []budget.Record
	for _, s := range seqs {
		var rs []budget.Record
		if err := readJSON(filepath.Join(dir, "records", seqName(s)+".json"), &rs); err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// WriteHead replaces the session's head.
func (c *Conversations) WriteHead(session string, h conversation.Head) error {
	dir, err := c.base(session)
	if err != nil {
		return err
	}
	data, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("persist: encode head: %w", err)
	}
	return writeReplace(filepath.Join(dir, "head.json"), data)
}

// ReadHead returns the session's head; found is false for a session never stored.
func (c *Conversations) ReadHead(session string) (h conversation.Head, found bool, err error) {
	dir, err := c.base(session)
	if err != nil {
		return h, false, err
	}
	if err := readJSON(filepath.Join(dir, "head.json"), &h); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return h, false, nil
		}
		return h, false, err
	}
	return h, true, nil
}
