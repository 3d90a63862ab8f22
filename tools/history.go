package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
)

// history is the undo history of one file: up to MaxUndo earlier contents,
// kept in the state dir (so it lives as long as the sandbox's files do, and
// is found by any worker): an index, written last, and one file per entry.
type history struct {
	st   store
	dir  string
	path string
}

// historyIndex is what index.json holds.
type historyIndex struct {
	// Path is the file the history is of.
	Path string `json:"path"`
	// Next is the id of the next entry.
	Next    int            `json:"next"`
	Entries []historyEntry `json:"entries"`
}

type historyEntry struct {
	ID int `json:"id"`
	// Absent: the file did not exist before the edit.
	Absent bool `json:"absent,omitempty"`
}

// pathKey names a file's history folder.
func pathKey(p string) string {
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:12])
}

func (h history) indexPath() string       { return path.Join(h.dir, "index.json") }
func (h history) entryPath(id int) string { return path.Join(h.dir, strconv.Itoa(id)) }

func (h history) load(ctx context.Context) (historyIndex, error) {
	idx := historyIndex{Path: h.path}
	b, err := h.st.read(ctx, h.indexPath())
	if errors.Is(err, fs.ErrNotExist) {
		return idx, nil
	}
	if err != nil {
		return idx, err
	}
	if err := json.Unmarshal(b, &idx); err != nil || idx.Path != h.path {
		// Damaged, or another path's: start over rather than undo wrongly.
		return historyIndex{Path: h.path, Next: idx.Next}, nil
	}
	return idx, nil
}

func (h history) save(ctx context.Context, idx historyIndex) error {
	b, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	return h.st.write(ctx, h.indexPath(), b)
}

// push records the content before an edit (nil: no file), dropping the
// oldest entry past MaxUndo.
func (h history) push(ctx context.Context, old *string) error {
	idx, err := h.load(ctx)
	if err != nil {
		return err
	}
	e := historyEntry{ID: idx.Next, Absent: old == nil}
	idx.Next++
	if old != nil {
		if err := h.st.write(ctx, h.entryPath(e.ID), []byte(*old)); err != nil {
			return fmt.Errorf("tools: save undo history of %s: %w", h.path, err)
		}
	}
	idx.Entries = append(idx.Entries, e)
	var dropped []historyEntry
	if n := len(idx.Entries) - MaxUndo; n > 0 {
		dropped = append(dropped, idx.Entries[:n]...)
		idx.Entries = append([]historyEntry(nil), idx.Entries[n:]...)
	}
	if err := h.save(ctx, idx); err != nil {
		return fmt.Errorf("tools: save undo history of %s: %w", h.path, err)
	}
	for _, d := range dropped {
		if !d.Absent {
			_ = h.st.remove(ctx, h.entryPath(d.ID))
		}
	}
	return nil
}

// last returns the newest entry's content (nil: no file), ok false when
// there is none.
func (h history) last(ctx context.Context) (content *string, ok bool, err error) {
	idx, err := h.load(ctx)
	if err != nil || len(idx.Entries) == 0 {
		return nil, false, err
	}
	e := idx.Entries[len(idx.Entries)-1]
	if e.Absent {
		return nil, true, nil
	}
	b, err := h.st.read(ctx, h.entryPath(e.ID))
	if errors.Is(err, fs.ErrNotExist) {
		// The entry's content is lost: forget it, there is nothing to
		// undo to.
		return nil, false, h.drop(ctx)
	}
	if err != nil {
		return nil, false, err
	}
	s := string(b)
	return &s, true, nil
}

// drop forgets the newest entry.
func (h history) drop(ctx context.Context) error {
	idx, err := h.load(ctx)
	if err != nil || len(idx.Entries) == 0 {
		return err
	}
	e := idx.Entries[len(idx.Entries)-1]
	idx.Entries = idx.Entries[:len(idx.Entries)-1]
	if err := h.save(ctx, idx); err != nil {
		return err
	}
	if !e.Absent {
		_ = h.st.remove(ctx, h.entryPath(e.ID))
	}
	return nil
}
