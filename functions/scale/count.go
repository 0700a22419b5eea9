// Package scale measures where the service's load lands on DynamoDB
// (issue 45, docs/scale.md): Counter wraps a store and charges each of its
// operations to the partition keys DynamoDB would charge, in capacity
// units, by the real key scheme of package dynamo (the table's key is the
// item's id, the due index's dynamo.DueShardOf, the lists index's the
// list's name); Simulate plays a generated population through the real
// services on a fake clock over it. Nothing here serves a request.
package scale

import (
	"context"
	"math"
	"sort"
	"sync"
	"time"

	"tessera/functions/store"
	"tessera/functions/store/dynamo"
)

// Spaces of partition keys: the table and its two indexes (template.yaml).
const (
	Table = "table"
	Due   = dynamo.DueIndex
	Lists = dynamo.ListIndex
)

// Key is one partition key of the table or of an index.
type Key struct {
	Space string // Table, Due or Lists
	PK    string // the item's id, the due shard, the list's name
}

// Units are capacity units: reads (4 KB strongly consistent, half that
// eventually consistent) and writes (1 KB).
type Units struct{ Read, Write float64 }

func (u *Units) add(v Units) { u.Read += v.Read; u.Write += v.Write }

// indexed is what the indexes hold of an item, as the counter last wrote
// it: an index is written only when that changes.
type indexed struct {
	size   int   // the item's size (dynamo.ItemSize)
	due    int64 // epoch seconds, 0: not due
	list   string
	rank   string
	card   int
	exists bool
}

// Counter is a store.Store that charges every operation's capacity units
// to its partition keys (the whole run and its busiest minute on the
// clock now) and passes it on to the store it wraps.
type Counter struct {
	inner store.Store
	now   func() time.Time

	mu     sync.Mutex
	items  map[string]indexed
	total  map[Key]*Units
	peak   map[Key]*Units // the key's busiest minute
	minute int64
	cur    map[Key]*Units
	ops    int
}

// NewCounter wraps inner; now is the clock the minutes are read on.
func NewCounter(inner store.Store, now func() time.Time) *Counter {
	return &Counter{inner: inner, now: now, items: map[string]indexed{}, total: map[Key]*Units{},
		peak: map[Key]*Units{}, cur: map[Key]*Units{}}
}

var _ store.Store = (*Counter)(nil)
var _ store.Eventual = (*Counter)(nil)

// charge adds u to k, in the run and in this minute.
func (c *Counter) charge(k Key, u Units) {
	m := c.now().Unix() / 60
	if m != c.minute {
		c.flush()
		c.minute = m
	}
	if c.total[k] == nil {
		c.total[k] = &Units{}
	}
	c.total[k].add(u)
	if c.cur[k] == nil {
		c.cur[k] = &Units{}
	}
	c.cur[k].add(u)
}

// flush ends the minute: each key's units in it set its peak.
func (c *Counter) flush() {
	for k, u := range c.cur {
		p := c.peak[k]
		if p == nil {
			p = &Units{}
			c.peak[k] = p
		}
		p.Read = max(p.Read, u.Read)
		p.Write = max(p.Write, u.Write)
	}
	c.cur = map[Key]*Units{}
}

func readUnits(size int, consistent bool) float64 {
	u := math.Ceil(float64(max(size, 1)) / 4096)
	if !consistent {
		u /= 2
	}
	return u
}

func writeUnits(size int) float64 { return math.Ceil(float64(max(size, 1)) / 1024) }

// dueEntrySize and listEntrySize are an index entry's size: its keys
// (the table's and the index's) and, for the lists, the card it projects.
func dueEntrySize(id string) int { return len(id) + len(dynamo.DueShardOf(id)) + 8 + 20 }
func listEntrySize(id string, e indexed) int {
	return len(id) + len(e.list) + len(e.rank) + e.card + 20
}

// wrote charges a write of item id that left it as after (exists false:
// deleted), and the index writes it makes: an index entry is written when
// what the index holds of the item changes (a key moved is a delete and a
// put).
func (c *Counter) wrote(id string, after indexed) {
	before := c.items[id]
	c.charge(Key{Table, id}, Units{Write: writeUnits(max(before.size, after.size))})
	if before.due != after.due {
		shard := dynamo.DueShardOf(id)
		if before.due != 0 {
			c.charge(Key{Due, shard}, Units{Write: writeUnits(dueEntrySize(id))})
		}
		if after.due != 0 {
			c.charge(Key{Due, shard}, Units{Write: writeUnits(dueEntrySize(id))})
		}
	}
	switch {
	case before.list == after.list && before.rank == after.rank && before.card == after.card:
	case before.list == after.list && before.rank == after.rank:
		c.charge(Key{Lists, after.list}, Units{Write: writeUnits(listEntrySize(id, after))})
	default:
		if before.list != "" {
			c.charge(Key{Lists, before.list}, Units{Write: writeUnits(listEntrySize(id, before))})
		}
		if after.list != "" {
			c.charge(Key{Lists, after.list}, Units{Write: writeUnits(listEntrySize(id, after))})
		}
	}
	if after.exists {
		c.items[id] = after
	} else {
		delete(c.items, id)
	}
}

func shape(id string, state []byte, now, due, expires time.Time, e store.Entry, version int64) indexed {
	it := store.Item{State: state, Version: version, UpdatedAt: now, Due: due, Expires: expires, Entry: e}
	x := indexed{size: dynamo.ItemSize(id, it), list: e.List, rank: e.Rank, card: len(e.Card), exists: true}
	if !due.IsZero() {
		x.due = due.Unix()
	}
	return x
}

