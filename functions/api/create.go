package api

import (
	"net/http"

	"tessera/functions/game"
)

// create is POST /api/games: a new match with the creator in seat 0 and the
// computer players asked for (game.Service.Create).
func (h *Handler) create(c *call, body []byte) {
	req, err := decodeCreate(body, h.svc.HasLevel)
	if err != nil {
		c.fail(err)
		return
	}
	a, err := h.svc.Create(c.r.Context(), c.op(), req)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeSeat(a)
}

// op is what the service's calls know of the request.
func (c *call) op() game.Op { return game.Op{Host: c.r.Host, Think: &c.think} }

// writeSeat answers a seat given (create, seat, rematch): 201 when this
// request made it, 200 for a retry's.
func (c *call) writeSeat(a game.Answer) {
	if c.gameID == "" {
		c.gameID = a.Meta.ID
	}
	c.seat, c.version = a.Seat, a.Meta.Version
	status := http.StatusOK
	if a.Created {
		status = http.StatusCreated
	}
	c.writeJSON(status, seatAnswer{Game: answerOf(a), Seat: a.Seat, Token: a.Token})
}

// answerOf is the view of a service's answer.
func answerOf(a game.Answer) *viewAnswer { return &viewAnswer{v: a.View, meta: a.Meta} }
