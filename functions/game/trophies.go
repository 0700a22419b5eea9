package game

import (
	"context"
	"slices"
	"time"

	"tessera/engine"
)

// Trophies (API.md "Trophies (trofei)"): each a pure function of a
// finished match's record (its events as they happened, noted by feats;
// its final scores and score sheet) and, for the counts and streaks, of
// the player's profile before it. They are decided in the save that ends
// the match (markEnd: the finished view shows them) and given to the
// profile at the match's settling, once per key (a trophy the profile
// has already is not given again).

// Trophy ids, in API.md's order; a seat's earned set is a bit mask of
// their indexes.
var TrophyIDs = []string{"first-match", "ten-matches", "hundred-matches", "domino", "thirty", "four-arms",
	"clean-sweep", "comeback", "five-in-a-row", "on-time", "league-champion", "tournament-winner"}

// Feats noted per seat as the match goes (Stored: SeatAuth.Feats).
const (
	featDomino   = 1 << iota // played the last tile of their hand
	featThirty               // a Five Up play that scored 30 or more
	featFourArms             // a Five Up play that scored with four open ends
)

// trophyBit is the bit of trophy id in a mask.
func trophyBit(id string) uint16 { return 1 << slices.Index(TrophyIDs, id) }

// noteFeats notes, from the events of one change, the feats of each seat:
// a play that scored 30 or more, one that scored with the spinner's arms
// open, and the last tile of a hand (the play just before a hand's end
// whose player has no tile left).
func noteFeats(st *Stored, events []engine.Event) {
	for i, e := range events {
		switch e.Type {
		case engine.EventPlay:
			if e.Seat < 0 || e.Seat >= len(st.Seats) {
				continue
			}
			if e.Points >= 30 {
				st.Seats[e.Seat].Feats |= featThirty
			}
			if e.Points > 0 && e.Arms {
				st.Seats[e.Seat].Feats |= featFourArms
			}
		case engine.EventHandEnd:
			if i == 0 || events[i-1].Type != engine.EventPlay || e.Result == nil {
				continue
			}
			s := events[i-1].Seat
			if s >= 0 && s < len(st.Seats) && s < len(e.Result.Tiles) && len(e.Result.Tiles[s]) == 0 {
				st.Seats[s].Feats |= featDomino
			}
		}
	}
}

// TrophyFacts is what a seat's trophies at a match's end are decided
// from, beside the match: the seat's feats, and its player's profile
// before the match.
type TrophyFacts struct {
	Feats    byte
	Finished int  // matches finished before this one
	OnTime   int  // finished in a row without a timeout, before this one
	Streak   int  // rated wins in a row in the pool, before this one
	Rated    bool // the match is rated (in a pool)
	TimedOut bool // the seat ran out of time in it
	Owned    uint16
}

// MatchRecord is what the trophies read of a finished match: each
// seat's team, the winning team, the final scores by team, the score
// sheet (the running totals after each hand) and the target.
type MatchRecord struct {
	Teams  []int
	Winner int
	Scores []int
	Sheet  [][]int
	Target int
}

// RecordOf is m's record.
func RecordOf(m *engine.Match) MatchRecord {
	o := m.Options()
	r := MatchRecord{Winner: m.Winner(), Scores: m.Scores(), Sheet: m.Sheet(), Target: o.Target}
	for s := range o.Players {
		r.Teams = append(r.Teams, o.TeamOf(s))
	}
	return r
}

// MatchTrophies decides the trophies seat earned in the finished match of
// record m (those its player does not own yet).
func MatchTrophies(m MatchRecord, seat int, f TrophyFacts) uint16 {
	var earned uint16
	add := func(id string, ok bool) {
		if ok {
			earned |= trophyBit(id)
		}
	}
	team := m.Teams[seat]
	won := m.Winner == team
	finished := f.Finished + 1
	add("first-match", finished == 1)
	add("ten-matches", finished >= 10)
	add("hundred-matches", finished >= 100)
	add("domino", f.Feats&featDomino != 0)
	add("thirty", f.Feats&featThirty != 0)
	add("four-arms", f.Feats&featFourArms != 0)
	scores := m.Scores
	sweep := won
	for t, s := range scores {
		if t != team && s != 0 {
			sweep = false
		}
	}
	add("clean-sweep", sweep)
	behind := false
	for _, row := range m.Sheet {
		for t, s := range row {
			if t != team && team < len(row) && 10*(s-row[team]) >= 4*m.Target {
				behind = true
			}
		}
	}
	add("comeback", won && behind)
	add("five-in-a-row", f.Rated && won && f.Streak+1 >= 5)
	add("on-time", !f.TimedOut && f.OnTime+1 >= 25)
	return earned &^ f.Owned
}

// seatTrophies lists the ids of a mask.
func seatTrophies(mask uint16) []string {
	var out []string
	for i, id := range TrophyIDs {
		if mask&(1<<i) != 0 {
			out = append(out, id)
		}
	}
	return out
}

// EarnedTrophy is a trophy on a profile: when, and in which game (only
// open and tournament games are named).
type EarnedTrophy struct {
	ID   string    `json:"id"`
	At   time.Time `json:"at"`
	Game string    `json:"game,omitempty"`
}

// owned is the mask of the trophies a profile has.
func (p *Profile) owned() uint16 {
	var m uint16
	for _, t := range p.Trophies {
		m |= trophyBit(t.ID)
	}
	return m
}

// give adds the trophies of mask the profile does not have; false if none
// was new.
func (p *Profile) give(mask uint16, at time.Time, game string) bool {
	mask &^= p.owned()
	for _, id := range seatTrophies(mask) {
		p.Trophies = append(p.Trophies, EarnedTrophy{ID: id, At: at, Game: game})
	}
	return mask != 0
}

// GiveTrophy gives player pid trophy id outside a match (a tournament won,
// a league's season), once.
func (h *Service) GiveTrophy(ctx context.Context, pid, id, game string) error {
	_, _, err := h.UpdateProfile(ctx, pid, "", func(p *Profile) bool {
		return p.give(trophyBit(id), h.now().UTC().Truncate(time.Second), game)
	})
	return err
}
