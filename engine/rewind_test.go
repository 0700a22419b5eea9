package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// ReplayHand gives, before each play of a hand, the match the play was
// made in: the seat to play's view is byte for byte the one it had then
// (but for the events before the hand and the hand before's layout,
// which a rebuilt hand does not hold), for every hand of random matches in every configuration (seats
// timing out on the way), from the live match and from its decoding (which
// holds the last two hands: earlier ones are ErrBadInput).
func TestReplayHandRebuildsEveryPlay(t *testing.T) {
	for _, c := range configs {
		for s := uint64(1); s <= 3; s++ {
			t.Run(fmt.Sprintf("%s/%d", c.name, s), func(t *testing.T) {
				m := newStarted(t, c.opts, Seed{s, 77})
				r := newRand(s)
				type key struct{ hand, k int }
				seen := map[key]string{}
				plays, hand, timeouts := 0, 0, 0
				view := func(m *Match) string {
					v := m.View(m.Turn())
					v.LastHand = nil
					var log []Event
					for _, e := range v.Log {
						if e.Hand == m.HandNumber() {
							log = append(log, e)
						}
					}
					v.Log = log
					b, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					return string(b)
				}
				playOut(t, m, r, func(seat int, mv Move) {
					if mv.Kind != Play {
						return
					}
					if m.HandNumber() != hand {
						hand, plays = m.HandNumber(), 0
					}
					if r.IntN(25) == 0 && !m.Seat(seat).Away {
						timeouts++
						if err := m.Timeout(seat); err != nil {
							t.Fatal(err)
						}
					}
					seen[key{hand, plays}] = view(m)
					plays++
				})
				check := func(m *Match, h int) {
					t.Helper()
					n := 0
					err := m.ReplayHand(h, func(k int, at *Match, next Choice) bool {
						if want, ok := seen[key{h, k}]; !ok || view(at) != want {
							t.Fatalf("hand %d play %d: the view differs\n got %.3000s\nwant %.3000s", h, k, view(at), want)
						}
						n++
						return true
					})
					if err != nil {
						t.Fatalf("hand %d: %v", h, err)
					}
					if n == 0 || seen[key{h, n}] != "" {
						t.Fatalf("hand %d: %d plays replayed", h, n)
					}
				}
				if timeouts == 0 {
					t.Fatal("no seat timed out")
				}
				last := m.HandNumber()
				for h := 1; h <= last; h++ {
					check(m, h)
				}
				d, err := Decode(Encode(m))
				if err != nil {
					t.Fatal(err)
				}
				for h := max(1, last-1); h <= last; h++ {
					check(d, h)
				}
				for _, h := range []int{0, last + 1, last - 2} {
					if h == last-2 && h < 1 {
						continue
					}
					if err := d.ReplayHand(h, func(int, *Match, Choice) bool { return true }); !errors.Is(err, ErrBadInput) {
						t.Fatalf("hand %d of %d (decoded): %v, want ErrBadInput", h, last, err)
					}
				}
				// Stopping early stops.
				calls := 0
				if err := m.ReplayHand(last, func(int, *Match, Choice) bool { calls++; return false }); err != nil || calls != 1 {
					t.Fatalf("stopped: %d calls, %v", calls, err)
				}
			})
		}
	}
}
