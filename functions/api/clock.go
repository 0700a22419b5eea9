package api

import (
	"slices"
	"time"

	"tessera/engine"
)

// Clocks (API.md "Clocks"): a seat that must act has moveTime from the
// moment it had to; then it times out and the computer plays for it. The
// rules know nothing of time: the API keeps, per seat, since when it has
// had to act (storedGame.seats[].since) and applies engine.Match.Timeout
// when a deadline has passed, on any request that loads the game and in
// the sweeper (Sweep) that the store's due index wakes.

const (
	minMoveTime = 60
	maxMoveTime = 30 * 24 * 60 * 60
)

// acting reports whether seat s of m must act now under a clock: a
// person's seat, not away, while somebody is here.
func acting(m *engine.Match, s int) bool {
	seat := m.Seat(s)
	return seat.Taken && seat.Bot == "" && !seat.Away && !m.AllAway() && slices.Contains(m.ToAct(), s)
}

// afterChange brings the clocks and the event times up to date after m
// changed from b at now: a seat that must act now and did not before (or
// was dealt again, or came back) starts its time; one that need not act
// has none.
func (s *storedGame) afterChange(m *engine.Match, b before, now time.Time) {
	log := m.Log()
	dealt := false
	for _, e := range log[min(b.logLen, len(log)):] {
		dealt = dealt || e.Type == engine.EventDeal
	}
	for i := range s.seats {
		a := &s.seats[i]
		switch {
		case s.moveTime == 0 || !acting(m, i):
			a.since, a.reminded = 0, false
		case a.since == 0 || b.toAct&(1<<i) == 0 || b.away&(1<<i) != 0 || dealt:
			a.since, a.reminded = now.Unix(), false
		}
	}
	if len(log) > b.logLen {
		s.times = append(s.times, engine.EventTime{UpTo: m.Seq(), At: now.UTC().Truncate(time.Second)})
	}
	// Keep the times of what a view shows: the current hand and the one
	// before it (the entry that covers its first event, and every later).
	first := len(log) + 1
	for i := len(log) - 1; i >= 0 && log[i].Hand >= m.HandNumber()-1; i-- {
		first = log[i].Seq
	}
	k := 0
	for k < len(s.times)-1 && s.times[k].UpTo < first {
		k++
	}
	s.times = s.times[k:]
}

// deadlineOf is when seat i must have acted; zero for none.
func (s *storedGame) deadlineOf(i int) time.Time {
	if s.moveTime == 0 || i < 0 || i >= len(s.seats) || s.seats[i].since == 0 {
		return time.Time{}
	}
	return time.Unix(s.seats[i].since+s.moveTime, 0).UTC()
}

// deadline is the view's hand.deadline: the earliest of the seats' that
// must act.
func (s *storedGame) deadline() time.Time {
	var d time.Time
	for i := range s.seats {
		if t := s.deadlineOf(i); !t.IsZero() && (d.IsZero() || t.Before(d)) {
			d = t
		}
	}
	return d
}

// reminderOf is when seat i is reminded (a quarter of moveTime left);
// zero for none or once it was.
func (s *storedGame) reminderOf(i int) time.Time {
	if s.seats[i].since == 0 || s.seats[i].reminded || s.moveTime == 0 {
		return time.Time{}
	}
	return time.Unix(s.seats[i].since+s.moveTime-s.moveTime/4, 0).UTC()
}

// due is when the game wants the sweeper next: the earliest reminder or
// deadline; zero for never (the store's index is sparse).
func (s *storedGame) due() time.Time {
	var d time.Time
	for i := range s.seats {
		for _, t := range []time.Time{s.reminderOf(i), s.deadlineOf(i)} {
			if !t.IsZero() && (d.IsZero() || t.Before(d)) {
				d = t
			}
		}
	}
	return d
}

// overdue lists the seats whose deadline has passed at now.
func (s *storedGame) overdue(now time.Time) []int {
	var out []int
	for i := range s.seats {
		if d := s.deadlineOf(i); !d.IsZero() && !now.Before(d) {
			out = append(out, i)
		}
	}
	return out
}

// meta is what a view of the game at version, last changed at t, shows
// beside the rules.
func (s *storedGame) meta(id string, version int64, t time.Time) engine.ViewMeta {
	return engine.ViewMeta{ID: id, Version: version, UpdatedAt: t, MoveTime: int(s.moveTime),
		Deadline: s.deadline(), Next: s.next, Previous: s.previous,
		SeriesMatches: s.seriesMatches, SeriesWins: s.seriesWins, EventTimes: s.times}
}
