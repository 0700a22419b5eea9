package game

import (
	"encoding/binary"
	"testing"

	"tessera/engine"
	"tessera/functions/store"
)

// TestStoredFormat7KeepsTheGamesVersion: format 7 carries the game's own
// version (a note keeps it while the store's goes on) and when its
// settling was done; a format-6 game, written before notes had versions
// of their own, reads with the store's version as the game's.
func TestStoredFormat7KeepsTheGamesVersion(t *testing.T) {
	m, err := engine.NewMatch(engine.DefaultOptions(engine.FiveUp), engine.Seed{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	st := NewStored(m, nil)
	st.Version, st.SettledAt, st.Chat = 5, 1765000000, 3
	const id = "abcdefghijklmnop"
	got, err := OpenStored(id, store.Item{Version: 9, State: SealStored(id, 9, st)})
	if err != nil || got.Version != 5 || got.SettledAt != 1765000000 || got.Chat != 3 {
		t.Fatalf("format 7 at the store's 9: %+v, %v; want the game's version 5", got, err)
	}
	// The same game as format 6 wrote it: no version, no settledAt.
	body := EncodeStored(st)
	tail := binary.AppendUvarint(nil, uint64(st.Version))
	tail = binary.AppendVarint(tail, st.SettledAt)
	six := append([]byte{StoredFormat6}, body[1:len(body)-len(tail)]...)
	six = binary.BigEndian.AppendUint32(six, storedChecksum(id, 9, six))
	got, err = OpenStored(id, store.Item{Version: 9, State: six})
	if err != nil || got.Version != 9 || got.SettledAt != 0 || got.Chat != 3 {
		t.Fatalf("format 6 at the store's 9: %+v, %v; want the game's version 9", got, err)
	}
	// A game's version above the store's is a damaged value.
	st.Version = 10
	if _, err := OpenStored(id, store.Item{Version: 9, State: SealStored(id, 9, st)}); err == nil {
		t.Fatal("a game's version above the store's opened")
	}
}
