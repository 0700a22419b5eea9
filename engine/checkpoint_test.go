package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestCheckpointAgreesWithFullReplay plays matches of every configuration
// with people going away, coming back and timing out. After every step the
// encoding decodes both ways: DecodeFull (every record from the first
// deal) gives the very same match, Decode (from the checkpoint) one that
// nobody can tell from it. A match resumed from a checkpoint also plays on
// in lockstep with the original, re-decoded from its own encoding every
// few moves, and encodes to the same bytes all along.
func TestCheckpointAgreesWithFullReplay(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			for s := range uint64(3) {
				opts := c.opts
				// Targets a match reaches in a few hands: random play scores
				// fast where the ends count, and a hand alone against three
				// collects three hands' pips.
				opts.Target = 60
				if opts.Rules().Counts {
					opts.Target = 300
				} else if opts.Teams() > 2 {
					opts.Target = 200
				}
				m := newStarted(t, opts, Seed{s, 404})
				r := rand.New(rand.NewPCG(s, 5))
				var resumed *Match
				var buf [32]Move
				for step := 0; m.Status() == StatusPlaying; step++ {
					if step > 5000 {
						t.Fatal("no end")
					}
					seat, mv := randomMove(m, r, buf[:])
					switch k := r.IntN(12); {
					case k == 0:
						seat = r.IntN(opts.Players)
						mv = Move{Kind: Away}
						if m.Seat(seat).Away {
							mv = Move{Kind: Back}
						}
					case k == 1 && m.Phase() == PhasePlay && !m.Seat(m.Turn()).Away:
						seat, mv = m.Turn(), Move{Kind: Away} // as a timeout would
					}
					err := m.Apply(seat, mv)
					if resumed != nil {
						if err2 := resumed.Apply(seat, mv); (err == nil) != (err2 == nil) {
							t.Fatalf("step %d: %v on the match, %v on the resumed one", step, err, err2)
						}
					}
					if err != nil {
						continue
					}
					e := Encode(m)
					full, err := DecodeFull(e)
					if err != nil {
						t.Fatalf("step %d: DecodeFull: %v", step, err)
					}
					if !reflect.DeepEqual(full, m) {
						t.Fatalf("step %d: the full replay differs", step)
					}
					d, err := Decode(e)
					if err != nil {
						t.Fatalf("step %d: Decode: %v", step, err)
					}
					checkResumed(t, m, d)
					if resumed == nil || step%7 == 0 {
						if resumed != nil {
							if resumed, err = Decode(Encode(resumed)); err != nil {
								t.Fatalf("step %d: the resumed match does not decode: %v", step, err)
							}
						} else {
							resumed = d
						}
					}
					checkResumed(t, m, resumed)
				}
				if m.HandNumber() < 3 {
					t.Fatalf("only %d hands: the checkpoint never moved", m.HandNumber())
				}
			}
		})
	}
}

