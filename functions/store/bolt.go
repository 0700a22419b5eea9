package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// boltBucket is the one bucket of the file: id -> envelope.
var boltBucket = []byte("games")

// BoltOpenTimeout bounds how long OpenBolt waits for the file lock that
// another process may hold.
const BoltOpenTimeout = time.Second

// Bolt is a Store in a single bbolt file, the embedded default of the local
// server. bbolt allows one writer at a time and holds an exclusive file lock,
// so one file serves one process.
type Bolt struct {
	db *bolt.DB
}

var _ Store = (*Bolt)(nil)

// OpenBolt opens (or creates) the file at path. If another process holds the
// file, it fails after BoltOpenTimeout with an error that says so.
func OpenBolt(path string) (*Bolt, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: BoltOpenTimeout})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("store: open %s: file is locked by another process (waited %s): %w", path, BoltOpenTimeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(boltBucket)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: create bucket: %w", path, err)
	}
	return &Bolt{db: db}, nil
}

// Close releases the file and its lock.
func (b *Bolt) Close() error {
	return b.db.Close()
}

// Create stores a new game at version 1; ErrExists if the id is taken.
func (b *Bolt) Create(ctx context.Context, id string, state []byte, now time.Time) error {
	if err := checkCall(ctx, "create", id); err != nil {
		return err
	}
	value := encodeEnvelope(Item{Version: 1, State: state, UpdatedAt: normalizeTime(now)})
	return b.db.Update(func(tx *bolt.Tx) error {
		bucket := tx.Bucket(boltBucket)
		if bucket.Get([]byte(id)) != nil {
			return fmt.Errorf("create %q: %w", id, ErrExists)
		}
		return bucket.Put([]byte(id), value)
	})
}

// Load returns the game; ErrNotFound if absent.
func (b *Bolt) Load(ctx context.Context, id string) (Item, error) {
	if err := checkCall(ctx, "load", id); err != nil {
		return Item{}, err
	}
	var item Item
	err := b.db.View(func(tx *bolt.Tx) error {
		value := tx.Bucket(boltBucket).Get([]byte(id))
		if value == nil {
			return fmt.Errorf("load %q: %w", id, ErrNotFound)
		}
		var err error
		item, err = decodeEnvelope(value) // copies out of the mmap
		if err != nil {
			return fmt.Errorf("load %q: %w", id, err)
		}
		return nil
	})
	return item, err
}

// Save writes state as version expected+1 if the stored version is expected.
func (b *Bolt) Save(ctx context.Context, id string, state []byte, expected int64, now time.Time) error {
	if err := checkCall(ctx, "save", id); err != nil {
		return err
	}
	value := encodeEnvelope(Item{Version: expected + 1, State: state, UpdatedAt: normalizeTime(now)})
	// The optimistic lock: bbolt runs one write transaction at a time, so the
	// read of the version and the put below cannot interleave with another
	// writer.
	return b.db.Update(func(tx *bolt.Tx) error {
		bucket := tx.Bucket(boltBucket)
		cur := bucket.Get([]byte(id))
		if cur == nil {
			return fmt.Errorf("save %q: %w", id, ErrNotFound)
		}
		stored, err := decodeHeader(cur)
		if err != nil {
			return fmt.Errorf("save %q: %w", id, err)
		}
		if stored.Version != expected {
			return fmt.Errorf("save %q at version %d (stored %d): %w", id, expected, stored.Version, ErrConflict)
		}
		return bucket.Put([]byte(id), value)
	})
}
