package game

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
	MinMoveTime = 60
	MaxMoveTime = 30 * 24 * 60 * 60
)

// Acting reports whether seat s of m must act now under a clock: a
// person's seat, not away, while somebody is here.
func Acting(m *engine.Match, s int) bool {
	seat := m.Seat(s)
	return seat.Taken && seat.Bot == "" && !seat.Away && !m.AllAway() && slices.Contains(m.ToAct(), s)
}

// startClocks brings the clocks up to date after m changed from b at
// now: a seat that must act now and did not before (or was dealt again,
// or came back) starts its time; one that need not act has none.
func (s *Stored) startClocks(m *engine.Match, b Before, now time.Time) {
	log := m.Log()
	dealt := false
	for _, e := range log[min(b.LogLen, len(log)):] {
		dealt = dealt || e.Type == engine.EventDeal
	}
	for i := range s.Seats {
		a := &s.Seats[i]
		switch {
		case s.MoveTime == 0 || !Acting(m, i) || s.ClockStopped(i):
			a.Since, a.Reminded = 0, 0
		case a.Since == 0 || b.ToAct&(1<<i) == 0 || b.Away&(1<<i) != 0 || dealt:
			a.Since, a.Reminded = now.Unix(), 0
		}
	}
}

// timeouts times out the seats of c's game whose deadline has passed
// (ErrUnchanged: none): catchUp's and the sweep's change, and the first
// part of a move's (Move).
func (h *Service) timeouts(c *Change) error {
	late := c.Game.State.overdue(h.now())
	if len(late) == 0 {
		return ErrUnchanged
	}
	for _, s := range late {
		c.Game.State.Seats[s].TimedOut = true // for the end's settling: its player's timeouts
		if err := c.Match.Timeout(s); err != nil {
			// The clock and the game disagree (a stale since): the game
			// wins; the save corrects the clock.
			h.log.Warn("clock: a seat past its deadline cannot time out", "gameId", c.ID, "seat", s)
		}
	}
	h.log.Info("clock: timing out", "gameId", c.ID, "seats", len(late))
	return nil
}

// DeadlineOf is when seat i must have acted; zero for none.
func (s *Stored) DeadlineOf(i int) time.Time {
	if s.MoveTime == 0 || i < 0 || i >= len(s.Seats) || s.Seats[i].Since == 0 {
		return time.Time{}
	}
	return time.Unix(s.Seats[i].Since+s.MoveTime, 0).UTC()
}

// deadline is the view's hand.deadline: the earliest of the seats' that
// must act.
func (s *Stored) deadline() time.Time {
	var d time.Time
	for i := range s.Seats {
		if t := s.DeadlineOf(i); !t.IsZero() && (d.IsZero() || t.Before(d)) {
			d = t
		}
	}
	return d
}

// ClockStopped reports whether seat i's clock waits for its key's
// vacation to end (API.md "Vacation": games neither rated nor in a
// tournament).
func (s *Stored) ClockStopped(i int) bool {
	return s.Seats[i].Vacation != 0 && !s.Rated && s.Tournament == ""
}

// reminderOf is when seat i is reminded next: when a quarter of moveTime
// is left, and again when a tenth is if that is more than an hour before
// the deadline (API.md "Push"); zero for none.
func (s *Stored) reminderOf(i int) time.Time {
	a := s.Seats[i]
	if a.Since == 0 || s.MoveTime == 0 {
		return time.Time{}
	}
	switch {
	case a.Reminded == 0:
		return time.Unix(a.Since+s.MoveTime-s.MoveTime/4, 0).UTC()
	case a.Reminded == 1 && s.MoveTime/10 > 3600:
		return time.Unix(a.Since+s.MoveTime-s.MoveTime/10, 0).UTC()
	}
	return time.Time{}
}

// remindedAt is how many of seat i's reminders are due at now.
func (s *Stored) remindedAt(i int, now time.Time) int {
	n := s.Seats[i].Reminded
	for n < 2 {
		r := s.reminderOf(i)
		if r.IsZero() || now.Before(r) {
			break
		}
		n++
		s.Seats[i].Reminded = n
	}
	return n
}

// Due is when the game wants the sweeper next: the earliest reminder or
// deadline; zero for never (the store's index is sparse).
func (s *Stored) Due() time.Time {
	var d time.Time
	if s.Settle == SettlePending {
		d = time.Unix(s.SettleAt, 0).UTC() // settle.go: at once
	}
	for i := range s.Seats {
		var ends time.Time
		if v := s.Seats[i].Vacation; v != 0 {
			ends = time.Unix(v, 0).UTC() // vacation.go: the seat's vacation ends
		}
		for _, t := range []time.Time{s.reminderOf(i), s.DeadlineOf(i), ends} {
			if !t.IsZero() && (d.IsZero() || t.Before(d)) {
				d = t
			}
		}
	}
	return d
}

// overdue lists the seats whose deadline has passed at now.
func (s *Stored) overdue(now time.Time) []int {
	var out []int
	for i := range s.Seats {
		if d := s.DeadlineOf(i); !d.IsZero() && !now.Before(d) {
			out = append(out, i)
		}
	}
	return out
}
