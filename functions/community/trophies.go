package community

import (
	"context"
	"errors"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// Trophies (API.md "Trophies (trofei)"): each a pure function of a
// finished match's record (its events as they happened, noted by feats;
// its final scores and score sheet) and, for the counts and streaks, of
// the player's profile before it. They are decided in the save that ends
// the match (markEnd: the finished view shows them) and given to the
// profile at the match's settling, once per key (a trophy the profile
// has already is not given again).

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
			earned |= game.TrophyBit(id)
		}
	}
	team := m.Teams[seat]
	won := m.Winner == team
	finished := f.Finished + 1
	add("first-match", finished == 1)
	add("ten-matches", finished >= 10)
	add("hundred-matches", finished >= 100)
	add("domino", f.Feats&game.FeatDomino != 0)
	add("thirty", f.Feats&game.FeatThirty != 0)
	add("four-arms", f.Feats&game.FeatFourArms != 0)
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
		m |= game.TrophyBit(t.ID)
	}
	return m
}

// give adds the trophies of mask the profile does not have; false if none
// was new.
func (p *Profile) give(mask uint16, at time.Time, gameID string) bool {
	mask &^= p.owned()
	for _, id := range game.SeatTrophies(mask) {
		p.Trophies = append(p.Trophies, EarnedTrophy{ID: id, At: at, Game: gameID})
	}
	return mask != 0
}

// GiveTrophy gives player pid trophy id outside a match (a tournament won,
// a league's season), once.
func (h *Service) GiveTrophy(ctx context.Context, pid, id, gameID string) error {
	_, _, err := h.UpdateProfile(ctx, pid, func(p *Profile) bool {
		return p.give(game.TrophyBit(id), h.g.Now().UTC().Truncate(time.Second), gameID)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil // a forgotten player earns nothing
	}
	return err
}
