package game

import (
	"context"
	"errors"
	"time"

	"tessera/engine"
)

// Settling a match's end, exactly once (docs/settling.md). Every count
// kept beyond a game (a profile's finished and timeouts, its ratings,
// recent matches and leaderboard entries; next, league tables and
// tournament rounds) changes here, and only here:
//
//  1. The save that ends a match (a move, the computers after it, a
//     timeout) also marks the game SettlePending, due at once in the
//     store's due index, and, in a rated game, computes every seat's
//     rating after the match from its profile as it is then (Before,
//     After, RatingAfter: the view shows the change from that save on).
//  2. Settle then applies the end to each player's profile in its own
//     conditional write; a profile remembers the last MaxSettled games it
//     counted, so applying one twice changes nothing.
//  3. When every profile has it, the game is marked SettleDone (Touch: the
//     version and view stay).
//
// The request that ended the match settles at once; if it dies between
// its save and step 3 (a crash, a kill, a store that failed), the game
// stays pending and due, and the sweep (every minute or less on every
// deployment) settles it: nothing is lost, and step 2's memory makes the
// retry count nothing twice.

// Errors of the room's rules (API.md's limit_reached and not_eligible).
var (
	ErrLimitReached = errors.New("limit reached")
	ErrNotEligible  = errors.New("not eligible")
)

// markEnd marks a match that has just ended for settling, and lets the
// community decide what the end means for it (the ratings after it, the
// trophies: step 1 above, community.Ending). It does nothing for a match
// that goes on, or that was marked before.
func (h *Service) markEnd(ctx context.Context, st *Stored, m *engine.Match, now time.Time) error {
	if st.Settle != SettleNone || m.Status() != engine.StatusFinished {
		return nil
	}
	st.Settle, st.SettleAt = SettlePending, now.Unix()
	return h.community.Ending(ctx, st, m)
}

// settleNow settles a game its request just saved, if it ended; a failure
// is logged and left to the sweep. It reports whether the game was
// settled here.
func (h *Service) settleNow(ctx context.Context, host, id string, st *Stored) bool {
	if st.Settle != SettlePending {
		return false
	}
	if h.afterEnd != nil {
		h.afterEnd(id)
	}
	if err := h.Settle(ctx, host, id); err != nil {
		h.log.Warn("settle: left to the sweep", "gameId", id, "cause", LogCause(err))
		return false
	}
	st.Settle = SettleDone
	return true
}

// Settle applies the end of game id to its players' profiles and marks it
// settled (steps 2 and 3 above). A game that is not pending is left alone.
// host names the site (the round pushes of a tournament's next round).
func (h *Service) Settle(ctx context.Context, host, id string) error {
	return Retry(ctx, gameWrites, func(int) error {
		g, m, err := h.loadMatch(ctx, id)
		if err != nil {
			return err
		}
		if g.State.Settle != SettlePending {
			return nil
		}
		if err := h.community.Ended(ctx, host, id, g.State, m); err != nil {
			return err
		}
		g.State.Settle = SettleDone
		return h.store.Touch(ctx, id, SealStored(id, g.Item.Version, g.State), g.Item.Version, g.State.Due())
	})
}
