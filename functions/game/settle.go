package game

import (
	"context"
	"errors"
	"time"

	"tessera/engine"
	"tessera/functions/store"
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
//     conditional write; a profile remembers the games it counted (at
//     least the last MaxSettled, an older one until step 3 is well past:
//     community's counted), so applying one twice changes nothing.
//  3. When every profile has it, the game is marked SettleDone, with the
//     time (a note: write.go; the game's version and view stay). A
//     profile forgets having counted a game only when it is settled and
//     SettleGrace has passed (community's Settled), and a settling that
//     read the game pending gives up once SettleRun has passed since it
//     read it, so no settling can count a game a profile has forgotten.
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

// SettleRun bounds one settling: a settling that read its game pending
// counts it nowhere once this long has passed since (ErrSettleLate; the
// sweep starts again from the game as it then is). SettleGrace is how
// long after a game is settled a profile, a league or a tournament may
// forget having counted it: far longer than any settling that read it
// pending can still be counting.
const (
	SettleRun   = 10 * time.Minute
	SettleGrace = time.Hour
)

// ErrSettleLate: a settling ran past SettleRun since it read its game.
var ErrSettleLate = errors.New("settling ran late: left to the sweep")

// Settle applies the end of game id to its players' profiles and marks it
// settled (steps 2 and 3 above). A game that is not pending is left alone.
// host names the site (the round pushes of a tournament's next round).
func (h *Service) Settle(ctx context.Context, host, id string) error {
	_, err := h.note(ctx, id, nil, func(g *Loaded) error {
		if g.State.Settle != SettlePending {
			return ErrUnchanged
		}
		m, err := g.Replay()
		if err != nil {
			return err
		}
		read := h.now()
		if err := h.community.Ended(withSettleRun(ctx, read.Add(SettleRun)), host, id, g.State, m); err != nil {
			return err
		}
		g.State.Settle, g.State.SettledAt = SettleDone, h.now().Unix()
		return nil
	})
	return err
}

type settleRunKey struct{}

// withSettleRun carries the time a settling must have counted by.
func withSettleRun(ctx context.Context, by time.Time) context.Context {
	return context.WithValue(ctx, settleRunKey{}, by)
}

// SettleInTime is ErrSettleLate when the settling ctx carries has run past
// SettleRun (now: the service's clock); a community write that counts a
// game calls it where its write is decided, on every attempt.
func SettleInTime(ctx context.Context, now time.Time) error {
	if by, ok := ctx.Value(settleRunKey{}).(time.Time); ok && now.After(by) {
		return ErrSettleLate
	}
	return nil
}

// Forgettable reports which of the games ids a profile, a league or a
// tournament may forget having counted: those settled more than
// SettleGrace ago, and those no longer stored (no settling can read them).
// A game not read (the store failed) is not forgettable.
func (h *Service) Forgettable(ctx context.Context, ids []string) (map[string]bool, error) {
	items, err := store.LoadAll(ctx, h.store, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, id := range ids {
		it, ok := items[id]
		if !ok {
			out[id] = true
			continue
		}
		// SettledAt 0: settled before format 7, before this rule.
		st, err := OpenStored(id, it)
		out[id] = err == nil && st.Settle == SettleDone &&
			(st.SettledAt == 0 || h.now().Sub(time.Unix(st.SettledAt, 0)) > SettleGrace)
	}
	return out, nil
}
