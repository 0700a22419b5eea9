//go:build js && wasm

package d1_test

import (
	"fmt"
	"syscall/js"
	"testing"
	"time"

	"tessera/functions/jsutil"
	"tessera/functions/store"
	"tessera/functions/store/d1"
	"tessera/functions/store/storetest"
)

// These tests run only inside workerd, where the test shim
// (infra/workers/gotest.mjs, started by functions/workertest) puts the
// Worker's env, with a D1 database bound as DB, at globalThis.tesseraEnv.
func database(t *testing.T) js.Value {
	env := js.Global().Get("tesseraEnv")
	if env.IsUndefined() {
		t.Fatal("no globalThis.tesseraEnv: run this test binary under infra/workers/gotest.mjs")
	}
	return env.Get("DB")
}

// empty deletes every row, so each subtest starts from an empty store.
func empty(t *testing.T, db js.Value) *d1.Store {
	t.Helper()
	for _, table := range []string{"entries", "games"} {
		if _, err := jsutil.Await(t.Context(), db.Call("prepare", "DELETE FROM "+table).Call("run")); err != nil {
			t.Fatal(err)
		}
	}
	return d1.New(db)
}

func TestContract(t *testing.T) {
	db := database(t)
	storetest.Run(t, func(t *testing.T) store.Store { return empty(t, db) })
}

func TestExpireDeletesWhatIsPastTheTTL(t *testing.T) {
	s := empty(t, database(t))
	ctx := t.Context()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	for i := range 5 {
		at := t0.Add(time.Duration(i) * time.Hour)
		if err := s.Create(ctx, fmt.Sprint("g", i), []byte("x"), at, time.Time{}, at.Add(store.TTL)); err != nil {
			t.Fatal(err)
		}
	}
	// g0 and g1 were last written more than TTL before now; g2 exactly
	// TTL before (expired too: expires_at <= now).
	now := t0.Add(store.TTL + 2*time.Hour)
	n, err := s.Expire(ctx, now, 2)
	if err != nil || n != 2 {
		t.Fatalf("Expire(limit 2) = %d, %v; want 2", n, err)
	}
	n, err = s.Expire(ctx, now, 100)
	if err != nil || n != 1 {
		t.Fatalf("second Expire = %d, %v; want 1", n, err)
	}
	for i := range 5 {
		_, err := s.Load(ctx, fmt.Sprint("g", i))
		if gone := err != nil; gone != (i <= 2) {
			t.Errorf("g%d: Load = %v", i, err)
		}
	}
	// A save renews the expiry.
	if err := s.Save(ctx, "g3", []byte("y"), 1, now, time.Time{}, now.Add(store.TTL)); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Expire(ctx, t0.Add(store.TTL+3*time.Hour+time.Minute), 100); n != 0 {
		t.Errorf("Expire after g3's save deleted %d, want 0 (g4 is younger, g3 was saved)", n)
	}
}
