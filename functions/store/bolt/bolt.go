package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	bbolt "go.etcd.io/bbolt"

	"tessera/functions/store"
)

// bucket maps id -> value (value.go); dueBucket and expiresBucket are its
// indexes by due time and by expiry time (items that never expire are not
// in it): 8 bytes of Unix seconds, big-endian, then the id -> nothing.
//
// entriesBucket holds each listed item's entry (id -> entry.go's
// encoding), and listsBucket the lists themselves: list, 0, rank, 0, id
// -> card (store.CheckEntry keeps lists and ranks printable).
var (
	bucket        = []byte("games")
	dueBucket     = []byte("due")
	expiresBucket = []byte("expires")
	entriesBucket = []byte("entries")
	listsBucket   = []byte("lists")
	// metaBucket holds itemsKey: how many keys the games bucket holds,
	// written in the same transaction as every create and expiry, so Open
	// can tell a leaf page that lost its elements (count 0) from a store
	// that has fewer games.
	metaBucket = []byte("meta")
	itemsKey   = []byte("items")
)

// OpenTimeout bounds how long Open waits for the file lock that
// another process may hold.
const OpenTimeout = time.Second

// Store is a store.Store in a single bbolt file, the embedded default of the local
// server. bbolt allows one writer at a time and holds an exclusive file lock,
// so one file serves one process.
type Store struct {
	db *bbolt.DB
	// damaged: Open found a value whose checksum does not match its key (a
	// damaged value, or a damaged key that no longer names its game). A
	// missing item is then store.ErrCorrupt, never "no such game": it may
	// be the one whose key was damaged.
	damaged bool
}

var _ store.Store = (*Store)(nil)

// Open opens (or creates) the file at path. If another process holds the
// file, it fails after OpenTimeout with an error that says so. A file that
// is there but is not a whole store (empty, truncated, not bbolt, damaged
// pages or values that fault when read) is refused with an error naming
// it: Open never starts afresh over a damaged file (see check).
func Open(path string) (*Store, error) {
	if fi, err := os.Stat(path); err == nil && fi.Size() == 0 {
		return nil, fmt.Errorf("store: open %s: the file is empty, not a store (it may have been truncated); move it away to start with no games", path)
	}
	var db *bbolt.DB
	err := guard(func() error {
		var err error
		db, err = bbolt.Open(path, 0o600, &bbolt.Options{Timeout: OpenTimeout})
		return err
	})
	if errors.Is(err, bbolt.ErrTimeout) {
		return nil, fmt.Errorf("store: open %s: file is locked by another process (waited %s): %w", path, OpenTimeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: not a valid store file: %w", path, err)
	}
	if err := walk(path); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: the file is damaged, refusing to use it (keep a copy; restore a backup or move it away to start with no games): %w", path, err)
	}
	damaged, err := check(db)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: the file is damaged, refusing to use it (keep a copy; restore a backup or move it away to start with no games): %w", path, err)
	}
	err = guard(func() error {
		return db.Update(func(tx *bbolt.Tx) error {
			if _, err := tx.CreateBucketIfNotExists(bucket); err != nil {
				return err
			}
			for _, name := range [][]byte{dueBucket, entriesBucket, listsBucket} {
				if _, err := tx.CreateBucketIfNotExists(name); err != nil {
					return err
				}
			}
			meta, err := tx.CreateBucketIfNotExists(metaBucket)
			if err != nil {
				return err
			}
			if meta.Get(itemsKey) == nil {
				// A file from before the count: count what it holds.
				if err := setItems(tx, uint64(tx.Bucket(bucket).Stats().KeyN)); err != nil {
					return err
				}
			}
			if tx.Bucket(expiresBucket) != nil {
				return nil
			}
			// A file from before expiry: index what it holds.
			exp, err := tx.CreateBucket(expiresBucket)
			if err != nil {
				return err
			}
			return tx.Bucket(bucket).ForEach(func(k, v []byte) error {
				item, _, err := decodeHeader(string(k), v)
				if err != nil {
					return nil // check has logged nothing: a bad value stays, and answers as corrupt
				}
				if item.Expires.IsZero() {
					return nil
				}
				return exp.Put(timeKey(item.Expires, string(k)), nil)
			})
		})
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: create buckets: %w", path, err)
	}
	return &Store{db: db, damaged: damaged}, nil
}

