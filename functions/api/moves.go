package api

import (
	"errors"
	"fmt"
	"net/http"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// move is POST /api/games/{id}/moves. After the checks of API.md's order
// (a retried moveId, the version, then the rules), the move is applied with
// every forced draw and pass and computer move after it, and saved on
// condition that nobody else wrote in between.
func (h *Handler) move(c *call, body []byte) {
	req, err := decodeMove(body)
	if err != nil {
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
	if g, err = h.catchUp(ctx, c, g); err != nil {
		c.fail(err)
		return
	}
	m, err := g.Replay()
	if err != nil {
		c.fail(err)
		return
	}
	if g.State.Applied(seat, req.MoveID) {
		c.writeView(m, seat, g.Item.Version, g)
		return
	}
	if req.Version != g.Item.Version {
		c.stale(m, seat, g)
		return
	}
	was := game.Snapshot(m)
	if err := m.Apply(seat, req.Move); err != nil {
		c.fail(notHeld(m, seat, req.Move, err))
		return
	}
	g.State.Remember(seat, req.MoveID)
	now, err := h.saveAfterBots(ctx, c, g, m, was)
	if errors.Is(err, store.ErrConflict) {
		h.lostRace(c, seat, req.MoveID)
		return
	}
	if err != nil {
		c.fail(err)
		return
	}
	c.version = g.Item.Version + 1
	g.Item.UpdatedAt = now
	h.svc.Notify(ctx, c.r.Host, c.gameID, c.version, m, g.State, was, g.State.Seats[seat].TokenHash)
	c.writeView(m, seat, c.version, g)
}

// lostRace answers a move whose save found a newer version: if that version
// holds the same move (a retry that raced itself), it is the answer;
// otherwise the move was decided on a stale version.
func (h *Handler) lostRace(c *call, seat int, moveID string) {
	g, err := h.load(c.r.Context(), c)
	if err != nil {
		c.fail(err)
		return
	}
	m, err := g.Replay()
	if err != nil {
		c.fail(err)
		return
	}
	if g.State.Applied(seat, moveID) {
		c.writeView(m, seat, g.Item.Version, g)
		return
	}
	c.stale(m, seat, g)
}

// writeView answers 200 with seat's view and its ETag.
func (c *call) writeView(m *engine.Match, seat int, version int64, g *game.Loaded) {
	c.w.Header().Set("ETag", etag(version, seat))
	c.writeJSON(http.StatusOK, answer(m, seat, g.State.Meta(c.gameID, version, g.Item.UpdatedAt)))
}

// stale answers 409 stale_version with the current view.
func (c *call) stale(m *engine.Match, seat int, g *game.Loaded) {
	e := toAPIError(errStale)
	e.game = answer(m, seat, g.State.Meta(c.gameID, g.Item.Version, g.Item.UpdatedAt))
	c.failWith(e)
}

// notHeld rewrites the refusal of a tile the seat does not hold so that the
// message does not repeat it: the tile may be another seat's, and no error
// body names another seat's tile, even one the client sent.
func notHeld(m *engine.Match, seat int, mv engine.Move, err error) error {
	if mv.Kind != engine.Play || !errors.Is(err, engine.ErrIllegalMove) {
		return err
	}
	if m.Holds(seat, mv.Tile) {
		return err
	}
	return fmt.Errorf("%w: you do not hold that tile", engine.ErrIllegalMove)
}
