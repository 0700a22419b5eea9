package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"
)

// Sentinel errors. Callers test them with errors.Is; adapters wrap them with
// the id and, for ErrUnavailable, with the underlying cause.
var (
	ErrNotFound    = errors.New("store: game not found")
	ErrExists      = errors.New("store: game already exists")
	ErrConflict    = errors.New("store: version conflict")
	ErrUnavailable = errors.New("store: unavailable")
	// ErrCorrupt is a stored value that fails its checks (a checksum, a
	// header): retrying will not help, and the API answers 500.
	ErrCorrupt = errors.New("store: stored value is corrupt")
)

// TTL is how long a game lives after its last write. Every write names
// its item's expiry (zero: never), each kind of item its own (the service
// decides: docs/expiry.md); DynamoDB's TTL deletes an expired item some
// time after, the bbolt and D1 stores' Expire when it runs.
const TTL = 180 * 24 * time.Hour

// ErrEmptyID is returned for an empty id by every adapter. It is a caller
// bug, so it is deliberately none of the sentinels above.
var ErrEmptyID = errors.New("store: empty id")

// Item is one game as stored.
type Item struct {
	Version   int64     // 1 when created, +1 on every save
	State     []byte    // opaque compact binary
	UpdatedAt time.Time // time of the last write, in UTC
	// Due is when the item wants the clock's attention (a deadline, a
	// reminder), to the second; zero for never. Due lists items by it.
	Due time.Time
	// Expires is when the item may be deleted, to the second; zero for
	// never.
	Expires time.Time
	// Entry is the item's place in a list (zero: in none).
	Entry Entry
}

// Entry puts an item in one list, an index read by List: the open games
// of the room, the leaderboard of a pool (docs/lists.md). A zero Entry
// (List empty) is in no list. Rank orders the list, compared byte by byte
// (higher first); ranks should be unique within a list (a caller ends
// them with the id), as the order of equal ranks may differ between
// stores and reads. Card is the small public summary List returns, so a
// list is read without the items' states.
type Entry struct {
	List string
	Rank string
	Card []byte
}

// Listed is one entry as List returns it.
type Listed struct {
	ID   string
	Rank string
	Card []byte
}

// Limits of an entry: DynamoDB's keys take at most 1024 bytes, and a list
// read should stay small (a card of 1 KB, 100 entries a read).
const (
	MaxListName = 64
	MaxRank     = 128
	MaxCard     = 1024
	MaxList     = 100
)

// CheckEntry rejects an entry no adapter should write.
func CheckEntry(id string, e Entry) error {
	if e.List == "" {
		if e.Rank != "" || len(e.Card) != 0 {
			return fmt.Errorf("entry of %q: a rank or card without a list", id)
		}
		return nil
	}
	if len(e.List) > MaxListName || len(e.Rank) > MaxRank || len(e.Card) > MaxCard || e.Rank == "" {
		return fmt.Errorf("entry of %q: list %d bytes, rank %d, card %d: out of bounds (rank required)", id, len(e.List), len(e.Rank), len(e.Card))
	}
	if !printable(e.List) || !printable(e.Rank) {
		return fmt.Errorf("entry of %q: list and rank must be printable ASCII", id)
	}
	return nil
}

// printable: ASCII from space to tilde only (the bbolt store separates
// list, rank and id by a zero byte).
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// CloneEntry copies e's card (nil when empty).
func CloneEntry(e Entry) Entry {
	if len(e.Card) == 0 {
		e.Card = nil
	} else {
		e.Card = CloneBytes(e.Card)
	}
	return e
}

// Store is what the API needs from persistence: create, load, and
// save-if-version.
type Store interface {
	// Create stores a new item at version 1, to expire at expires (zero:
	// never); ErrExists if the id is taken.
	Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error
	// Load returns the game; ErrNotFound if absent.
	Load(ctx context.Context, id string) (Item, error)
	// Save writes state as version expected+1, to expire at expires (zero:
	// never), only if the stored version is expected; else ErrConflict
	// (ErrNotFound if absent). Every write of an item is at a new
	// version: there is no write at the same version, so no writer can
	// overwrite what another wrote after it read (docs/store.md). now is
	// the item's UpdatedAt as the caller names it (a game's time of its
	// last change, which a note keeps).
	Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error
	// Due lists at most limit ids whose due time is set and not after
	// before, the earliest first. It reads an index: it never scans.
	Due(ctx context.Context, before time.Time, limit int) ([]string, error)
	// LoadMany reads at most MaxLoadMany items at once, as Load does (a
	// LoadMany after a Save sees it): the ones present, by id; an absent
	// id is simply not in the map.
	LoadMany(ctx context.Context, ids []string) (map[string]Item, error)
	// CreateListed is Create that also puts the item in e's list (in none
	// when e is zero); Create is CreateListed with a zero Entry.
	CreateListed(ctx context.Context, id string, state []byte, now, due, expires time.Time, e Entry) error
	// SaveListed is Save that also sets the item's entry to e, in the same
	// write: a zero e takes it out of its list. Save is SaveListed with a
	// zero Entry.
	SaveListed(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time, e Entry) error
	// List reads at most limit (at most MaxList) entries of list whose
	// Rank is from or higher, highest first. It reads an index: it never scans. It may miss a write of
	// the last moment (DynamoDB's indexes are eventually consistent).
	List(ctx context.Context, list, from string, limit int) ([]Listed, error)
	// ListBelow is List of the entries whose Rank is below below (every
	// entry when below is ""), highest first: the page after a page whose
	// lowest rank was below. It pages a list whose ranks are unique (the
	// moderation queue's end in the report's id).
	ListBelow(ctx context.Context, list, below string, limit int) ([]Listed, error)
	// Delete removes the item with its entry and its due time at once,
	// whatever its version: for what a person asks to be forgotten
	// (docs/forgetting.md). An absent item is no error.
	Delete(ctx context.Context, id string) error
}

