package bolt

import (
	"context"
	"errors"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"tessera/functions/store"
)

// bucket is the one bucket of the file: id -> value (value.go).
var bucket = []byte("games")

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
		_, err := tx.CreateBucketIfNotExists(bucket)
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
func (b *Store) Create(ctx context.Context, id string, state []byte, now time.Time) error {
	if err := store.CheckCall(ctx, "create", id); err != nil {
		return err
	}
	value := encodeValue(store.Item{Version: 1, State: state, UpdatedAt: store.NormalizeTime(now)})
	return b.db.Update(func(tx *bbolt.Tx) error {
		bucket := tx.Bucket(bucket)
		if bucket.Get([]byte(id)) != nil {
			return fmt.Errorf("create %q: %w", id, store.ErrExists)
		}
		return bucket.Put([]byte(id), value)
	})
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
func (b *Store) Save(ctx context.Context, id string, state []byte, expected int64, now time.Time) error {
	if err := store.CheckCall(ctx, "save", id); err != nil {
		return err
	}
	value := encodeValue(store.Item{Version: expected + 1, State: state, UpdatedAt: store.NormalizeTime(now)})
	// The optimistic lock: bbolt runs one write transaction at a time, so the
	// read of the version and the put below cannot interleave with another
	// writer.
	return b.db.Update(func(tx *bbolt.Tx) error {
		bucket := tx.Bucket(bucket)
		cur := bucket.Get([]byte(id))
		if cur == nil {
			return fmt.Errorf("save %q: %w", id, store.ErrNotFound)
		}
		stored, err := decodeHeader(cur)
		if err != nil {
			return fmt.Errorf("save %q: %w", id, err)
		}
		if stored.Version != expected {
			return fmt.Errorf("save %q at version %d (stored %d): %w", id, expected, stored.Version, store.ErrConflict)
		}
		return bucket.Put([]byte(id), value)
	})
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
