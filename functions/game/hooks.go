package game

import (
	"context"
	"fmt"

	"tessera/engine"
	"tessera/functions/store"
)

// Community is what the service calls at its seams (STYLE.md 19):
// package community (leagues, tournaments) implements it, and the service
// never imports it. Every call is made with the game as the service holds
// it; what the community keeps is its own items.
type Community interface {
	// AdmitGame checks a game the key whose hash is hash is about to
	// create in league ("" none) with options o: membership and the
	// league's rule set.
	AdmitGame(ctx context.Context, hash []byte, league string, o engine.Options) error
	// AdmitSeat checks a seat the key whose hash is hash (nil: no key)
	// is about to take in st (a league game's seats are its members').
	AdmitSeat(ctx context.Context, hash []byte, st *Stored) error
	// Listing: new game id, holding st, is about to be written (a league
	// lists its games first: a crash between leaves an id that names no
	// game, which every read skips).
	Listing(ctx context.Context, id string, st *Stored) error
	// Ended counts the end of game id's match m in what the community
	// keeps (a league's table, a tournament's round), exactly once
	// whatever retries happen (Settle calls it until it succeeds).
	Ended(ctx context.Context, host, id string, st *Stored, m *engine.Match) error
	// Due does the sweep's work for due item id when it is the
	// community's; handled is false for an item it does not know.
	Due(ctx context.Context, host, id string) (handled bool, err error)
}

// Attach makes c the service's community (one setup: package api's New).
func (h *Service) Attach(c Community) { h.community = c }

// noCommunity is the service without leagues or tournaments (the game
// service's own tests): a league's game is refused as an unknown league.
type noCommunity struct{}

func (noCommunity) AdmitGame(_ context.Context, _ []byte, league string, _ engine.Options) error {
	if league != "" {
		return fmt.Errorf("league %q: %w", league, store.ErrNotFound)
	}
	return nil
}
func (noCommunity) AdmitSeat(context.Context, []byte, *Stored) error { return nil }
func (noCommunity) Listing(context.Context, string, *Stored) error   { return nil }
func (noCommunity) Ended(context.Context, string, string, *Stored, *engine.Match) error {
	return nil
}
func (noCommunity) Due(context.Context, string, string) (bool, error) { return false, nil }