// items is the games bucket's key count as the writes left it (ok false:
// a file from before it was kept).
func items(tx *bbolt.Tx) (n uint64, ok bool) {
	meta := tx.Bucket(metaBucket)
	if meta == nil {
		return 0, false
	}
	v := meta.Get(itemsKey)
	if len(v) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(v), true
}

func setItems(tx *bbolt.Tx, n uint64) error {
	return tx.Bucket(metaBucket).Put(itemsKey, binary.BigEndian.AppendUint64(nil, n))
}

// addItems changes the count by d (a create: +1, an expiry: -1).
func addItems(tx *bbolt.Tx, d int64) error {
	n, _ := items(tx)
	return setItems(tx, uint64(int64(n)+d))
}

// check reads the whole file once, with memory faults turned into errors:
// the file must be as long as its meta page says, bbolt's own page check
// must pass, and every key and value of every bucket must be readable.
func check(db *bbolt.DB) (damaged bool, err error) {
	err = guard(func() error {
		return db.View(func(tx *bbolt.Tx) error {
			fi, err := os.Stat(db.Path())
			if err != nil {
				return err
			}
			if fi.Size() < tx.Size() {
				return fmt.Errorf("%w: the file has %d bytes, its pages need %d (truncated)", store.ErrCorrupt, fi.Size(), tx.Size())
			}
			// Every key and value first, in this goroutine (guarded);
			// then bbolt's page check, which runs in its own goroutine.
			// The games in the same walk: as many as the writes counted
			// (a leaf page whose element count was zeroed hides its games
			// from every read, which would answer "no such game"), each
			// value sealed with its own key (a damaged key byte moves a
			// game to another id).
			var sum byte
			var games uint64
			err = tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
				isGames := bytes.Equal(name, bucket)
				return b.ForEach(func(k, v []byte) error {
					for _, c := range k {
						sum ^= c
					}
					for _, c := range v {
						sum ^= c
					}
					if isGames {
						games++
						if _, _, err := decodeHeader(string(k), v); err != nil {
							damaged = true
						}
					}
					return nil
				})
			})
			runtime.KeepAlive(sum)
			if err != nil {
				return err
			}
			if want, ok := items(tx); ok && games != want {
				return fmt.Errorf("%w: %d games in the file, its writes counted %d (a damaged page lost some)", store.ErrCorrupt, games, want)
			}
			var first error
			for err := range tx.Check() {
				if first == nil {
					first = fmt.Errorf("%w: %v", store.ErrCorrupt, err)
				}
			}
			return first
		})
	})
	return damaged, err
}

// guard runs f with memory faults turned into errors: a damaged file can
// make bbolt read past its mapping, which would otherwise crash the
// process (and crash it again on every restart).
func guard(f func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: reading the bbolt file failed: %v", store.ErrCorrupt, p)
		}
	}()
	return f()
}

// view and update are the database's transactions under guard.
func (b *Store) view(f func(*bbolt.Tx) error) error {
	return guard(func() error { return b.db.View(f) })
}

func (b *Store) update(f func(*bbolt.Tx) error) error {
	return guard(func() error { return b.db.Update(f) })
}

// Close releases the file and its lock.
func (b *Store) Close() error {
	return b.db.Close()
}

// Create stores a new game at version 1; store.ErrExists if the id is taken.
func (b *Store) Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error {
	return b.CreateListed(ctx, id, state, now, due, expires, store.Entry{})
}

// CreateListed is Create with the item's entry, in the same transaction.
func (b *Store) CreateListed(ctx context.Context, id string, state []byte, now, due, expires time.Time, e store.Entry) error {
	if err := store.CheckCall(ctx, "create", id); err != nil {
		return err
	}
	if err := store.CheckEntry(id, e); err != nil {
		return err
	}
	item := store.Written(1, state, now, due, expires)
	item.Entry = e
	return b.update(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucket).Get([]byte(id)) != nil {
			return fmt.Errorf("create %q: %w", id, store.ErrExists)
		}
		if err := addItems(tx, 1); err != nil {
			return err
		}
		return put(tx, id, store.Item{}, item)
	})
}

