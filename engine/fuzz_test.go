package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"testing"
)

// fuzzSeeds are encodings of matches at several stages.
func fuzzSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for i, c := range configs {
		m, _ := NewMatch(c.opts, Seed{uint64(i), 1})
		out = append(out, Encode(m))
		m = newStarted(t, c.opts, Seed{uint64(i), 2})
		r := newRand(uint64(i))
		var buf [32]Move
		for k := 0; k < 40 && m.Status() == StatusPlaying; k++ {
			seat, mv := randomMove(m, r, buf[:])
			m.Apply(seat, mv)
		}
		out = append(out, Encode(m))
	}
	return out
}

// FuzzDecode: decoding arbitrary bytes never panics; what decodes
// re-encodes to a match that decodes to the same value. The input is tried
// as it is and, when it names format 5, with a valid checksum appended, so
// that the fuzzer explores format 5's parser behind its checksum too.
func FuzzDecode(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeRoundTrip(t, data)
		decodeRoundTrip(t, binary.LittleEndian.AppendUint32(append([]byte(nil), data...), crc32.ChecksumIEEE(data)))
	})
}

func decodeRoundTrip(t *testing.T, data []byte) {
	m, err := Decode(data)
	if err != nil {
		if m != nil || !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Decode error %v (match %v), want ErrCorrupt and no match", err, m != nil)
		}
		return
	}
	again, err := Decode(Encode(m))
	if err != nil {
		t.Fatalf("re-encoded match does not decode: %v", err)
	}
	if !reflect.DeepEqual(again, m) {
		t.Fatal("round trip changed the match")
	}
}

// FuzzApply: arbitrary moves by arbitrary seats on reachable states never
// panic; a refused move changes nothing; an accepted one keeps every tile
// accounted for.
func FuzzApply(f *testing.F) {
	f.Add(uint8(0), uint64(1), uint8(10), []byte{0, 0, 6, 6, 0, 1, 0, 2, 3, 1})
	f.Add(uint8(4), uint64(7), uint8(0), []byte{255, 1, 9, 9, 7, 0, 2, 0, 0, 0, 3, 1})
	f.Add(uint8(1), uint64(3), uint8(200), []byte{1, 0, 3, 4, 2, 1, 0, 5, 5, 3})
	f.Fuzz(func(t *testing.T, config uint8, seed uint64, steps uint8, moves []byte) {
		c := configs[int(config)%len(configs)]
		m := newStarted(t, c.opts, Seed{seed, seed >> 3})
		r := rand.New(rand.NewPCG(seed, 2))
		var buf [32]Move
		for k := 0; k < int(steps) && m.Status() == StatusPlaying; k++ {
			seat, mv := randomMove(m, r, buf[:])
			if err := m.Apply(seat, mv); err != nil {
				t.Fatal(err)
			}
		}
		for len(moves) >= 5 {
			seat := int(int8(moves[0]))
			mv := Move{Kind: MoveKind(moves[1] % 4), Tile: Tile{moves[2] % 9, moves[3] % 9}, End: End(moves[4] % 7)}
			moves = moves[5:]
			before := Encode(m)
			beforeLog := len(m.log)
			if err := m.Apply(seat, mv); err != nil {
				if !bytes.Equal(before, Encode(m)) || len(m.log) != beforeLog {
					t.Fatalf("refused move %+v by %d changed the match: %v", mv, seat, err)
				}
				continue
			}
			checkTiles(t, m)
		}
	})
}
