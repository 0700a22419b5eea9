package community

import (
	"context"
	"strings"
	"time"

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

// AdmitGame checks a create against the room's rules and its league's
// (game.Community).
func (h *Service) AdmitGame(ctx context.Context, hash []byte, req game.CreateRequest, st *game.Stored) error {
	if req.League != "" {
		l, err := h.leagueOfGame(ctx, hash, req.League, req.Options)
		if err != nil {
			return err
		}
		st.LeagueHints = l.Hints
	}
	if hash == nil {
		return nil
	}
	if req.Open {
		if err := h.suspended(ctx, hash); err != nil {
			return err
		}
	}
	return h.admitCreator(ctx, hash, req)
}

// AdmitSeat refuses a league game's seat to a key that is not a member,
// an open game's to one kept apart from a player there (a block), and a
// rated game's to one not eligible (game.Community).
func (h *Service) AdmitSeat(ctx context.Context, hash []byte, st *game.Stored) error {
	if st.League != "" {
		if err := h.leagueMember(ctx, hash, st.League); err != nil {
			return err
		}
	}
	if !st.Open && !st.Rated {
		return nil
	}
	// The key's profile, read once for the room's three checks.
	var me *Profile
	if hash != nil {
		var err error
		if me, err = h.MyProfile(ctx, hash); err != nil {
			return err
		}
	}
	if st.Open {
		if err := suspension(me); err != nil {
			return err
		}
		if err := h.admitBlocked(ctx, me, st); err != nil {
			return err
		}
	}
	if st.Rated {
		return eligibleProfile(me)
	}
	return nil
}

// Seated gives the seat its profile's player id and what the room shows
// of it (game.Community).
func (h *Service) Seated(ctx context.Context, st *game.Stored, m *engine.Match, seat int, hash []byte, name string) error {
	return h.seatProfile(ctx, st, m, seat, hash, name)
}

// SeatsRated rates the seats of a rematch or a tournament's table
// (game.Community).
func (h *Service) SeatsRated(ctx context.Context, st *game.Stored, m *engine.Match) error {
	return h.rateSeats(ctx, st, m)
}

// Entry is a game's lobby entry while it waits in the room
// (game.Community): none for a game that is not open, without replaying
// one.
func (h *Service) Entry(id string, st *game.Stored) (store.Entry, error) {
	if !st.Open {
		return store.Entry{}, nil
	}
	m, err := engine.Decode(st.Match)
	if err != nil {
		return store.Entry{}, err
	}
	return roomEntry(id, st, m)
}

// Since is when the key's profile was made (game.Community).
func (h *Service) Since(ctx context.Context, hash []byte) (time.Time, bool, error) {
	p, err := h.MyProfile(ctx, hash)
	if err != nil || p == nil {
		return time.Time{}, false, err
	}
	return p.Since, true, nil
}

// Listing lists a league's new game in the league first (game.Community).
func (h *Service) Listing(ctx context.Context, id string, st *game.Stored) error {
	if st.League == "" {
		return nil
	}
	return h.addLeagueGame(ctx, st.League, id)
}

// Ended counts a match's end in its players' profiles and leaderboards,
// its league's table and its tournament's round, once each
// (game.Community; ending.go).
func (h *Service) Ended(ctx context.Context, host, id string, st *game.Stored, m *engine.Match) error {
	return h.applyEnd(ctx, host, id, st, m)
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
