package api

import (
	"errors"
	"net/http"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// seatAttempts bounds the retries of a seat lost to a concurrent write:
// taking a seat commutes with taking another one, so a lost race is retried
// on the new version instead of being answered stale.
const seatAttempts = 5

// takeSeat is POST /api/games/{id}/seats: the named seat, or the lowest
// free one. Taking the last seat deals the first hand and plays the
// computer players' moves that follow. A key that holds a seat already is
// answered that seat, 200, whatever else the body asks (a retry whose
// answer was lost).
func (h *Handler) takeSeat(c *call, body []byte) {
	req, err := decodeSeat(body)
	if err != nil {
		c.fail(err)
		return
	}
	ctx := c.r.Context()
	var token string
	var hash []byte
	recorded := false
	for attempt := 0; attempt < seatAttempts; attempt++ {
		g, err := h.load(ctx, c)
		if err != nil {
			c.fail(err)
			return
		}
		m, err := g.Replay()
		if err != nil {
			c.fail(err)
			return
		}
		if req.Key != "" {
			if held := game.SeatOfHash(g.State.Seats, game.HashToken(req.Key)); held >= 0 {
				c.seat = held
				c.writeJSON(http.StatusOK, seatAnswer{Game: answer(m, held, g.State.Meta(c.gameID, g.Item.Version, g.Item.UpdatedAt)),
					Seat: held, Token: req.Key})
				return
			}
		}
		seat := req.Seat
		if seat < 0 {
			if seat = m.FreeSeat(); seat < 0 {
				c.fail(engine.ErrGameFull)
				return
			}
		}
		if token == "" {
			if token, hash, err = h.svc.SeatToken(req.Key); err != nil {
				c.fail(err)
				return
			}
		}
		was := game.Snapshot(m)
		if err := m.TakeSeat(seat, engine.Seat{Name: req.Name}); err != nil {
			c.fail(err)
			return
		}
		g.State.Seats[seat].TokenHash = hash
		if req.Key != "" && !recorded {
			// The record first: see player.go.
			if err := h.svc.AddToRecord(ctx, hash, c.gameID); err != nil {
				c.fail(err)
				return
			}
			recorded = true
		}
		now, err := h.saveAfterBots(ctx, c, g, m, was)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			c.fail(err)
			return
		}
		c.seat, c.version = seat, g.Item.Version+1
		h.svc.Notify(ctx, c.r.Host, c.gameID, c.version, m, g.State, was, hash)
		c.writeJSON(http.StatusCreated, seatAnswer{Game: answer(m, seat, g.State.Meta(c.gameID, c.version, now)),
			Seat: seat, Token: token})
		return
	}
	// Every attempt lost a race: the table is very busy. Nothing was taken;
	// the client may try again.
	c.fail(store.ErrUnavailable)
}
