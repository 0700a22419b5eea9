package community

import (
	"context"
	"strings"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// Service is the community's part of the API (leagues and tournaments),
// over the game service, whose store, clock and source of secrets it
// shares. It implements game.Community: the game service calls it at its
// seams and never imports it.
type Service struct {
	g     *game.Service
	store store.Store
}

// New returns the community over svc and attaches it to svc (the one
// setup: package api's New).
func New(svc *game.Service) *Service {
	h := &Service{g: svc, store: svc.Store()}
	svc.Attach(h)
	return h
}

var _ game.Community = (*Service)(nil)

// AdmitGame checks a create in a league (game.Community).
func (h *Service) AdmitGame(ctx context.Context, hash []byte, league string, o engine.Options) error {
	if league == "" {
		return nil
	}
	_, err := h.leagueOfGame(ctx, hash, league, o)
	return err
}

// AdmitSeat refuses a league game's seat to a key that is not a member
// (game.Community).
func (h *Service) AdmitSeat(ctx context.Context, hash []byte, st *game.Stored) error {
	if st.League == "" {
		return nil
	}
	return h.leagueMember(ctx, hash, st.League)
}

// Listing lists a league's new game in the league first (game.Community).
func (h *Service) Listing(ctx context.Context, id string, st *game.Stored) error {
	if st.League == "" {
		return nil
	}
	return h.addLeagueGame(ctx, st.League, id)
}

// Ended counts a match's end in its league's table and its tournament's
// round, once each (game.Community).
func (h *Service) Ended(ctx context.Context, host, id string, st *game.Stored, m *engine.Match) error {
	if st.League != "" {
		if err := h.countLeagueMatch(ctx, id, st, m); err != nil {
			return err
		}
	}
	if st.Tournament != "" {
		return h.tournamentGameEnded(ctx, host, id, st, m)
	}
	return nil
}

// Due is the sweep's work on a tournament (its rounds' games and
// deadlines) and a league (its seasons' champions) (game.Community).
func (h *Service) Due(ctx context.Context, host, id string) (bool, error) {
	if tid, ok := isTournamentItem(id); ok {
		return true, h.SweepTournament(ctx, host, tid)
	}
	if lid, ok := strings.CutPrefix(id, "league-"); ok {
		return true, h.SweepLeague(ctx, lid)
	}
	return false, nil
}
