package api

// takeSeat is POST /api/games/{id}/seats: the named seat, or the lowest
// free one (game.Service.TakeSeat). A key that holds a seat already is
// answered that seat, 200.
func (h *Handler) takeSeat(c *call, body []byte) {
	req, err := decodeSeat(body)
	if err != nil {
		c.fail(err)
		return
	}
	a, err := h.svc.TakeSeat(c.r.Context(), c.op(), c.gameID, req)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeSeat(a)
}
