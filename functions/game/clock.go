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

// AfterChange brings the clocks and the event times up to date after m
// changed from b at now: a seat that must act now and did not before (or
// was dealt again, or came back) starts its time; one that need not act
// has none.
func (s *Stored) AfterChange(m *engine.Match, b Before, now time.Time) {
	log := m.Log()
	dealt := false
	for _, e := range log[min(b.LogLen, len(log)):] {
		dealt = dealt || e.Type == engine.EventDeal
	}
	noteFeats(s, log[min(b.LogLen, len(log)):])
	finished := m.Status() == engine.StatusFinished
	for i := range s.Seats {
		a := &s.Seats[i]
		if finished {
			a.Vacation = 0 // a finished game's seats are nobody's holiday
		}
		switch {
		case s.MoveTime == 0 || !Acting(m, i) || s.ClockStopped(i):
			a.Since, a.Reminded = 0, 0
		case a.Since == 0 || b.ToAct&(1<<i) == 0 || b.Away&(1<<i) != 0 || dealt:
			a.Since, a.Reminded = now.Unix(), 0
		}
	}
	if len(log) > b.LogLen {
		s.Times = append(s.Times, EventTime{UpTo: m.Seq(), At: now.UTC().Truncate(time.Second)})
	}
	// Keep the times of what a view shows: the current hand and the one
	// before it (the entry that covers its first event, and every later).
	first := len(log) + 1
	for i := len(log) - 1; i >= 0 && log[i].Hand >= m.HandNumber()-1; i-- {
		first = log[i].Seq
	}
	k := 0
	for k < len(s.Times)-1 && s.Times[k].UpTo < first {
		k++
	}
	s.Times = s.Times[k:]
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

// Meta is what a view of the game at version, last changed at t, shows
// beside the rules.
func (s *Stored) Meta(id string, version int64, t time.Time) Meta {
	m := Meta{ID: id, Version: version, UpdatedAt: t, MoveTime: int(s.MoveTime),
		Deadline: s.deadline(), Next: s.Next, Previous: s.Previous,
		SeriesMatches: s.SeriesMatches, SeriesWins: s.SeriesWins, EventTimes: s.Times,
		Open: s.Open, Rated: s.Rated, Chat: s.Chat, Seats: make([]SeatMeta, len(s.Seats)),
		League: s.League, Tournament: s.Tournament, HintsOn: s.HintsOn(), Hints: s.Hints}
	for i, a := range s.Seats {
		m.Seats[i] = SeatMeta{Player: a.Player, Rating: -1, RatingAfter: -1, Trophies: SeatTrophies(a.Trophies)}
		if a.Vacation != 0 {
			m.Seats[i].Vacation = time.Unix(a.Vacation, 0).UTC()
		}
		if s.Rated {
			m.Seats[i].Rating, m.Seats[i].RatingAfter = a.Rating, a.RatingAfter
			m.Seats[i].Provisional = a.Rating >= 0 && a.Provisional
		}
	}
	return m
}

// SeatMeta is what a view shows of a seat beside the rules: the player id
// holding it ("" for none) and, in a rated game, its rating when it sat
// down and after the match (-1 for none).
type SeatMeta struct {
	Player      string
	Rating      int
	RatingAfter int
	Provisional bool      // Rating was provisional when it sat down
	Trophies    []string  // earned in this match (shown once it is finished)
	Vacation    time.Time // when its key's vacation ends (zero: none)
}

// Meta is what the service adds to the rules' view of a game (package api
// writes them together as API.md's view): the game's id, version and time
// of the last change, the clock, the rematch links, and when each event
// happened.
type Meta struct {
	ID        string
	Version   int64
	UpdatedAt time.Time
	MoveTime  int       // seconds a seat has to act; 0: no clock
	Deadline  time.Time // when the seat that must act must have; zero: none
	Next      string    // the rematch's id, "" for none
	Previous  string    // the id of the game this one is the rematch of
	// SeriesMatches and SeriesWins count the finished matches before this
	// one in its chain of rematches (this one is added when finished).
	SeriesMatches int
	SeriesWins    []int
	// EventTimes give events their times: an event with seq s happened at
	// the At of the first entry whose UpTo >= s (oldest first; the service
	// keeps the entries that cover the events a view shows). Events past
	// the last entry have no time.
	EventTimes []EventTime
	// Open, Rated and Seats are the room's (API.md "Community"); Seats
	// is indexed by seat.
	Open, Rated bool
	Seats       []SeatMeta
	Chat        int // the table talk's latest seq (a seat's view)
	// League and Tournament name what the game is a game of ("" none):
	// additions, so its page can tell the game's story there.
	League, Tournament string
	// HintsOn: the seats may ask for hints; Hints: those asked (an
	// addition, docs/hints.md).
	HintsOn bool
	Hints   []HintMark
}

// EventTime is when the request that caused events up to seq UpTo was made.
type EventTime struct {
	UpTo int
	At   time.Time
}
