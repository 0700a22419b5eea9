package game

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"tessera/engine"
	"tessera/functions/store"
)

// TimeoutAttempts bounds the reloads of a timeout that lost its save to a
// concurrent change (which the next attempt sees).
const TimeoutAttempts = 3

// CatchUp applies every deadline of g (game id) that has passed: the seats
// become away, the computer plays for them, and that is saved as one
// change (API.md: any request sees the game as of now). It is the one
// place a read decides to write. A timeout racing a move is one
// conditional save against another: exactly one applies, and CatchUp
// reloads and returns the game as it then is. host names the site for
// the pushes' VAPID contact when none is configured.
func (h *Service) CatchUp(ctx context.Context, host, id string, g *Loaded, t *Thinking) (*Loaded, error) {
	for attempt := 0; ; attempt++ {
		_, err := h.ApplyTimeouts(ctx, host, id, g, t)
		if errors.Is(err, store.ErrConflict) && attempt+1 < TimeoutAttempts {
			if g, err = h.Load(ctx, id); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		return g, nil
	}
}

// Load reads game id: store.ErrNotFound for an id that cannot exist or is
// not stored, engine.ErrCorrupt for a stored game that does not decode.
func (h *Service) Load(ctx context.Context, id string) (*Loaded, error) {
	if !ValidGameID(id) {
		return nil, fmt.Errorf("load %q: %w", id, store.ErrNotFound)
	}
	item, err := h.store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return OpenLoaded(id, item)
}

// ApplyTimeouts times out the seats of g whose deadline has passed and
// saves the result in place of g (done: g is the new game). Without such a
// seat it does nothing.
func (h *Service) ApplyTimeouts(ctx context.Context, host, id string, g *Loaded, t *Thinking) (done bool, err error) {
	now := h.now()
	late := g.State.overdue(now)
	if len(late) == 0 {
		return false, nil
	}
	m, err := g.Replay()
	if err != nil {
		return false, err
	}
	b := Snapshot(m)
	for _, s := range late {
		g.State.Seats[s].TimedOut = true // for the end's settling: its player's timeouts
		if err := m.Timeout(s); err != nil {
			// The clock and the game disagree (a stale since): the game
			// wins; the save below corrects the clock.
			h.log.Warn("clock: a seat past its deadline cannot time out", "gameId", id, "seat", s)
		}
	}
	if err := h.RunBots(m, t, g.State.Open); err != nil {
		return false, err
	}
	g.State.AfterChange(m, b, now)
	g.State.Match = engine.Encode(m)
	if err := h.markEnd(ctx, g.State, m, now); err != nil {
		return false, err
	}
	saved, err := h.SaveGame(ctx, id, g.State, g.Item, now)
	if err != nil {
		return false, err
	}
	g.Item = saved
	h.log.Info("clock: timed out", "gameId", id, "version", g.Item.Version, "seats", len(late))
	h.Notify(ctx, host, id, g.Item.Version, m, g.State, b, nil)
	h.settleNow(ctx, host, id, g.State)
	return true, nil
}

// sweepBatch is how many due games one Sweep takes on.
const sweepBatch = 100

// Sweep does what the clocks ask now, for the games the store's due index
// lists (it never scans the games): timeouts, applied as on a request, and
// reminders when a quarter of a seat's time is left. host names the site
// for the pushes' VAPID contact when none is configured. It returns how
// many games it changed or reminded. A game that cannot be handled is
// logged and left for the next sweep.
func (h *Service) Sweep(ctx context.Context, host string) (int, error) {
	ids, err := h.store.Due(ctx, h.now(), sweepBatch)
	if err != nil {
		return 0, err
	}
	// The pushes go out beside the sweep (send), not between its games.
	q := &sendQueue{slots: make(chan struct{}, sweepSends)}
	defer q.wg.Wait()
	ctx = context.WithValue(ctx, sendQueueKey{}, q)
	n := 0
	for _, id := range ids {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		did, err := h.sweepOne(ctx, host, id)
		if err != nil {
			h.log.Warn("clock: a due game was not handled", "gameId", id, "cause", LogCause(err))
			continue
		}
		if did {
			n++
		}
	}
	return n, nil
}

func (h *Service) sweepOne(ctx context.Context, host, id string) (bool, error) {
	if tid, ok := isTournamentItem(id); ok {
		return true, h.SweepTournament(ctx, host, tid)
	}
	if lid, ok := strings.CutPrefix(id, "league-"); ok {
		return true, h.SweepLeague(ctx, lid)
	}
	if strings.HasPrefix(id, "player-") {
		return true, h.SweepVacation(ctx, id)
	}
	var t Thinking // one game's budget, as one request's
	for attempt := 0; attempt < TimeoutAttempts; attempt++ {
		g, err := h.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if g.State.Settle == SettlePending {
			return true, h.Settle(ctx, host, id)
		}
		done, err := h.ApplyTimeouts(ctx, host, id, g, &t)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil || done {
			return done, err
		}
		if did, err := h.endVacations(ctx, id, g); did || err != nil {
			return did, err
		}
		did, err := h.remind(ctx, host, id, g)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return did, err
	}
	return false, fmt.Errorf("%w: %s changed under the sweeper %d times", store.ErrConflict, id, TimeoutAttempts)
}

// remind sends the reminders that are due, noting them first with Touch
// (the game's version and view do not change), so each goes out at most
// once. A stale due time is corrected the same way.
func (h *Service) remind(ctx context.Context, host, id string, g *Loaded) (bool, error) {
	now := h.now()
	var seats []int
	for i := range g.State.Seats {
		if was := g.State.Seats[i].Reminded; g.State.remindedAt(i, now) > was {
			seats = append(seats, i) // one reminder, however many fell due
		}
	}
	due := g.State.Due()
	if len(seats) == 0 && due.Unix() == g.Item.Due.Unix() {
		return false, nil
	}
	if err := h.store.Touch(ctx, id, SealStored(id, g.Item.Version, g.State), g.Item.Version, due); err != nil {
		return false, err
	}
	if len(seats) == 0 {
		return false, nil
	}
	m, err := g.Replay()
	if err != nil {
		return false, err
	}
	msgs := map[int]Message{}
	for _, s := range seats {
		if g.State.Seats[s].TokenHash == nil {
			continue
		}
		v := m.View(s)
		left := g.State.DeadlineOf(s).Sub(now).Round(time.Minute)
		msgs[s] = inEveryLang(id, g.Item.Version, "reminder", func(l lang) (string, string) {
			return catalog[l].yourTurn + fill(catalog[l].left, inWords(left, l)), fill(catalog[l].yourMoveIn, TableName(v, s, l))
		})
	}
	h.Send(ctx, host, id, g.Item.Version, g.State, msgs)
	return true, nil
}
