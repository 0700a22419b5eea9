package scale

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"tessera/functions/store"
	"tessera/functions/store/dynamo"
	"tessera/functions/store/memory"
	"tessera/internal/testenv"
)

// The counter charges what DynamoDB would: a write by the item's size in
// KB, a read by 4 KB (half eventually consistent), an index entry only
// when what the index holds changes (a key moved is two writes), a failed
// condition's write too, and every due shard's query on each Due.
func TestTheCounterChargesAsDynamoDBDoes(t *testing.T) {
	ctx := context.Background()
	clock := &testenv.Clock{T: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	c := NewCounter(memory.New(), clock.Now)
	now := clock.Now()
	due := now.Add(time.Hour)
	big := bytes.Repeat([]byte("x"), 5000) // 5 KB: 5 write units, 2 read units
	if err := c.CreateListed(ctx, "g1", big, now, due, time.Time{}, store.Entry{List: "lobby:a", Rank: "r1", Card: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	// The same due time and entry: the indexes are not written again.
	if err := c.SaveListed(ctx, "g1", big, 1, now, due, time.Time{}, store.Entry{List: "lobby:a", Rank: "r1", Card: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	// A new due time and another list: a delete and a put in each index.
	if err := c.SaveListed(ctx, "g1", []byte("small"), 2, now, due.Add(time.Hour), time.Time{}, store.Entry{List: "lobby:b", Rank: "r2"}); err != nil {
		t.Fatal(err)
	}
	// A stale write fails its condition, and is charged.
	if err := c.Save(ctx, "g1", []byte("small"), 1, now, time.Time{}, time.Time{}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a stale save: %v", err)
	}
	if _, err := c.Load(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.LoadEventual(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Due(ctx, due.Add(2*time.Hour), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := c.List(ctx, "lobby:b", "", 10); err != nil {
		t.Fatal(err)
	}
	got := map[Key]Units{}
	for _, l := range c.Loads() {
		got[l.Key] = l.Total
	}
	shard := dynamo.DueShardOf("g1")
	want := map[Key]Units{
		// 5 + 5 (the same item again) + 5 (the larger of before and after)
		// + 1 (the failed condition); reads: 1 consistent and half of 1.
		{Table, "g1"}: {Read: 1.5, Write: 16},
		// Put, then (a new time) delete and put; the query: half a unit.
		{Due, shard}:       {Read: 0.5, Write: 3},
		{Lists, "lobby:a"}: {Write: 2},
		{Lists, "lobby:b"}: {Read: 0.5, Write: 1},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%v: %+v, want %+v", k, got[k], w)
		}
	}
	// Every shard and the legacy key are queried by each Due.
	queried := 0
	for k, u := range got {
		if k.Space == Due && u.Read > 0 {
			queried++
		}
	}
	if queried != dynamo.DueShards+1 {
		t.Errorf("Due queried %d keys, want %d", queried, dynamo.DueShards+1)
	}
}
