package api

// rematch is POST /api/games/{id}/rematch (API.md "Rematch",
// game.Service.Rematch): every request answers the new game for the
// caller's seat, 201 for the one that made it, 200 after.
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
	token, _, _ := bearer(c.r)
	a, err := h.svc.Rematch(c.r.Context(), c.op(), c.gameID, token)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeSeat(a)
}
