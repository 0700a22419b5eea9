package api

import (
	"net/http"
	"strconv"
	"strings"
)

// poll is GET /api/games/{id}: the view for the token's seat or for a
// spectator, with an ETag; a matching If-None-Match is answered 304 from
// the stored header alone, without replaying the match.
func (h *Handler) poll(c *call) {
	token, named, _ := bearer(c.r) // named but "": malformed, 401 after 404
	g, seat, err := h.svc.Read(c.r.Context(), c.op(), c.gameID, token, named, heldVersion(c.r.Header.Values("If-None-Match")))
	if err != nil {
		c.fail(err)
		return
	}
	c.seat, c.version = seat, g.Version()
	meta := g.Meta(c.gameID)
	tag := etag(meta.Version, seat, &meta)
	c.w.Header().Set("ETag", tag)
	if notModified(c.r.Header.Values("If-None-Match"), tag) {
		c.status = http.StatusNotModified
		c.w.WriteHeader(http.StatusNotModified)
		return
	}
	v, err := g.View(seat)
	if err != nil {
		c.w.Header().Del("ETag")
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, &viewAnswer{v: v, meta: meta})
}

// heldVersion is the highest game version the If-None-Match tags name (the
// API's own `"v12-s2"`, weak or not), 0 for none.
func heldVersion(header []string) int64 {
	var held int64
	for _, h := range header {
		for _, tag := range strings.Split(h, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			rest, ok := strings.CutPrefix(tag, `"v`)
			if !ok {
				continue
			}
			digits, _, ok := strings.Cut(rest, "-")
			if v, err := strconv.ParseInt(digits, 10, 64); ok && err == nil && v > held {
				held = v
			}
		}
	}
	return held
}
