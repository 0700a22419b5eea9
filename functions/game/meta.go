package game

import "time"

// What a view shows beside the rules (package api writes them together as
// API.md's view): the service's Meta of a stored game.

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
