package bolt

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"tessera/functions/store"
)

// bucket maps id -> value (value.go); dueBucket is its index by due time:
// 8 bytes of Unix seconds, big-endian, then the id -> nothing.
var (
	bucket    = []byte("games")
	dueBucket = []byte("due")
)

// OpenTimeout bounds how long Open waits for the file lock that
// another process may hold.
const OpenTimeout = time.Second

// Store is a store.Store in a single bbolt file, the embedded default of the local
// server. bbolt allows one writer at a time and holds an exclusive file lock,
// so one file serves one process.
type Store struct {
	db *bbolt.DB
}

var _ store.Store = (*Store)(nil)

// Open opens (or creates) the file at path. If another process holds the
// file, it fails after OpenTimeout with an error that says so.
func Open(path string) (*Store, error) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: OpenTimeout})
	if errors.Is(err, bbolt.ErrTimeout) {
		return nil, fmt.Errorf("store: open %s: file is locked by another process (waited %s): %w", path, OpenTimeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucket); err != nil {
			return err
		}
		_, err := tx.CreateBucketIfNotExists(dueBucket)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: create bucket: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close releases the file and its lock.
func (b *Store) Close() error {
	return b.db.Close()
}

// Create stores a new game at version 1; store.ErrExists if the id is taken.
func (b *Store) Create(ctx context.Context, id string, state []byte, now, due time.Time) error {
	if err := store.CheckCall(ctx, "create", id); err != nil {
		return err
	}
	item := store.Item{Version: 1, State: state, UpdatedAt: store.NormalizeTime(now), Due: store.NormalizeDue(due)}
	return b.db.Update(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucket).Get([]byte(id)) != nil {
			return fmt.Errorf("create %q: %w", id, store.ErrExists)
		}
		return put(tx, id, store.Item{}, item)
	})
}

// put writes item in place of old (zero for none), and moves its entry in
// the due index.
func put(tx *bbolt.Tx, id string, old, item store.Item) error {
	due := tx.Bucket(dueBucket)
	if !old.Due.IsZero() {
		if err := due.Delete(dueKey(old.Due, id)); err != nil {
			return err
		}
	}
	if !item.Due.IsZero() {
		if err := due.Put(dueKey(item.Due, id), nil); err != nil {
			return err
		}
	}
	return tx.Bucket(bucket).Put([]byte(id), encodeValue(item))
}

func dueKey(t time.Time, id string) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(id)), uint64(t.Unix()))
	return append(k, id...)
}

// Load returns the game; store.ErrNotFound if absent.
func (b *Store) Load(ctx context.Context, id string) (store.Item, error) {
	if err := store.CheckCall(ctx, "load", id); err != nil {
		return store.Item{}, err
	}
	var item store.Item
	err := b.db.View(func(tx *bbolt.Tx) error {
		value := tx.Bucket(bucket).Get([]byte(id))
		if value == nil {
			return fmt.Errorf("load %q: %w", id, store.ErrNotFound)
		}
		var err error
		item, err = decodeValue(value) // copies out of the mmap
		if err != nil {
			return fmt.Errorf("load %q: %w", id, err)
		}
		return nil
	})
	return item, err
}

// Save writes state as version expected+1 if the stored version is expected.
func (b *Store) Save(ctx context.Context, id string, state []byte, expected int64, now, due time.Time) error {
	return b.writeIf(ctx, "save", id, expected, func(store.Item) store.Item {
		return store.Item{Version: expected + 1, State: state, UpdatedAt: store.NormalizeTime(now), Due: store.NormalizeDue(due)}
	})
}

// Touch replaces the state and due time at version, keeping both.
func (b *Store) Touch(ctx context.Context, id string, state []byte, version int64, due time.Time) error {
	return b.writeIf(ctx, "touch", id, version, func(cur store.Item) store.Item {
		return store.Item{Version: version, State: state, UpdatedAt: cur.UpdatedAt, Due: store.NormalizeDue(due)}
	})
}

// writeIf is the optimistic lock: bbolt runs one write transaction at a
// time, so the read of the version and the put cannot interleave with
// another writer.
func (b *Store) writeIf(ctx context.Context, op, id string, expected int64, next func(store.Item) store.Item) error {
	if err := store.CheckCall(ctx, op, id); err != nil {
		return err
	}
	return b.db.Update(func(tx *bbolt.Tx) error {
		cur := tx.Bucket(bucket).Get([]byte(id))
		if cur == nil {
			return fmt.Errorf("%s %q: %w", op, id, store.ErrNotFound)
		}
		stored, err := decodeHeader(cur)
		if err != nil {
			return fmt.Errorf("%s %q: %w", op, id, err)
		}
		if stored.Version != expected {
			return fmt.Errorf("%s %q at version %d (stored %d): %w", op, id, expected, stored.Version, store.ErrConflict)
		}
		return put(tx, id, stored, next(stored))
	})
}

// Due lists the ids due by before from the index, earliest first.
func (b *Store) Due(ctx context.Context, before time.Time, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Unavailable("due", "", err)
	}
	var out []string
	err := b.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(dueBucket).Cursor()
		for k, _ := c.First(); k != nil && len(out) < limit; k, _ = c.Next() {
			if len(k) < 8 || int64(binary.BigEndian.Uint64(k)) > before.Unix() {
				break
			}
			out = append(out, string(k[8:]))
		}
		return nil
	})
	return out, err
}

// LoadMany reads the games present among ids in one read transaction.
func (b *Store) LoadMany(ctx context.Context, ids []string) (map[string]store.Item, error) {
	if err := store.CheckMany(ctx, ids); err != nil {
		return nil, err
	}
	out := make(map[string]store.Item, len(ids))
	err := b.db.View(func(tx *bbolt.Tx) error {
		bk := tx.Bucket(bucket)
		for _, id := range ids {
			value := bk.Get([]byte(id))
			if value == nil {
				continue
			}
			item, err := decodeValue(value)
			if err != nil {
				return fmt.Errorf("load many %q: %w", id, err)
			}
			out[id] = item
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
