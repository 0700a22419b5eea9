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

// What the trophies read (the registry is game.Trophies).
type (
	TrophyFacts = game.TrophyFacts
	MatchRecord = game.MatchRecord
)

// RecordOf is m's record.
func RecordOf(m *engine.Match) MatchRecord { return game.RecordOf(m) }

// MatchTrophies decides the trophies seat earned in the finished match of
// record m (those its player does not own yet), by the registry's rules.
func MatchTrophies(m MatchRecord, seat int, f TrophyFacts) uint16 {
	var earned uint16
	for i, t := range game.Trophies {
		if t.Earned != nil && t.Earned(m, seat, f) {
			earned |= 1 << i
		}
	}
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
