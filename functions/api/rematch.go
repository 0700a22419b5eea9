package api

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// rematchAttempts bounds the reloads of a rematch whose note on the
// finished game lost a race.
const rematchAttempts = 5

// rematchID is the id of the rematch of game id: the same for every
// request, so that of concurrent rematch requests exactly one creates the
// game (the store's Create refuses the others) and a retry after a crash
// finds it. Knowing it tells nothing a game's `next` does not.
func rematchID(id string) string {
	sum := sha256.Sum256([]byte("tessera rematch of " + id))
	return game.IDEncoding.EncodeToString(sum[:game.IDBytes])
}

// rematch is POST /api/games/{id}/rematch (API.md "Rematch"): the first
// request for a finished game creates the next match, same options, every
// seat held by the same token or computer, the same names, started at
// once; then the finished game names it in next (a change, version + 1).
// Every request answers the new game for the caller's seat: 201 for the
// one that made it, 200 after.
func (h *Handler) rematch(c *call, body []byte) {
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return
	}
	if err := (&fields{obj: obj, what: "the body"}).done(); err != nil {
		c.fail(err)
		return
	}
	ctx := c.r.Context()
	g, err := h.load(ctx, c)
	if err != nil {
		c.fail(err)
		return
	}
	seat, err := authenticate(g, c, false)
	if err != nil {
		c.fail(err)
		return
	}
	token, _, _ := bearer(c.r)
	old, err := g.Replay()
	if err != nil {
		c.fail(err)
		return
	}
	if old.Status() != engine.StatusFinished {
		c.fail(fmt.Errorf("%w: play this match to its end first", errNotFinished))
		return
	}
	nextID := rematchID(c.gameID)
	created := false
	if g.State.Next == "" {
		if created, err = h.startRematch(c, g, old, nextID); err != nil {
			c.fail(err)
			return
		}
	}
	if err := h.noteNext(c, nextID); err != nil {
		c.fail(err)
		return
	}
	item, err := h.store.Load(ctx, nextID)
	if err != nil {
		c.fail(err)
		return
	}
	st, err := game.OpenStored(nextID, item)
	if err != nil {
		c.fail(err)
		return
	}
	m, err := engine.Decode(st.Match)
	if err != nil {
		c.fail(err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	c.writeJSON(status, seatAnswer{Game: answer(m, seat, st.Meta(nextID, item.Version, item.UpdatedAt)), Seat: seat, Token: token})
}

// startRematch creates the next match of g unless it exists; created
// reports whether this call made it.
func (h *Handler) startRematch(c *call, g *game.Loaded, old *engine.Match, nextID string) (created bool, err error) {
	ctx := c.r.Context()
	seed, err := game.NewSeed(h.rand)
	if err != nil {
		return false, err
	}
	m, err := engine.NewMatch(old.Options(), seed)
	if err != nil {
		return false, err
	}
	st := &game.Stored{Seats: make([]game.SeatAuth, len(g.State.Seats)), MoveTime: g.State.MoveTime,
		Previous: c.gameID, SeriesMatches: g.State.SeriesMatches + 1,
		SeriesWins: make([]int, old.Options().Teams())}
	copy(st.SeriesWins, g.State.SeriesWins)
	if w := old.Winner(); w >= 0 {
		st.SeriesWins[w]++
	}
	for s := range st.Seats {
		seat := old.Seat(s)
		if err := m.TakeSeat(s, engine.Seat{Name: seat.Name, Bot: seat.Bot}); err != nil {
			return false, err
		}
		st.Seats[s].TokenHash = g.State.Seats[s].TokenHash
	}
	// The players' records first, as for any seat taken (player.go).
	for _, a := range st.Seats {
		if a.TokenHash != nil {
			if err := h.svc.AddToRecord(ctx, a.TokenHash, nextID); err != nil {
				return false, err
			}
		}
	}
	b := game.Snapshot(m)
	if err := h.svc.RunBots(m, &c.think); err != nil {
		return false, err
	}
	now := h.now()
	st.AfterChange(m, game.Before{LogLen: b.LogLen}, now)
	st.Match = engine.Encode(m)
	err = h.svc.CreateGame(game.SaveContext(ctx), nextID, st, now)
	if errors.Is(err, store.ErrExists) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	// Every person hears of it but the caller (the body says when it is
	// their turn already).
	msgs := map[int]game.Message{}
	for s, a := range st.Seats {
		if a.TokenHash == nil || s == c.seat {
			continue
		}
		v := m.View(s)
		msgs[s] = game.RematchMessage(nextID, v, s, c.seat, game.Acting(m, s))
	}
	h.svc.Send(ctx, c.r.Host, nextID, 1, st, msgs)
	return true, nil
}

// noteNext writes next into the finished game, once (a change: version + 1).
func (h *Handler) noteNext(c *call, nextID string) error {
	ctx := c.r.Context()
	for attempt := 0; attempt < rematchAttempts; attempt++ {
		g, err := h.load(ctx, c)
		if err != nil {
			return err
		}
		if g.State.Next != "" {
			return nil
		}
		g.State.Next = nextID
		_, err = h.svc.SaveGame(ctx, c.gameID, g.State, g.Item, h.now())
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("%w: the finished game kept changing", store.ErrUnavailable)
}
