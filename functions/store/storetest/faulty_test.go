package storetest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"tessera/functions/store"
	"tessera/functions/store/memory"
	"tessera/functions/store/storetest"
)

var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// A Faulty without instructions is a plain Store.
func TestFaultyPassesTheContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return storetest.NewFaulty(memory.New()) })
}

func newGame(t *testing.T) *storetest.Faulty {
	t.Helper()
	f := storetest.NewFaulty(memory.New())
	if err := f.Inner.Create(t.Context(), "g1", []byte("v1"), now, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestFaultyFailsTheNextCallsInOrderThenPassesThrough(t *testing.T) {
	injected := fmt.Errorf("%w: injected timeout", store.ErrUnavailable)
	other := errors.New("injected other")

	t.Run("load", func(t *testing.T) {
		f := newGame(t)
		f.FailNextLoad(injected, other)
		for i, want := range []error{injected, other, nil} {
			if _, err := f.Load(t.Context(), "g1"); !errors.Is(err, want) || (want == nil && err != nil) {
				t.Errorf("Load #%d = %v, want %v", i+1, err, want)
			}
		}
	})
	t.Run("save writes nothing when failed", func(t *testing.T) {
		f := newGame(t)
		f.FailNextSave(injected)
		if err := f.Save(t.Context(), "g1", []byte("v2"), 1, now, time.Time{}, time.Time{}); !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("Save = %v, want ErrUnavailable", err)
		}
		if item, _ := f.Inner.Load(t.Context(), "g1"); item.Version != 1 {
			t.Errorf("version after a failed Save = %d, want 1", item.Version)
		}
		if err := f.Save(t.Context(), "g1", []byte("v2"), 1, now, time.Time{}, time.Time{}); err != nil {
			t.Errorf("second Save = %v, want nil", err)
		}
	})
	t.Run("create writes nothing when failed", func(t *testing.T) {
		f := storetest.NewFaulty(memory.New())
		f.FailNextCreate(injected)
		if err := f.Create(t.Context(), "g2", []byte("x"), now, time.Time{}, time.Time{}); !errors.Is(err, injected) {
			t.Errorf("Create = %v, want the injected error", err)
		}
		if _, err := f.Inner.Load(t.Context(), "g2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Load after a failed Create = %v, want ErrNotFound", err)
		}
	})
	t.Run("calls are counted", func(t *testing.T) {
		f := newGame(t)
		f.FailNextLoad(injected)
		f.Load(t.Context(), "g1")
		f.Load(t.Context(), "g1")
		f.Save(t.Context(), "g1", []byte("v2"), 1, now, time.Time{}, time.Time{})
		if c, l, s := f.Calls(); c != 0 || l != 2 || s != 1 {
			t.Errorf("Calls() = %d, %d, %d; want 0, 2, 1", c, l, s)
		}
	})
}

func TestFaultyLostSaveResponseWritesButReportsFailure(t *testing.T) {
	f := newGame(t)
	f.LoseNextSaveResponse(fmt.Errorf("%w: injected lost response", store.ErrUnavailable))
	if err := f.Save(t.Context(), "g1", []byte("v2"), 1, now, time.Time{}, time.Time{}); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Save = %v, want ErrUnavailable", err)
	}
	item, err := f.Load(t.Context(), "g1")
	if err != nil || item.Version != 2 || string(item.State) != "v2" {
		t.Errorf("Load = %+v, %v; want version 2 with v2 (the write landed)", item, err)
	}
}

// The hook is how a test of the API slips a second player's move in between
// the API's Load and its Save.
func TestFaultyBeforeNextSaveInterleavesAWriter(t *testing.T) {
	f := newGame(t)
	f.BeforeNextSave(func(ctx context.Context, id string, expected int64) {
		if err := f.Inner.Save(ctx, id, []byte("sneaky"), expected, now, time.Time{}, time.Time{}); err != nil {
			t.Errorf("interleaved Save = %v", err)
		}
	})
	item, _ := f.Load(t.Context(), "g1")
	err := f.Save(t.Context(), "g1", []byte("mine"), item.Version, now, time.Time{}, time.Time{})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("Save after an interleaved write = %v, want ErrConflict", err)
	}
	// The hook ran once: a retry from a fresh Load goes through.
	item, _ = f.Load(t.Context(), "g1")
	if err := f.Save(t.Context(), "g1", []byte("mine"), item.Version, now, time.Time{}, time.Time{}); err != nil {
		t.Errorf("retried Save = %v, want nil", err)
	}
	if item, _ := f.Load(t.Context(), "g1"); item.Version != 3 || string(item.State) != "mine" {
		t.Errorf("final item = %+v, want version 3 with mine", item)
	}
}

func TestFaultyBeforeEverySaveRunsUntilCleared(t *testing.T) {
	f := newGame(t)
	runs := 0
	f.BeforeEverySave(func(ctx context.Context, id string, expected int64) { runs++ })
	f.Save(t.Context(), "g1", []byte("v2"), 1, now, time.Time{}, time.Time{})
	f.Save(t.Context(), "g1", []byte("v3"), 2, now, time.Time{}, time.Time{})
	f.BeforeEverySave(nil)
	f.Save(t.Context(), "g1", []byte("v4"), 3, now, time.Time{}, time.Time{})
	if runs != 2 {
		t.Errorf("hook ran %d times, want 2", runs)
	}
}
