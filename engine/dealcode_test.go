package engine

import (
	"errors"
	"testing"
)

func TestDealCode(t *testing.T) {
	for players := 2; players <= 4; players++ {
		t.Run("a canonical deal round-trips in its fixed size", func(t *testing.T) {
			for s := 0; s < 2000; s++ {
				order := Seed{uint64(s), uint64(players)}.shuffle(s, 0)
				canonical(&order, players)
				raw := appendDealCode(nil, &order, players)
				if len(raw) != dealBytes[players] {
					t.Fatalf("%d players: %d bytes, want %d", players, len(raw), dealBytes[players])
				}
				got, err := dealFromCode(raw, players)
				if err != nil {
					t.Fatal(err)
				}
				for i, ti := range order {
					if got[i] != tileOf[ti] {
						t.Fatalf("%d players, seed %d: position %d is %v, want %v", players, s, i, got[i], tileOf[ti])
					}
				}
			}
		})
		t.Run("a code that is no deal is corrupt", func(t *testing.T) {
			all := make([]byte, dealBytes[players])
			for i := range all {
				all[i] = 0xff
			}
			zero := make([]byte, dealBytes[players]) // every tile to seat 0
			for _, raw := range [][]byte{all, zero} {
				if _, err := dealFromCode(raw, players); !errors.Is(err, ErrCorrupt) {
					t.Errorf("%d players: dealFromCode(% x) = %v, want ErrCorrupt", players, raw, err)
				}
			}
		})
	}
	t.Run("canonical keeps every hand's tiles and the boneyard order", func(t *testing.T) {
		order := Seed{3, 3}.shuffle(1, 0)
		before := order
		canonical(&order, 2)
		if [14]uint8(order[14:]) != [14]uint8(before[14:]) {
			t.Fatal("boneyard order changed")
		}
		for s := 0; s < 2; s++ {
			var a, b uint32
			for i := 7 * s; i < 7*s+7; i++ {
				a |= 1 << order[i]
				b |= 1 << before[i]
				if i > 7*s && order[i] <= order[i-1] {
					t.Fatal("hand not in set order")
				}
			}
			if a != b {
				t.Fatal("hand changed")
			}
		}
	})
}
