package memory

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"tessera/functions/store"
)

// Store is an in-process Store for tests and examples. It copies bytes in
// and out, so callers may reuse their buffers.
type Store struct {
	mu    sync.Mutex
	items map[string]store.Item
}

var _ store.Store = (*Store)(nil)

// New returns an empty in-memory store.
func New() *Store {
	return &Store{items: make(map[string]store.Item)}
}

// Create stores a new game at version 1; store.ErrExists if the id is taken.
func (m *Store) Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error {
	return m.CreateListed(ctx, id, state, now, due, expires, store.Entry{})
}

// CreateListed is Create with the item's entry.
func (m *Store) CreateListed(ctx context.Context, id string, state []byte, now, due, expires time.Time, e store.Entry) error {
	if err := store.CheckCall(ctx, "create", id); err != nil {
		return err
	}
	if err := store.CheckEntry(id, e); err != nil {
		return err
	}
	item := store.Written(1, store.CloneBytes(state), now, due, expires)
	item.Entry = store.CloneEntry(e)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.items[id]; ok {
		return fmt.Errorf("create %q: %w", id, store.ErrExists)
	}
	m.items[id] = item
	return nil
}

// Load returns a copy of the game; store.ErrNotFound if absent.
func (m *Store) Load(ctx context.Context, id string) (store.Item, error) {
	if err := store.CheckCall(ctx, "load", id); err != nil {
		return store.Item{}, err
	}
	m.mu.Lock()
	item, ok := m.items[id]
	m.mu.Unlock()
	if !ok {
		return store.Item{}, fmt.Errorf("load %q: %w", id, store.ErrNotFound)
	}
	// Stored slices are never mutated after insertion, so copying outside
	// the lock is safe.
	item.State = store.CloneBytes(item.State)
	item.Entry = store.CloneEntry(item.Entry)
	return item, nil
}

// Save writes state as version expected+1 if the stored version is expected.
func (m *Store) Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error {
	return m.SaveListed(ctx, id, state, expected, now, due, expires, store.Entry{})
}

// SaveListed is Save with the item's entry.
func (m *Store) SaveListed(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time, e store.Entry) error {
	if err := store.CheckEntry(id, e); err != nil {
		return err
	}
	return m.writeIf(ctx, "save", id, expected, func(store.Item) store.Item {
		item := store.Written(expected+1, store.CloneBytes(state), now, due, expires)
		item.Entry = store.CloneEntry(e)
		return item
	})
}

// List reads the entries of list (a scan of the map: this store is for
// tests).
func (m *Store) List(ctx context.Context, list, from string, limit int) ([]store.Listed, error) {
	return m.list(ctx, list, func(rank string) bool { return rank >= from }, limit)
}

// ListBelow is List below a rank.
func (m *Store) ListBelow(ctx context.Context, list, below string, limit int) ([]store.Listed, error) {
	return m.list(ctx, list, func(rank string) bool { return below == "" || rank < below }, limit)
}

func (m *Store) list(ctx context.Context, list string, in func(rank string) bool, limit int) ([]store.Listed, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Unavailable("list", list, err)
	}
	var all []store.Listed
	m.mu.Lock()
	for id, item := range m.items {
		if e := item.Entry; e.List == list && list != "" && in(e.Rank) {
			all = append(all, store.Listed{ID: id, Rank: e.Rank, Card: store.CloneBytes(e.Card)})
		}
	}
	m.mu.Unlock()
	store.SortListed(all)
	return all[:min(len(all), max(0, min(limit, store.MaxList)))], nil
}

// writeIf is the optimistic lock: compare the version and write under one
// mutex.
func (m *Store) writeIf(ctx context.Context, op, id string, expected int64, next func(store.Item) store.Item) error {
	if err := store.CheckCall(ctx, op, id); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, ok := m.items[id]
	switch {
	case !ok:
		return fmt.Errorf("%s %q: %w", op, id, store.ErrNotFound)
	case cur.Version != expected:
		return fmt.Errorf("%s %q at version %d (stored %d): %w", op, id, expected, cur.Version, store.ErrConflict)
	}
	m.items[id] = next(cur)
	return nil
}

// Due lists the ids due by before, earliest first (a scan of the map: this
// store is for tests).
func (m *Store) Due(ctx context.Context, before time.Time, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Unavailable("due", "", err)
	}
	type due struct {
		id string
		at time.Time
	}
	var all []due
	m.mu.Lock()
	for id, item := range m.items {
		if !item.Due.IsZero() && !item.Due.After(before) {
			all = append(all, due{id, item.Due})
		}
	}
	m.mu.Unlock()
	sort.Slice(all, func(i, j int) bool {
		if !all[i].at.Equal(all[j].at) {
			return all[i].at.Before(all[j].at)
		}
		return all[i].id < all[j].id
	})
	out := make([]string, 0, min(limit, len(all)))
	for _, d := range all {
		if len(out) == limit {
			break
		}
		out = append(out, d.id)
	}
	return out, nil
}

// LoadMany returns copies of the games present among ids.
func (m *Store) LoadMany(ctx context.Context, ids []string) (map[string]store.Item, error) {
	if err := store.CheckMany(ctx, ids); err != nil {
		return nil, err
	}
	out := make(map[string]store.Item, len(ids))
	m.mu.Lock()
	for _, id := range ids {
		if item, ok := m.items[id]; ok {
			out[id] = item
		}
	}
	m.mu.Unlock()
	for id, item := range out {
		item.State = store.CloneBytes(item.State)
		item.Entry = store.CloneEntry(item.Entry)
		out[id] = item
	}
	return out, nil
}

// Expire deletes up to limit items whose expiry is before now, and returns
// how many it deleted (a scan of the map: this store is for tests).
func (m *Store) Expire(ctx context.Context, now time.Time, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, store.Unavailable("expire", "", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, item := range m.items {
		if n == limit {
			break
		}
		if !item.Expires.IsZero() && item.Expires.Before(now) {
			delete(m.items, id)
			n++
		}
	}
	return n, nil
}

// Delete removes the item.
func (m *Store) Delete(ctx context.Context, id string) error {
	if err := store.CheckCall(ctx, "delete", id); err != nil {
		return err
	}
	m.mu.Lock()
	delete(m.items, id)
	m.mu.Unlock()
	return nil
}

// Dump is every item stored, copied: for the tests that read everything
// kept (a forgetting's, docs/forgetting.md). Never serves a request.
func (m *Store) Dump() map[string]store.Item {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]store.Item, len(m.items))
	for id, it := range m.items {
		it.State = store.CloneBytes(it.State)
		it.Entry = store.CloneEntry(it.Entry)
		out[id] = it
	}
	return out
}
