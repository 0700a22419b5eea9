package bolt_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"tessera/functions/store"
	"tessera/functions/store/bolt"
)

// pageSize is bbolt's page size here (the OS page size, 4 KiB on Linux).
var pageSize = os.Getpagesize()

// sample writes a store of n games (ids "game-000".., states of 300 bytes)
// and returns the file's bytes.
func sample(t *testing.T, n int) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sample.db")
	b := mustOpenBolt(t, path)
	for i := range n {
		id := fmt.Sprintf("game-%03d", i)
		if err := b.Create(t.Context(), id, bytes.Repeat([]byte{byte(i)}, 300), when, when.Add(time.Duration(i)*time.Minute), time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// openCopy writes raw to a file of its own and opens it: nil when Open
// refuses it (its error must name the file).
func openCopy(t *testing.T, raw []byte) *bolt.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := bolt.Open(path)
	if err != nil {
		if !strings.Contains(err.Error(), path) {
			t.Errorf("Open error does not name the file: %v", err)
		}
		return nil
	}
	return b
}

// exercise opens a damaged copy and uses every call on it. Any error is
// fine; a crash fails the test binary, a wrong answer fails the test.
func exercise(t *testing.T, raw []byte, games int) (opened bool) {
	t.Helper()
	b := openCopy(t, raw)
	if b == nil {
		return false
	}
	defer b.Close()
	ctx := t.Context()
	for i := range games {
		id := fmt.Sprintf("game-%03d", i)
		item, err := b.Load(ctx, id)
		if err == nil && (item.Version != 1 || !bytes.Equal(item.State, bytes.Repeat([]byte{byte(i)}, 300))) {
			t.Errorf("Load %s = version %d, %d bytes: a wrong answer", id, item.Version, len(item.State))
		}
		if err == nil {
			_ = b.Save(ctx, id, []byte("next"), 1, when.Add(time.Hour), time.Time{}, time.Time{})
		}
	}
	_ = b.Create(ctx, "game-new", []byte("new"), when, time.Time{}, time.Time{})
	_, _ = b.Due(ctx, when.Add(time.Hour), 1000)
	_, _ = b.LoadMany(ctx, []string{"game-000", "game-001"})
	_, _ = b.Expire(ctx, when.Add(store.TTL+time.Hour), 1000)
	return true
}

// TestDamagedFiles: copies of a store with damage of every kind end in a
// clear error (at Open or on the damaged game), never a crash or a wrong
// answer; Open never starts afresh on a damaged file.
func TestDamagedFiles(t *testing.T) {
	const games = 40
	raw := sample(t, games)
	pages := len(raw) / pageSize
	t.Run("empty file", func(t *testing.T) {
		if exercise(t, nil, games) {
			t.Error("an empty file opened (it would start with no games)")
		}
	})
	// The pages in use: the high-water mark of the newer meta page (the
	// file may be longer, grown ahead).
	meta := func(i int) (txid, pgid uint64) {
		m := raw[i*pageSize+16:]
		return binary.LittleEndian.Uint64(m[48:]), binary.LittleEndian.Uint64(m[40:])
	}
	tx0, hw0 := meta(0)
	tx1, hw1 := meta(1)
	used := int(hw0) * pageSize
	if tx1 > tx0 {
		used = int(hw1) * pageSize
	}
	if used < 4*pageSize || used > len(raw) {
		t.Fatalf("high-water mark %d bytes of a %d-byte file: the meta layout is not what the test reads", used, len(raw))
	}
	for _, keep := range []int{100, pageSize, 2 * pageSize, used / 2, used - pageSize} {
		t.Run(fmt.Sprintf("truncated to %d bytes", keep), func(t *testing.T) {
			if exercise(t, raw[:keep], games) {
				t.Errorf("a file truncated to %d of %d bytes opened", keep, len(raw))
			}
		})
	}
	t.Run("not a store", func(t *testing.T) {
		if exercise(t, bytes.Repeat([]byte("not bbolt "), 2000), games) {
			t.Error("a file of text opened")
		}
	})
	t.Run("both meta pages flipped", func(t *testing.T) {
		d := bytes.Clone(raw)
		d[40] ^= 0xff
		d[pageSize+40] ^= 0xff
		if exercise(t, d, games) {
			t.Error("a file with no valid meta page opened")
		}
	})
	t.Run("one meta page flipped", func(t *testing.T) {
		d := bytes.Clone(raw)
		d[40] ^= 0xff
		exercise(t, d, games) // the other meta page is enough: it may open
	})
	// A flipped byte in every data page, one page at a time, at offsets
	// in the page header, the element headers and the data.
	for p := 2; p < pages; p++ {
		for _, off := range []int{2, 10, 20, 30, 100, pageSize / 2, pageSize - 5} {
			d := bytes.Clone(raw)
			d[p*pageSize+off] ^= 0x5a
			t.Run(fmt.Sprintf("page %d byte %d flipped", p, off), func(t *testing.T) { exercise(t, d, games) })
		}
	}
	// A leaf element whose key size is 0x10000: bbolt's check passes it,
	// and reading it runs past the page.
	patched := 0
	for p := 2; p < pages; p++ {
		pg := raw[p*pageSize:]
		flags, count := binary.LittleEndian.Uint16(pg[8:]), binary.LittleEndian.Uint16(pg[10:])
		if flags != 0x02 || count == 0 {
			continue
		}
		for e := range int(count) {
			el := 16 + e*16
			d := bytes.Clone(raw)
			binary.LittleEndian.PutUint32(d[p*pageSize+el+8:], 0x10000)
			patched++
			t.Run(fmt.Sprintf("page %d element %d key size 0x10000", p, e), func(t *testing.T) { exercise(t, d, games) })
			if e > 3 {
				break
			}
		}
	}
	if patched == 0 {
		t.Fatal("no leaf page found to patch: the test no longer damages what it says")
	}
	// A branch element pointing back up the tree (at its own page, at
	// each other branch page): bbolt would recurse until the stack
	// overflows, a crash no recover catches. Open must refuse the file.
	branches := liveBranches(t, raw)
	if len(branches) == 0 {
		t.Fatal("no branch page found: the sample no longer has a tree deep enough to damage")
	}
	for _, p := range branches {
		for _, target := range append([]int{0, 1}, branches...) {
			d := bytes.Clone(raw)
			binary.LittleEndian.PutUint64(d[p*pageSize+16+8:], uint64(target))
			t.Run(fmt.Sprintf("branch page %d points at page %d", p, target), func(t *testing.T) {
				if exercise(t, d, games) {
					t.Errorf("a file whose branch page %d points at page %d opened", p, target)
				}
			})
		}
	}
}

// liveBranches lists the branch pages of the tree in raw (not the freed
// copies a file keeps), as bbolt itself reports them.
func liveBranches(t *testing.T, raw []byte) []int {
	t.Helper()
	path := filepath.Join(t.TempDir(), "live.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var branches []int
	err = db.View(func(tx *bbolt.Tx) error {
		for id := 2; ; id++ {
			info, err := tx.Page(id)
			if err != nil || info == nil {
				return err
			}
			if info.Type == "branch" {
				branches = append(branches, id)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return branches
}

// TestFlippedValueIsCorrupt: a byte flipped inside one game's value is
// that game's store.ErrCorrupt, and every other game still loads.
func TestFlippedValueIsCorrupt(t *testing.T) {
	raw := sample(t, 5)
	state := bytes.Repeat([]byte{3}, 300)
	i := bytes.Index(raw, state)
	if i < 0 {
		t.Fatal("game-003's state not found in the file")
	}
	raw[i+100] ^= 1
	path := filepath.Join(t.TempDir(), "flipped.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	b := mustOpenBolt(t, path)
	defer b.Close()
	for g := range 5 {
		_, err := b.Load(t.Context(), fmt.Sprintf("game-%03d", g))
		if g == 3 && !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("the flipped game: %v, want store.ErrCorrupt", err)
		}
		if g != 3 && err != nil {
			t.Errorf("game %d: %v", g, err)
		}
	}
	many, err := b.LoadMany(t.Context(), []string{"game-002", "game-003", "game-004"})
	if err != nil || len(many) != 2 {
		t.Errorf("LoadMany = %d items, %v; want the two sound games", len(many), err)
	}
}

// noneMissing opens a damaged copy and fails the test when a game it
// holds answers store.ErrNotFound: a refusal at Open, or ErrCorrupt, is
// fine; "no such game" for a game that was written is a silent loss
// (attack kit: a leaf page's count zeroed, a key byte flipped).
func noneMissing(t *testing.T, raw []byte, games int) (opened bool) {
	t.Helper()
	b := openCopy(t, raw)
	if b == nil {
		return false
	}
	defer b.Close()
	for i := range games {
		id := fmt.Sprintf("game-%03d", i)
		if _, err := b.Load(t.Context(), id); errors.Is(err, store.ErrNotFound) {
			t.Errorf("Load %s = %v: a written game answered as never written", id, err)
		}
	}
	return true
}

func TestDamageNeverAnswersNoSuchGame(t *testing.T) {
	const games = 40
	raw := sample(t, games)
	pages := len(raw) / pageSize
	zeroed := 0
	for p := 2; p < pages; p++ {
		pg := raw[p*pageSize:]
		flags, count := binary.LittleEndian.Uint16(pg[8:]), binary.LittleEndian.Uint16(pg[10:])
		if flags != 0x02 || count == 0 {
			continue
		}
		d := bytes.Clone(raw)
		binary.LittleEndian.PutUint16(d[p*pageSize+10:], 0)
		zeroed++
		t.Run(fmt.Sprintf("leaf page %d count zeroed", p), func(t *testing.T) { noneMissing(t, d, games) })
	}
	if zeroed == 0 {
		t.Fatal("no leaf page found")
	}
	// The last game's key, its last byte flipped so that the keys stay in
	// order (bbolt's check would see the order broken): every copy of it
	// in the file, one at a time.
	key := []byte(fmt.Sprintf("game-%03d", games-1))
	flipped := 0
	for off := 0; ; {
		i := bytes.Index(raw[off:], key)
		if i < 0 {
			break
		}
		at := off + i + len(key) - 1
		off = at + 1
		d := bytes.Clone(raw)
		d[at] ^= 0x40
		flipped++
		t.Run(fmt.Sprintf("key byte %d flipped", at), func(t *testing.T) { noneMissing(t, d, games) })
	}
	if flipped == 0 {
		t.Fatal("the last game's key is not in the file")
	}
}