// put writes item in place of old (zero for none), and moves its entries
// in the due and expiry indexes and its place in the lists.
func put(tx *bbolt.Tx, id string, old, item store.Item) error {
	if err := putEntry(tx, id, item.Entry); err != nil {
		return err
	}
	due, exp := tx.Bucket(dueBucket), tx.Bucket(expiresBucket)
	if !old.Due.IsZero() {
		if err := due.Delete(timeKey(old.Due, id)); err != nil {
			return err
		}
	}
	if !old.Expires.IsZero() {
		if err := exp.Delete(timeKey(old.Expires, id)); err != nil {
			return err
		}
	}
	if !item.Due.IsZero() {
		if err := due.Put(timeKey(item.Due, id), nil); err != nil {
			return err
		}
	}
	if !item.Expires.IsZero() {
		if err := exp.Put(timeKey(item.Expires, id), nil); err != nil {
			return err
		}
	}
	return tx.Bucket(bucket).Put([]byte(id), encodeValue(id, item))
}

func timeKey(t time.Time, id string) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(id)), uint64(t.Unix()))
	return append(k, id...)
}

// Expire deletes up to limit items whose expiry is before now (as
// DynamoDB's TTL), oldest first, in one write
// transaction, and returns how many it deleted. The local server runs it
// now and then; the file then reuses the freed pages, so it grows only
// with the games written within one TTL.
func (b *Store) Expire(ctx context.Context, now time.Time, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, store.Unavailable("expire", "", err)
	}
	n := 0
	err := b.update(func(tx *bbolt.Tx) error {
		games, due, exp := tx.Bucket(bucket), tx.Bucket(dueBucket), tx.Bucket(expiresBucket)
		var keys [][]byte
		c := exp.Cursor()
		for k, _ := c.First(); k != nil && len(keys) < limit; k, _ = c.Next() {
			if len(k) < 8 || int64(binary.BigEndian.Uint64(k)) >= now.Unix() {
				break
			}
			keys = append(keys, bytes.Clone(k))
		}
		for _, k := range keys {
			id := k[8:]
			if v := games.Get(id); v != nil {
				if item, _, err := decodeHeader(string(id), v); err == nil && !item.Due.IsZero() {
					if err := due.Delete(timeKey(item.Due, string(id))); err != nil {
						return err
					}
				}
				if err := putEntry(tx, string(id), store.Entry{}); err != nil {
					return err
				}
				if err := games.Delete(id); err != nil {
					return err
				}
				if err := addItems(tx, -1); err != nil {
					return err
				}
			}
			if err := exp.Delete(k); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// Load returns the game; store.ErrNotFound if absent.
func (b *Store) Load(ctx context.Context, id string) (store.Item, error) {
	if err := store.CheckCall(ctx, "load", id); err != nil {
		return store.Item{}, err
	}
	var item store.Item
	err := b.view(func(tx *bbolt.Tx) error {
		value := tx.Bucket(bucket).Get([]byte(id))
		if value == nil {
			if b.damaged {
				return fmt.Errorf("load %q: not in the file, which holds a damaged item (its key may have been this id): %w", id, store.ErrCorrupt)
			}
			return fmt.Errorf("load %q: %w", id, store.ErrNotFound)
		}
		var err error
		item, err = decodeValue(id, value) // copies out of the mmap
		if err != nil {
			return fmt.Errorf("load %q: %w", id, err)
		}
		item.Entry, err = entryOf(tx, id)
		if err != nil {
			return fmt.Errorf("load %q: %w", id, err)
		}
		return nil
	})
	return item, err
}

// Save writes state as version expected+1 if the stored version is expected.
func (b *Store) Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error {
	return b.SaveListed(ctx, id, state, expected, now, due, expires, store.Entry{})
}

// SaveListed is Save with the item's entry, in the same transaction.
func (b *Store) SaveListed(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time, e store.Entry) error {
	if err := store.CheckEntry(id, e); err != nil {
		return err
	}
	return b.writeIf(ctx, "save", id, expected, func(store.Item) store.Item {
		item := store.Written(expected+1, state, now, due, expires)
		item.Entry = e
		return item
	})
}

// writeIf is the optimistic lock: bbolt runs one write transaction at a
// time, so the read of the version and the put cannot interleave with
// another writer.
func (b *Store) writeIf(ctx context.Context, op, id string, expected int64, next func(store.Item) store.Item) error {
	if err := store.CheckCall(ctx, op, id); err != nil {
		return err
	}
	return b.update(func(tx *bbolt.Tx) error {
		cur := tx.Bucket(bucket).Get([]byte(id))
		if cur == nil {
			return fmt.Errorf("%s %q: %w", op, id, store.ErrNotFound)
		}
		stored, _, err := decodeHeader(id, cur)
		if err != nil {
			return fmt.Errorf("%s %q: %w", op, id, err)
		}
		if stored.Version != expected {
			return fmt.Errorf("%s %q at version %d (stored %d): %w", op, id, expected, stored.Version, store.ErrConflict)
		}
		if stored.Entry, err = entryOf(tx, id); err != nil {
			return fmt.Errorf("%s %q: %w", op, id, err)
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
	err := b.view(func(tx *bbolt.Tx) error {
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
	err := b.view(func(tx *bbolt.Tx) error {
		bk := tx.Bucket(bucket)
		for _, id := range ids {
			value := bk.Get([]byte(id))
			if value == nil {
				continue
			}
			item, err := decodeValue(id, value)
			if err != nil {
				// One damaged game must not hide the others: it is left
				// out here, and its own Load answers store.ErrCorrupt.
				continue
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

// List reads list from its bucket, highest rank first.
func (b *Store) List(ctx context.Context, list, from string, limit int) ([]store.Listed, error) {
	return b.list(ctx, list, from, "", limit)
}

// ListBelow is List below a rank.
func (b *Store) ListBelow(ctx context.Context, list, below string, limit int) ([]store.Listed, error) {
	return b.list(ctx, list, "", below, limit)
}

// list reads the entries of list ranked from from and below below ("":
// no bound), highest first.
func (b *Store) list(ctx context.Context, list, from, below string, limit int) ([]store.Listed, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Unavailable("list", list, err)
	}
	limit = min(limit, store.MaxList)
	var out []store.Listed
	if list == "" || limit <= 0 {
		return out, nil
	}
	prefix := append([]byte(list), 0)
	err := b.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(listsBucket).Cursor()
		// Past the list's last key (every rank byte is below 0x7f), or at
		// the first key ranked below or after, then back.
		end := append(bytes.Clone(prefix), 0x7f)
		if below != "" {
			end = append(bytes.Clone(prefix), below...)
		}
		k, v := c.Seek(end)
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && len(out) < limit && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
			rest := k[len(prefix):]
			i := bytes.IndexByte(rest, 0)
			if i < 0 {
				return corrupt("list key %q", k)
			}
			rank := string(rest[:i])
			if rank < from {
				break
			}
			if below != "" && rank >= below {
				continue
			}
			out = append(out, store.Listed{ID: string(rest[i+1:]), Rank: rank, Card: store.CloneBytes(v)})
		}
		return nil
	})
	return out, err
}

// Delete removes the item, its entry and its index keys in one write
// transaction.
func (b *Store) Delete(ctx context.Context, id string) error {
	if err := store.CheckCall(ctx, "delete", id); err != nil {
		return err
	}
	return b.update(func(tx *bbolt.Tx) error {
		games := tx.Bucket(bucket)
		v := games.Get([]byte(id))
		if v == nil {
			return nil
		}
		item, _, err := decodeHeader(id, v)
		if err != nil {
			return fmt.Errorf("delete %q: %w", id, err)
		}
		if !item.Due.IsZero() {
			if err := tx.Bucket(dueBucket).Delete(timeKey(item.Due, id)); err != nil {
				return err
			}
		}
		if !item.Expires.IsZero() {
			if err := tx.Bucket(expiresBucket).Delete(timeKey(item.Expires, id)); err != nil {
				return err
			}
		}
		if err := putEntry(tx, id, store.Entry{}); err != nil {
			return err
		}
		if err := games.Delete([]byte(id)); err != nil {
			return err
		}
		return addItems(tx, -1)
	})
}
