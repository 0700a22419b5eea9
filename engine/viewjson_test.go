package engine

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// TestAppendJSONIsMarshal: over 30 whole matches of every configuration
// (people going away and coming back, names that need escaping, every
// field of the meta set), the view of every seat and of a spectator after
// every step is the same bytes from AppendJSON as from json.Marshal.
func TestAppendJSONIsMarshal(t *testing.T) {
	names := []string{"Ana", `<b>"Bea"</b> & co`, "Ça\u2028va\\", "\U0001F031 d\x7fe"}
	views := 0
	for k := range 30 {
		c := configs[k%len(configs)]
		m, err := NewMatch(c.opts, Seed{uint64(k), 30})
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.opts.Players {
			s := Seat{Name: names[(i+k)%len(names)]}
			if i == 1 && k%3 == 0 {
				s.Bot = "hard"
			}
			if err := m.TakeSeat(i, s); err != nil {
				t.Fatal(err)
			}
		}
		r := rand.New(rand.NewPCG(uint64(k), 1))
		at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		meta := ViewMeta{ID: "abcdefghijklmnop", UpdatedAt: at, SeriesMatches: k, SeriesWins: []int{1, 2}}
		if k%2 == 0 {
			meta.MoveTime, meta.Deadline, meta.Next, meta.Previous = 3600, at.Add(time.Hour), "qrstuvwxyzabcdef", "ghijklmnopqrstuv"
		}
		var buf [32]Move
		for step := 0; m.Status() == StatusPlaying; step++ {
			seat, mv := randomMove(m, r, buf[:])
			if r.IntN(15) == 0 && m.Seat(seat).Bot == "" {
				mv = Move{Kind: Away}
				if m.Seat(seat).Away {
					mv = Move{Kind: Back}
				}
			}
			if err := m.Apply(seat, mv); err != nil {
				continue
			}
			meta.Version = int64(step + 2)
			meta.EventTimes = []EventTime{{UpTo: m.Seq() / 2, At: at}, {UpTo: m.Seq() - 1, At: at.Add(time.Minute)}}
			for s := -1; s < c.opts.Players; s++ {
				v := m.View(s, meta)
				want, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				got, err := v.AppendJSON(nil)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("match %d step %d seat %d: %v\n got %s\nwant %s", k, step, s, err, got, want)
				}
				views++
			}
		}
	}
	t.Logf("%d views compared", views)
}

func BenchmarkViewJSON(b *testing.B) {
	m := finishedMatches(b, 1)[0]
	v := m.View(1, ViewMeta{ID: "abcdefghijklmnop"})
	b.Run("Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(v)
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 8192)
		for b.Loop() {
			buf, _ = v.AppendJSON(buf[:0])
		}
	})
}
