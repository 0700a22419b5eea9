package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tessera/engine"
	"tessera/functions/store"
)

// timeoutAttempts bounds the reloads of a timeout that lost its save to a
// concurrent change (which the next attempt sees).
const timeoutAttempts = 3

// catchUp applies every deadline of g that has passed before a request
// that passed its checks goes on: the seats become away, the computer
// plays for them, and that is saved as one change (API.md: any request
// sees the game as of now). A timeout racing a move is one conditional
// save against another: exactly one applies, and the other request
// reloads and answers from the game as it then is.
func (h *Handler) catchUp(ctx context.Context, c *call, g *loaded) (*loaded, error) {
	for attempt := 0; ; attempt++ {
		done, err := h.applyTimeouts(ctx, c.r.Host, c.gameID, g, &c.think)
		if errors.Is(err, store.ErrConflict) && attempt+1 < timeoutAttempts {
			if g, err = h.load(ctx, c); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if done {
			c.version = g.item.Version
		}
		return g, nil
	}
}

// applyTimeouts times out the seats of g whose deadline has passed and
// saves the result in place of g (done: g is the new game). Without such a
// seat it does nothing.
func (h *Handler) applyTimeouts(ctx context.Context, host, id string, g *loaded, t *thinking) (done bool, err error) {
	now := h.now()
	late := g.state.overdue(now)
	if len(late) == 0 {
		return false, nil
	}
	m, err := g.replay()
	if err != nil {
		return false, err
	}
	b := snapshot(m)
	for _, s := range late {
		if err := m.Timeout(s); err != nil {
			// The clock and the game disagree (a stale since): the game
			// wins; the save below corrects the clock.
			h.log.Warn("clock: a seat past its deadline cannot time out", "gameId", id, "seat", s)
		}
	}
	if err := h.runBots(m, t); err != nil {
		return false, err
	}
	g.state.afterChange(m, b, now)
	g.state.match = engine.Encode(m)
	state := sealStored(id, g.item.Version+1, g.state)
	if err := h.saveGame(ctx, id, g.state, g.item, now); err != nil {
		return false, err
	}
	g.item = store.Item{Version: g.item.Version + 1, State: state, UpdatedAt: now, Due: g.state.due()}
	h.log.Info("clock: timed out", "gameId", id, "version", g.item.Version, "seats", len(late))
	h.notify(ctx, host, id, g.item.Version, m, g.state, b, nil)
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
func (h *Handler) Sweep(ctx context.Context, host string) (int, error) {
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
			h.log.Warn("clock: a due game was not handled", "gameId", id, "cause", logCause(err))
			continue
		}
		if did {
			n++
		}
	}
	return n, nil
}

func (h *Handler) sweepOne(ctx context.Context, host, id string) (bool, error) {
	var t thinking // one game's budget, as one request's
	for attempt := 0; attempt < timeoutAttempts; attempt++ {
		item, err := h.store.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		st, err := openStored(id, item)
		if err != nil {
			return false, err
		}
		g := &loaded{item: item, state: st}
		done, err := h.applyTimeouts(ctx, host, id, g, &t)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil || done {
			return done, err
		}
		did, err := h.remind(ctx, host, id, g)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return did, err
	}
	return false, fmt.Errorf("%w: %s changed under the sweeper %d times", store.ErrConflict, id, timeoutAttempts)
}

// remind sends the reminders that are due, noting them first with Touch
// (the game's version and view do not change), so each goes out at most
// once. A stale due time is corrected the same way.
func (h *Handler) remind(ctx context.Context, host, id string, g *loaded) (bool, error) {
	now := h.now()
	var seats []int
	for i := range g.state.seats {
		if r := g.state.reminderOf(i); !r.IsZero() && !now.Before(r) {
			g.state.seats[i].reminded = true
			seats = append(seats, i)
		}
	}
	due := g.state.due()
	if len(seats) == 0 && due.Unix() == g.item.Due.Unix() {
		return false, nil
	}
	if err := h.store.Touch(ctx, id, sealStored(id, g.item.Version, g.state), g.item.Version, due); err != nil {
		return false, err
	}
	if len(seats) == 0 {
		return false, nil
	}
	m, err := g.replay()
	if err != nil {
		return false, err
	}
	msgs := map[int]message{}
	for _, s := range seats {
		if g.state.seats[s].tokenHash == nil {
			continue
		}
		v := m.View(s, engine.ViewMeta{ID: id, Version: g.item.Version})
		left := g.state.deadlineOf(s).Sub(now).Round(time.Minute)
		msgs[s] = inEveryLang(id, g.item.Version, "reminder", func(l lang) (string, string) {
			return catalog[l].yourTurn + fill(catalog[l].left, inWords(left, l)), fill(catalog[l].yourMoveIn, tableName(v, s, l))
		})
	}
	h.send(ctx, host, id, g.item.Version, g.state, msgs)
	return true, nil
}
