package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Memory is an in-process Store for tests and examples. It copies bytes in
// and out, so callers may reuse their buffers.
type Memory struct {
	mu    sync.Mutex
	items map[string]Item
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{items: make(map[string]Item)}
}

// Create stores a new game at version 1; ErrExists if the id is taken.
func (m *Memory) Create(ctx context.Context, id string, state []byte, now time.Time) error {
	if err := checkCall(ctx, "create", id); err != nil {
		return err
	}
	item := Item{Version: 1, State: cloneBytes(state), UpdatedAt: normalizeTime(now)}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.items[id]; ok {
		return fmt.Errorf("create %q: %w", id, ErrExists)
	}
	m.items[id] = item
	return nil
}

// Load returns a copy of the game; ErrNotFound if absent.
func (m *Memory) Load(ctx context.Context, id string) (Item, error) {
	if err := checkCall(ctx, "load", id); err != nil {
		return Item{}, err
	}
	m.mu.Lock()
	item, ok := m.items[id]
	m.mu.Unlock()
	if !ok {
		return Item{}, fmt.Errorf("load %q: %w", id, ErrNotFound)
	}
	// Stored slices are never mutated after insertion, so copying outside
	// the lock is safe.
	item.State = cloneBytes(item.State)
	return item, nil
}

// Save writes state as version expected+1 if the stored version is expected.
func (m *Memory) Save(ctx context.Context, id string, state []byte, expected int64, now time.Time) error {
	if err := checkCall(ctx, "save", id); err != nil {
		return err
	}
	next := Item{Version: expected + 1, State: cloneBytes(state), UpdatedAt: normalizeTime(now)}
	m.mu.Lock()
	defer m.mu.Unlock()
	// The optimistic lock: compare and write under one mutex.
	cur, ok := m.items[id]
	switch {
	case !ok:
		return fmt.Errorf("save %q: %w", id, ErrNotFound)
	case cur.Version != expected:
		return fmt.Errorf("save %q at version %d (stored %d): %w", id, expected, cur.Version, ErrConflict)
	}
	m.items[id] = next
	return nil
}
