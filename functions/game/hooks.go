package game

import (
	"context"
	"fmt"
	"time"

	"tessera/engine"
	"tessera/functions/store"
)

// Community is what the service calls at its seams (STYLE.md 19):
// package community (profiles, ratings, trophies, the room, leagues,
// tournaments) implements it, and the service
// never imports it. Every call is made with the game as the service holds
// it; what the community keeps is its own items.
type Community interface {
	// AdmitGame checks a game the key whose hash is hash (nil: no key)
	// is about to create as req asks: the room's rules (a rated game's
	// eligibility, the games a key may have waiting), a league's
	// membership and rule set; and notes in st, the game to be, what
	// its league decides of it (hints).
	AdmitGame(ctx context.Context, hash []byte, req CreateRequest, st *Stored) error
	// AdmitSeat checks a seat the key whose hash is hash (nil: no key)
	// is about to take in st (a rated game's eligibility; a league
	// game's seats are its members').
	AdmitSeat(ctx context.Context, hash []byte, st *Stored) error
	// Seated fills in seat's part of st as the key whose hash is hash
	// sits down there named name (its player id, its rating and
	// reliability where the room shows them).
	Seated(ctx context.Context, st *Stored, m *engine.Match, seat int, hash []byte, name string) error
	// SeatsRated fills in the part of st's seats whose players are known
	// already (a rematch, a tournament's table) that the room shows: their
	// ratings and provisional marks in a rated game, their reliability at
	// an open table, from their profiles as they are.
	SeatsRated(ctx context.Context, st *Stored, m *engine.Match) error
	// Entry is game id's place in a list (the room's lobby while it
	// waits for players), written with every save of it.
	Entry(id string, st *Stored) (store.Entry, error)
	// Ending decides, in the save that ends st's match m, what the end
	// means for its seats (their ratings after it, their trophies).
	Ending(ctx context.Context, st *Stored, m *engine.Match) error
	// Since is when the key's profile was made (its vacation budget
	// grows from then); ok is false for a key without one.
	Since(ctx context.Context, hash []byte) (since time.Time, ok bool, err error)
	// Listing: new game id, holding st, is about to be written (a league
	// lists its games first: a crash between leaves an id that names no
	// game, which every read skips).
	Listing(ctx context.Context, id string, st *Stored) error
	// Ended counts the end of game id's match m in what the community
	// keeps (the players' profiles and leaderboards, a league's table, a
	// tournament's round), exactly once whatever retries happen (Settle
	// calls it until it succeeds).
	Ended(ctx context.Context, host, id string, st *Stored, m *engine.Match) error
	// Made: new game id, holding st and m, was written (a league tells
	// its members of a game with a free seat). Its failure is logged.
	Made(ctx context.Context, host, id string, st *Stored, m *engine.Match) error
	// Due does the sweep's work for due item id when it is the
	// community's; handled is false for an item it does not know.
	Due(ctx context.Context, host, id string) (handled bool, err error)
	// Muted is the set of players player pid muted (docs/blocking.md):
	// their talk is not read to it, nor pushed.
	Muted(ctx context.Context, pid string) (map[string]bool, error)
}

// Attach makes c the service's community (one setup: package api's New).
func (h *Service) Attach(c Community) { h.community = c }

// noCommunity is the service without a community (the game service's own
// tests): no profiles, no room, no leagues (a league's game is refused as
// an unknown league), no tournaments.
type noCommunity struct{}

func (noCommunity) AdmitGame(_ context.Context, _ []byte, req CreateRequest, _ *Stored) error {
	if req.League != "" {
		return fmt.Errorf("league %q: %w", req.League, store.ErrNotFound)
	}
	return nil
}
func (noCommunity) Seated(context.Context, *Stored, *engine.Match, int, []byte, string) error {
	return nil
}
func (noCommunity) SeatsRated(context.Context, *Stored, *engine.Match) error { return nil }
func (noCommunity) Entry(string, *Stored) (store.Entry, error)               { return store.Entry{}, nil }
func (noCommunity) Ending(context.Context, *Stored, *engine.Match) error     { return nil }
func (noCommunity) Since(context.Context, []byte) (time.Time, bool, error) {
	return time.Time{}, false, nil
}
func (noCommunity) AdmitSeat(context.Context, []byte, *Stored) error { return nil }
func (noCommunity) Listing(context.Context, string, *Stored) error   { return nil }
func (noCommunity) Ended(context.Context, string, string, *Stored, *engine.Match) error {
	return nil
}
func (noCommunity) Due(context.Context, string, string) (bool, error) { return false, nil }
func (noCommunity) Muted(context.Context, string) (map[string]bool, error) {
	return map[string]bool{}, nil
}
func (noCommunity) Made(context.Context, string, string, *Stored, *engine.Match) error {
	return nil
}
