package api

import (
	"net/http"

	"tessera/functions/game"
)

// move is POST /api/games/{id}/moves (game.Service.Move): 200 with the
// mover's view, or 409 stale_version with the current one.
func (h *Handler) move(c *call, body []byte) {
	req, err := decodeMove(body)
	if err != nil {
		c.fail(err)
		return
	}
	token, _, _ := bearer(c.r) // "" when missing or malformed: 401 after 404
	a, err := h.svc.Move(c.r.Context(), c.op(), c.gameID, token, req)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeView(a)
}

// writeView answers 200 with a seat's view and its ETag.
func (c *call) writeView(a game.Answer) {
	c.seat, c.version = a.Seat, a.Meta.Version
	c.w.Header().Set("ETag", etag(a.Meta.Version, a.Seat, &a.Meta))
	c.writeJSON(http.StatusOK, answerOf(a))
}
