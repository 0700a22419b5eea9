package game

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"tessera/functions/store"
)

// The sweep: what the clocks, the settling and the community ask now of
// the items the store's due index lists.

// The sweep's reach (docs/scale.md "The sweep"): it reads the due items
// sweepBatch at a time, earliest first, and goes on reading while a batch
// comes back full, at most sweepRounds batches (sweepRounds x sweepBatch
// items) and never past sweepReserve before its context's deadline (the
// Lambda's 50 s): what is left waits for the next minute. Games are
// handled sweepWorkers at a time; an item that is not a game's (a
// tournament's, a league's, a player's vacation) waits for the games due
// before it and is handled alone, so a round decided at its deadline sees
// every timeout due before it, as one after another did.
const (
	sweepBatch   = 100
	sweepRounds  = 50
	sweepWorkers = 8
	sweepReserve = 10 * time.Second
)

// Sweep does what the clocks ask now, for the items the store's due index
// lists (it never scans the games): timeouts, applied as on a request,
// reminders when a quarter of a seat's time is left, vacations over, and
// tournaments' and leagues' deadlines. host names the site for the
// pushes' VAPID contact when none is configured. It returns how many
// items it changed or reminded. An item that cannot be handled is logged
// and left for the next sweep.
func (h *Service) Sweep(ctx context.Context, host string) (int, error) {
	// The pushes go out beside the sweep (send), not between its games.
	q := newPool(sweepSends)
	defer q.wait()
	ctx = context.WithValue(ctx, sendQueueKey{}, q)
	var n atomic.Int64
	seen := map[string]bool{}
	for round := 0; round < sweepRounds; round++ {
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < sweepReserve {
			break
		}
		ids, err := h.store.Due(ctx, h.now(), sweepBatch)
		if err != nil {
			return int(n.Load()), err
		}
		// An item handled leaves the due list or moves later in it; one
		// that failed, or had nothing to do yet, stays: read again, it
		// is not taken twice.
		var fresh []string
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				fresh = append(fresh, id)
			}
		}
		if err := h.sweepItems(ctx, host, fresh, &n); err != nil {
			return int(n.Load()), err
		}
		if len(ids) < sweepBatch || len(fresh) == 0 {
			break
		}
	}
	return int(n.Load()), nil
}

// sweepItems handles ids in their order: a run of games at once
// (sweepWorkers at a time), any other item alone after the games before it.
func (h *Service) sweepItems(ctx context.Context, host string, ids []string, n *atomic.Int64) error {
	one := func(id string) {
		did, err := h.sweepOne(ctx, host, id)
		if err != nil {
			h.log.Warn("clock: a due item was not handled", "gameId", id, "cause", LogCause(err))
			return
		}
		if did {
			n.Add(1)
		}
	}
	for len(ids) > 0 {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !isGameID(ids[0]) {
			one(ids[0])
			ids = ids[1:]
			continue
		}
		run := 1
		for run < len(ids) && isGameID(ids[run]) {
			run++
		}
		games := newPool(sweepWorkers)
		for _, id := range ids[:run] {
			games.run(func() { one(id) })
		}
		games.wait()
		ids = ids[run:]
	}
	return nil
}

// isGameID: a game's id is base32 (IDEncoding); the other due items
// (tournament-, league-, player-) carry a prefix.
func isGameID(id string) bool { return id != "" && !strings.Contains(id, "-") }

func (h *Service) sweepOne(ctx context.Context, host, id string) (bool, error) {
	if handled, err := h.community.Due(ctx, host, id); handled {
		return true, err
	}
	if strings.HasPrefix(id, "player-") {
		return true, h.sweepPlayer(ctx, id)
	}
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
	// The clocks' due work, as one change: the deadlines passed and the
	// vacations over.
	c, err := h.update(ctx, Op{Host: host}, gameWrites, id, g, func(c *Change) error {
		timedOut := h.timeouts(c)
		if timedOut != nil && !errors.Is(timedOut, ErrUnchanged) {
			return timedOut
		}
		ended := vacationsOver(c, h.now())
		if timedOut == nil || ended {
			return nil
		}
		return ErrUnchanged
	})
	if err != nil || c.Saved.Version != 0 {
		return err == nil, err
	}
	return h.remind(ctx, host, id, c.Game)
}
