package api

import "net/http"

// poll is GET /api/games/{id}: the view for the token's seat or for a
// spectator, with an ETag; a matching If-None-Match is answered 304 from
// the stored header alone, without replaying the match.
func (h *Handler) poll(c *call) {
	g, err := h.load(c.r.Context(), c)
	if err != nil {
		c.fail(err)
		return
	}
	seat, err := g.authenticate(c, true)
	if err != nil {
		c.fail(err)
		return
	}
	if g, err = h.catchUp(c.r.Context(), c, g); err != nil {
		c.fail(err)
		return
	}
	tag := etag(g.item.Version, seat)
	c.w.Header().Set("ETag", tag)
	if notModified(c.r.Header.Values("If-None-Match"), tag) {
		c.status = http.StatusNotModified
		c.w.WriteHeader(http.StatusNotModified)
		return
	}
	m, err := g.replay()
	if err != nil {
		c.w.Header().Del("ETag")
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, m.View(seat, g.state.meta(c.gameID, g.item.Version, g.item.UpdatedAt)))
}