// Create implements store.Store.
func (c *Counter) Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error {
	return c.CreateListed(ctx, id, state, now, due, expires, store.Entry{})
}

// CreateListed implements store.Store: a conditional put, charged whether
// or not its condition holds (DynamoDB charges a failed condition's write).
func (c *Counter) CreateListed(ctx context.Context, id string, state []byte, now, due, expires time.Time, e store.Entry) error {
	err := c.inner.CreateListed(ctx, id, state, now, due, expires, e)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops++
	after := shape(id, state, now, due, expires, e, 1)
	if err != nil {
		c.charge(Key{Table, id}, Units{Write: writeUnits(after.size)})
		return err
	}
	c.wrote(id, after)
	return nil
}

// Save implements store.Store.
func (c *Counter) Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error {
	return c.SaveListed(ctx, id, state, expected, now, due, expires, store.Entry{})
}

// SaveListed implements store.Store.
func (c *Counter) SaveListed(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time, e store.Entry) error {
	err := c.inner.SaveListed(ctx, id, state, expected, now, due, expires, e)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops++
	after := shape(id, state, now, due, expires, e, expected+1)
	if err != nil {
		c.charge(Key{Table, id}, Units{Write: writeUnits(max(after.size, c.items[id].size))})
		return err
	}
	c.wrote(id, after)
	return nil
}

// Load implements store.Store: a strongly consistent read.
func (c *Counter) Load(ctx context.Context, id string) (store.Item, error) {
	it, err := c.inner.Load(ctx, id)
	c.read(id, it, err, true)
	return it, err
}

// LoadEventual implements store.Eventual as DynamoDB does: half a read's
// price (the wrapped store's Load answers it).
func (c *Counter) LoadEventual(ctx context.Context, id string) (store.Item, error) {
	var it store.Item
	var err error
	if ev, ok := c.inner.(store.Eventual); ok {
		it, err = ev.LoadEventual(ctx, id)
	} else {
		it, err = c.inner.Load(ctx, id)
	}
	c.read(id, it, err, false)
	return it, err
}

func (c *Counter) read(id string, it store.Item, err error, consistent bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops++
	size := 1
	if err == nil {
		size = dynamo.ItemSize(id, it)
	}
	c.charge(Key{Table, id}, Units{Read: readUnits(size, consistent)})
}

// LoadMany implements store.Store: BatchGetItem, strongly consistent,
// each item charged to its own key.
func (c *Counter) LoadMany(ctx context.Context, ids []string) (map[string]store.Item, error) {
	got, err := c.inner.LoadMany(ctx, ids)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops++
	for _, id := range ids {
		size := 1
		if it, ok := got[id]; ok {
			size = dynamo.ItemSize(id, it)
		}
		c.charge(Key{Table, id}, Units{Read: readUnits(size, true)})
	}
	return got, err
}

// Due implements store.Store: one Query of every shard (and the legacy
// key), eventually consistent, each charged for what it returns (at
// least half a unit).
func (c *Counter) Due(ctx context.Context, before time.Time, limit int) ([]string, error) {
	ids, err := c.inner.Due(ctx, before, limit)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops++
	bytes := map[string]int{}
	for _, id := range ids {
		bytes[dynamo.DueShardOf(id)] += dueEntrySize(id)
	}
	for _, shard := range dynamo.DueKeys() {
		c.charge(Key{Due, shard}, Units{Read: readUnits(bytes[shard], false)})
	}
	return ids, err
}

// List implements store.Store: one Query of the list's key.
func (c *Counter) List(ctx context.Context, list, from string, limit int) ([]store.Listed, error) {
	got, err := c.inner.List(ctx, list, from, limit)
	c.listed(list, got)
	return got, err
}

// ListBelow implements store.Store.
func (c *Counter) ListBelow(ctx context.Context, list, below string, limit int) ([]store.Listed, error) {
	got, err := c.inner.ListBelow(ctx, list, below, limit)
	c.listed(list, got)
	return got, err
}

func (c *Counter) listed(list string, got []store.Listed) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops++
	n := 0
	for _, l := range got {
		n += len(l.ID) + len(list) + len(l.Rank) + len(l.Card) + 20
	}
	c.charge(Key{Lists, list}, Units{Read: readUnits(n, false)})
}

// Delete implements store.Store.
func (c *Counter) Delete(ctx context.Context, id string) error {
	err := c.inner.Delete(ctx, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops++
	if err == nil {
		c.wrote(id, indexed{})
	}
	return err
}

// Load is one key's load: the whole run's units and its busiest minute's.
type Load struct {
	Key   Key
	Total Units
	Peak  Units // in its busiest minute
}

// Loads are every key's, the most written first.
func (c *Counter) Loads() []Load {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flush()
	out := make([]Load, 0, len(c.total))
	for k, u := range c.total {
		out = append(out, Load{Key: k, Total: *u, Peak: *c.peak[k]})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Total.Write != out[j].Total.Write {
			return out[i].Total.Write > out[j].Total.Write
		}
		if out[i].Total.Read != out[j].Total.Read {
			return out[i].Total.Read > out[j].Total.Read
		}
		return out[i].Key.Space+out[i].Key.PK < out[j].Key.Space+out[j].Key.PK
	})
	return out
}

// Ops is how many store operations the counter saw.
func (c *Counter) Ops() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ops
}
