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

// catchUp applies every deadline of g (game id) that has passed: the seats
// become away, the computer plays for them, and that is saved as one
// change (API.md: any request sees the game as of now). It is the one
// place a read decides to write. A timeout racing a move is one
// conditional save against another: exactly one applies, and CatchUp
// reloads and returns the game as it then is. host names the site for
// the pushes' VAPID contact when none is configured.
func (h *Service) catchUp(ctx context.Context, host, id string, g *Loaded, t *Thinking) (*Loaded, error) {
	if len(g.State.overdue(h.now())) == 0 {
		return g, nil // most reads: nothing to replay
	}
	c, err := h.update(ctx, Op{Host: host, Think: t}, gameWrites, id, g, h.timeouts)
	if err != nil {
		return nil, err
	}
	return c.Game, nil
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

// LoadHeld reads game id for a reader that holds its version held (0:
// none). Where the store offers it (store.Eventual; half the read's price
// on DynamoDB) the read may be a moment stale: an item at that version
// answers the reader at worst a moment late, and a newer one is a true
// read of the game. An item older than held, or none, is read again
// strongly, and so is every read without a version. docs/consistency.md.
func (h *Service) LoadHeld(ctx context.Context, id string, held int64) (*Loaded, error) {
	ev, ok := h.store.(store.Eventual)
	if !ok || held == 0 || !ValidGameID(id) {
		return h.Load(ctx, id)
	}
	item, err := ev.LoadEventual(ctx, id)
	if err != nil {
		return h.Load(ctx, id)
	}
	g, err := OpenLoaded(id, item)
	if err != nil || g.Version() < held {
		return h.Load(ctx, id)
	}
	return g, nil
}

// Read is a read of game id as of now (API.md's poll): the game at the
// version its reader holds where that is cheaper (LoadHeld), the reader's
// seat (engine.Spectator for a reader that named no token; ErrUnauthorized
// for a token that holds no seat: named but token "", a malformed one),
// and every deadline passed applied first (catchUp). The checks come in
// API.md's order: 404, then 401.
func (h *Service) Read(ctx context.Context, op Op, id, token string, named bool, held int64) (*Loaded, int, error) {
	g, err := h.LoadHeld(ctx, id, held)
	if err != nil {
		return nil, 0, err
	}
	seat := engine.Spectator
	if named {
		if seat, err = seatOf(g, token); err != nil {
			return nil, 0, err
		}
	}
	if g, err = h.catchUp(ctx, op.Host, id, g, op.Think); err != nil {
		return nil, 0, err
	}
	return g, seat, nil
}

// timeouts times out the seats of c's game whose deadline has passed
// (ErrUnchanged: none).
func (h *Service) timeouts(c *Change) error {
	late := c.Game.State.overdue(h.now())
	if len(late) == 0 {
		return ErrUnchanged
	}
	for _, s := range late {
		c.Game.State.Seats[s].TimedOut = true // for the end's settling: its player's timeouts
		if err := c.Match.Timeout(s); err != nil {
			// The clock and the game disagree (a stale since): the game
			// wins; the save corrects the clock.
			h.log.Warn("clock: a seat past its deadline cannot time out", "gameId", c.ID, "seat", s)
		}
	}
	h.log.Info("clock: timing out", "gameId", c.ID, "seats", len(late))
	return nil
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

// remind sends the reminders that are due, noting them first (a note:
// the game's version and view do not change), so each goes out at most
// once. A stale due time is corrected the same way.
func (h *Service) remind(ctx context.Context, host, id string, g *Loaded) (bool, error) {
	now := h.now()
	var seats []int
	g, err := h.note(ctx, id, g, func(g *Loaded) error {
		seats = seats[:0]
		for i := range g.State.Seats {
			if was := g.State.Seats[i].Reminded; g.State.remindedAt(i, now) > was {
				seats = append(seats, i) // one reminder, however many fell due
			}
		}
		if len(seats) == 0 && g.State.Due().Unix() == g.Item.Due.Unix() {
			return ErrUnchanged
		}
		return nil
	})
	if err != nil || len(seats) == 0 {
		return false, err
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
		msgs[s] = inEveryLang(id, g.Version(), "reminder", func(l lang) (string, string) {
			return say(l, "sent.reminder", "left", inWords(left, l)), say(l, "sent.yourMoveIn", "table", TableName(v, s, l))
		})
	}
	h.Send(ctx, host, id, g.Version(), g.State, msgs)
	return true, nil
}