// format5 is an encoding as release 0.1.0 wrote it: the same with format
// byte 5 and a CRC-32 at the end.
func format5Of(m *Match) []byte {
	b := Encode(m)
	b[2] = format5
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// TestOlderFormatsAreRefused: formats before 5 were never released
// (CHANGELOG.md, 0.1.0): an encoding that names one is ErrCorrupt. Format
// 5 (0.1.0) still decodes, its CRC checked, to the very match; Encode
// writes format 6, without one.
func TestOlderFormatsAreRefused(t *testing.T) {
	for _, m := range finishedMatches(t, 3) {
		for f := byte(1); f < format5; f++ {
			b := Encode(m)
			b[2] = f
			if _, err := Decode(b); !errors.Is(err, ErrCorrupt) {
				t.Errorf("format %d: Decode = %v, want ErrCorrupt", f, err)
			}
		}
		old := format5Of(m)
		d, err := Decode(old)
		if err != nil || !bytes.Equal(Encode(d), Encode(m)) {
			t.Fatalf("format 5: %v, or it decodes to another match", err)
		}
		old[len(old)-5] ^= 1
		if _, err := Decode(old); !errors.Is(err, ErrCorrupt) {
			t.Errorf("format 5 with a wrong CRC: %v, want ErrCorrupt", err)
		}
		if e := Encode(m); e[2] != formatVersion {
			t.Errorf("Encode writes format %d, want %d", e[2], formatVersion)
		}
	}
}

// TestDamagedCheckpoints: a flipped byte anywhere either is refused
// (ErrCorrupt, never a panic) or decodes to a match that round-trips like
// any other (the stored game's checksum is what catches damage); and
// checkpoints that cannot
// be (a score at the target, a leader off the table, a computer seat away,
// a checkpoint hand other than the one before the last) are refused.
func TestDamagedCheckpoints(t *testing.T) {
	m := finishedMatches(t, 1)[0]
	e := Encode(m)
	refused := 0
	for i := 0; i < len(e); i++ {
		for _, x := range []byte{1, 0x80, 0xff} {
			b := bytes.Clone(e)
			b[i] ^= x
			d, err := Decode(b)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("byte %d ^ %#x: %v, want ErrCorrupt", i, x, err)
				}
				refused++
				continue
			}
			// Accepted (a value changed into another valid one, or a varint
			// written longer): a match like any other, which round-trips.
			again, err := Decode(Encode(d))
			if err != nil {
				t.Fatalf("byte %d ^ %#x: accepted, but its encoding is not: %v", i, x, err)
			}
			checkResumed(t, d, again)
		}
	}
	if refused == 0 {
		t.Fatal("no damaged encoding was refused")
	}
	// The checkpoint's fields, found by encoding the same match with one
	// field changed at a time.
	k := m.pastHands + len(m.records) - 1
	fresh := k - 1
	for name, change := range map[string]func(st *handStart){
		"a score at the target":      func(st *handStart) { st.scores[0] = m.opts.Target },
		"a leader off the table":     func(st *handStart) { st.leader = m.opts.Players },
		"a computer seat away":       func(st *handStart) { st.away = 1 << 1 },
		"an away seat off the table": func(st *handStart) { st.away = 1 << m.opts.Players },
	} {
		c := *m
		c.starts = slices.Clone(m.starts)
		if name == "a computer seat away" {
			c.seats = slices.Clone(m.seats)
			c.seats[1].Bot = "easy"
		}
		change(&c.starts[fresh])
		if _, err := Decode(Encode(&c)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

// TestSheetIsTheRunningTotals: the score sheet has one row per hand that
// ended, each the teams' totals after it as the whole log adds them up
// (plays' points to the player's team, a hand's end points to the hand's
// winner), the last the final scores; and it survives an encoding, from
// the checkpoint and in full.
func TestSheetIsTheRunningTotals(t *testing.T) {
	for _, m := range finishedMatches(t, 6) {
		teams := m.opts.Teams()
		totals := make([]int, teams)
		var want [][]int
		for _, e := range m.log {
			switch e.Type {
			case EventPlay:
				totals[m.opts.TeamOf(e.Seat)] += e.Points
			case EventHandEnd:
				if e.Result.Team >= 0 {
					totals[e.Result.Team] += e.Result.Points
				}
				want = append(want, slices.Clone(totals))
			}
		}
		got := m.Sheet()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sheet %v, the log adds up to %v", got, want)
		}
		if !slices.Equal(got[len(got)-1], m.scores) {
			t.Errorf("the sheet ends at %v, the scores are %v", got[len(got)-1], m.scores)
		}
		for full, decode := range []func([]byte) (*Match, error){Decode, DecodeFull} {
			d, err := decode(Encode(m))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Sheet(), want) {
				t.Errorf("decoded (full %d) sheet %v, want %v", full, d.Sheet(), want)
			}
		}
	}
}
