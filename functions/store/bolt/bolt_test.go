package bolt_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"tessera/functions/store"
	"tessera/functions/store/bolt"
)

var when = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

func TestBoltKeepsGamesAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	b, err := bolt.Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if err := b.Create(t.Context(), "g1", []byte("v1"), when, time.Time{}, time.Time{}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if err := b.Save(t.Context(), "g1", []byte("v2"), 1, when.Add(time.Hour), time.Time{}, time.Time{}); err != nil {
		t.Fatalf("Save: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	b, err = bolt.Open(path)
	if err != nil {
		t.Fatalf("Open again: %v", err)
	}
	defer b.Close()
	item, err := b.Load(t.Context(), "g1")
	if err != nil {
		t.Fatalf("Load after reopen: %v", err)
	}
	if item.Version != 2 || string(item.State) != "v2" || !item.UpdatedAt.Equal(when.Add(time.Hour)) {
		t.Errorf("Load after reopen = %+v, want version 2, state v2, updatedAt %v", item, when.Add(time.Hour))
	}
}

func TestBoltSecondOpenOfALockedFileFailsClearly(t *testing.T) {
	t.Parallel() // mostly waiting
	path := filepath.Join(t.TempDir(), "games.db")
	b := mustOpenBolt(t, path)
	defer b.Close()

	// bbolt's lock is flock(2), held per open file, so a second open in the
	// same process waits exactly as another process would.
	second, err := bolt.Open(path)
	if err == nil {
		second.Close()
		t.Fatal("second Open of a held file = nil error, want a lock time-out")
	}
	if !errors.Is(err, bbolt.ErrTimeout) || !strings.Contains(err.Error(), "locked by another process") {
		t.Errorf("second Open = %v, want bbolt.ErrTimeout saying the file is locked by another process", err)
	}
}

func TestBoltOpenOfAnUnusablePathFails(t *testing.T) {
	dir := t.TempDir() // a directory, not a file
	if b, err := bolt.Open(dir); err == nil {
		b.Close()
		t.Fatalf("Open(%s) = nil error, want an error", dir)
	}
}

func TestBoltCorruptValueIsErrCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	b := mustOpenBolt(t, path)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// Write a value that is not a value of ours, behind the store's back.
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		// Counted, as the store counts what it writes (Open compares).
		if err := tx.Bucket([]byte("meta")).Put([]byte("items"), []byte{0, 0, 0, 0, 0, 0, 0, 1}); err != nil {
			return err
		}
		return tx.Bucket([]byte("games")).Put([]byte("bad"), []byte("not a value of ours"))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	b = mustOpenBolt(t, path)
	defer b.Close()
	_, loadErr := b.Load(t.Context(), "bad")
	saveErr := b.Save(t.Context(), "bad", []byte("x"), 1, when, time.Time{}, time.Time{})
	for call, err := range map[string]error{"Load": loadErr, "Save": saveErr} {
		if !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("%s of a corrupt value = %v, want store.ErrCorrupt", call, err)
		}
		for _, sentinel := range []error{store.ErrNotFound, store.ErrConflict, store.ErrUnavailable} {
			if errors.Is(err, sentinel) {
				t.Errorf("%s of a corrupt value = %v, want no sentinel", call, err)
			}
		}
	}
}

func mustOpenBolt(t *testing.T, path string) *bolt.Store {
	t.Helper()
	b, err := bolt.Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return b
}