// Eventual is an adapter with a cheaper read that may be a moment stale.
// LoadEventual is Load, except that shortly after a Save it may still return
// the item as it was before (never a torn or made-up one). DynamoDB's
// eventually consistent GetItem costs half a strong one. The API uses it only
// for a poll that names the version it holds (docs/consistency.md).
type Eventual interface {
	LoadEventual(ctx context.Context, id string) (Item, error)
}

// MaxLoadMany is the most ids one LoadMany takes (DynamoDB's BatchGetItem
// takes 100 keys).
const MaxLoadMany = 100

// LoadAll is LoadMany for any number of ids, MaxLoadMany at a time.
func LoadAll(ctx context.Context, s Store, ids []string) (map[string]Item, error) {
	out := map[string]Item{}
	for len(ids) > 0 {
		n := min(len(ids), MaxLoadMany)
		items, err := s.LoadMany(ctx, ids[:n])
		if err != nil {
			return nil, err
		}
		for id, it := range items {
			out[id] = it
		}
		ids = ids[n:]
	}
	return out, nil
}

// CreateOrSave writes item id after a read that found it at version, or
// found none (version 0): Create then, else Save conditioned on version.
// Either way a writer that raced it gets ErrExists or ErrConflict, which
// the caller's retry reads again.
func CreateOrSave(ctx context.Context, s Store, id string, state []byte, version int64, now, due, expires time.Time) error {
	if version == 0 {
		return s.Create(ctx, id, state, now, due, expires)
	}
	return s.Save(ctx, id, state, version, now, due, expires)
}

// CheckMany rejects a LoadMany that no adapter should carry out: too many
// ids, an empty id, or a context that is already done.
func CheckMany(ctx context.Context, ids []string) error {
	if len(ids) > MaxLoadMany {
		return fmt.Errorf("load many: %d ids, at most %d", len(ids), MaxLoadMany)
	}
	for _, id := range ids {
		if id == "" {
			return fmt.Errorf("load many: %w", ErrEmptyID)
		}
	}
	if err := ctx.Err(); err != nil {
		return Unavailable("load many", fmt.Sprint(len(ids), " ids"), err)
	}
	return nil
}

// What every adapter (packages memory, bolt, dynamo) does alike.

// CheckCall rejects calls that no adapter should carry out: an empty id, or
// a context that is already done (reported as ErrUnavailable, like any
// deadline).
func CheckCall(ctx context.Context, op, id string) error {
	if id == "" {
		return fmt.Errorf("%s: %w", op, ErrEmptyID)
	}
	if err := ctx.Err(); err != nil {
		return Unavailable(op, id, err)
	}
	return nil
}

// Unavailable wraps a transient cause so that both errors.Is(err,
// ErrUnavailable) and errors.Is(err, cause) hold.
func Unavailable(op, id string, cause error) error {
	return fmt.Errorf("%w: %s %q: %w", ErrUnavailable, op, id, cause)
}

// NormalizeTime drops the monotonic clock reading and the location, so that
// a time read back from any adapter compares equal (==) to the one written.
func NormalizeTime(t time.Time) time.Time {
	return t.Round(0).UTC()
}

// NormalizeDue keeps a due time to the second, in UTC (zero stays zero):
// what every adapter's index holds.
func NormalizeDue(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return time.Unix(t.Unix(), 0).UTC()
}

// Written is the item a Create (version 1) or a Save (version) writes, its
// times normalized as every adapter keeps them.
func Written(version int64, state []byte, now, due, expires time.Time) Item {
	return Item{Version: version, State: state, UpdatedAt: NormalizeTime(now), Due: NormalizeDue(due), Expires: NormalizeDue(expires)}
}

// CloneBytes copies b; the result is never nil so that an empty state reads
// back the same from every adapter.
func CloneBytes(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// SortListed orders entries as List returns them: highest rank first,
// equal ranks by id, highest first.
func SortListed(l []Listed) {
	sort.Slice(l, func(i, j int) bool {
		if l[i].Rank != l[j].Rank {
			return l[i].Rank > l[j].Rank
		}
		return l[i].ID > l[j].ID
	})
}
