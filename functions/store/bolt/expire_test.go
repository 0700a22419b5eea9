package bolt_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tessera/functions/store"
)

func TestExpireDeletesWhatIsPastTheTTL(t *testing.T) {
	b := mustOpenBolt(t, filepath.Join(t.TempDir(), "games.db"))
	defer b.Close()
	ctx := t.Context()
	for i, at := range []time.Time{when, when.Add(time.Hour), when.Add(48 * time.Hour)} {
		if err := b.Create(ctx, fmt.Sprint("g", i), []byte("s"), at, at.Add(time.Minute), at.Add(store.TTL)); err != nil {
			t.Fatal(err)
		}
	}
	// g1 is written again later: its expiry moves.
	if err := b.Save(ctx, "g1", []byte("s2"), 1, when.Add(72*time.Hour), time.Time{}, when.Add(72*time.Hour+store.TTL)); err != nil {
		t.Fatal(err)
	}
	n, err := b.Expire(ctx, when.Add(store.TTL+2*time.Hour), 100)
	if err != nil || n != 1 {
		t.Fatalf("Expire = %d, %v; want 1 (g0)", n, err)
	}
	if _, err := b.Load(ctx, "g0"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("g0 after its expiry: %v", err)
	}
	for _, id := range []string{"g1", "g2"} {
		if _, err := b.Load(ctx, id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	due, err := b.Due(ctx, when.Add(store.TTL*2), 10)
	if err != nil || len(due) != 1 || due[0] != "g2" {
		t.Errorf("Due after the expiry = %v, %v; want [g2] (g0's entry gone with it, g1 not due)", due, err)
	}
	// The limit bounds one call.
	n, err = b.Expire(ctx, when.Add(store.TTL*2), 1)
	if err != nil || n != 1 {
		t.Fatalf("Expire with limit 1 = %d, %v", n, err)
	}
	n, err = b.Expire(ctx, when.Add(store.TTL*2), 10)
	if err != nil || n != 1 {
		t.Fatalf("the last one = %d, %v", n, err)
	}
}

// TestExpiryBoundsTheFile writes games every simulated day for two TTLs
// and expires daily: the file stops growing after one TTL, as bbolt reuses
// the freed pages. It logs the sizes (go test -run ExpiryBounds -v).
func TestExpiryBoundsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	b := mustOpenBolt(t, path)
	defer b.Close()
	ctx := t.Context()
	const perDay, days = 8, 360
	ttlDays := int(store.TTL / (24 * time.Hour))
	state := bytes.Repeat([]byte{7}, 900)
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	var atTTL int64
	for d := range days {
		now := when.Add(time.Duration(d) * 24 * time.Hour)
		for g := range perDay {
			if err := b.Create(ctx, fmt.Sprintf("d%03dg%d", d, g), state, now, time.Time{}, now.Add(store.TTL)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := b.Expire(ctx, now, 10000); err != nil {
			t.Fatal(err)
		}
		if d == ttlDays+10 {
			atTTL = size()
		}
	}
	end := size()
	live, err := b.LoadMany(ctx, []string{"d000g0", fmt.Sprintf("d%03dg0", days-ttlDays-2), fmt.Sprintf("d%03dg0", days-1)})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := live["d000g0"]; ok || len(live) != 1 {
		t.Errorf("live among the oldest, one just past the TTL and the newest: %v; want only the newest", len(live))
	}
	t.Logf("%d games a day for %d days (TTL %d days): %d bytes after %d days, %d bytes at the end", perDay, days, ttlDays, atTTL, ttlDays+10, end)
	if end > atTTL*5/4 {
		t.Errorf("the file grew from %d to %d bytes after the first TTL: expiry does not bound it", atTTL, end)
	}
}
