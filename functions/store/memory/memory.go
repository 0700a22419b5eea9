package memory

import (
	"context"
	"fmt"
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
func (m *Store) Create(ctx context.Context, id string, state []byte, now time.Time) error {
	if err := store.CheckCall(ctx, "create", id); err != nil {
		return err
	}
	item := store.Item{Version: 1, State: store.CloneBytes(state), UpdatedAt: store.NormalizeTime(now)}
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
	return item, nil
}

// Save writes state as version expected+1 if the stored version is expected.
func (m *Store) Save(ctx context.Context, id string, state []byte, expected int64, now time.Time) error {
	if err := store.CheckCall(ctx, "save", id); err != nil {
		return err
	}
	next := store.Item{Version: expected + 1, State: store.CloneBytes(state), UpdatedAt: store.NormalizeTime(now)}
	m.mu.Lock()
	defer m.mu.Unlock()
	// The optimistic lock: compare and write under one mutex.
	cur, ok := m.items[id]
	switch {
	case !ok:
		return fmt.Errorf("save %q: %w", id, store.ErrNotFound)
	case cur.Version != expected:
		return fmt.Errorf("save %q at version %d (stored %d): %w", id, expected, cur.Version, store.ErrConflict)
	}
	m.items[id] = next
	return nil
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
		out[id] = item
	}
	return out, nil
}
