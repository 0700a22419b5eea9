package game

import (
	"context"
	"errors"
	"strings"

	"tessera/functions/store"
)

// The sweep: what the clocks, the settling and the community ask now of
// the items the store's due index lists.

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
	if handled, err := h.community.Due(ctx, host, id); handled {
		return true, err
	}
	if strings.HasPrefix(id, "player-") {
		return true, h.SweepVacation(ctx, id)
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
