package api

import (
	"net/http"
	"strings"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/push"
)

// watch is PUT and DELETE /api/games/{id}/watch (an addition, issue 34,
// docs/watch.md): a page that shows the game, with push on, asks that its
// device be pushed every move of the game with its seat's view, for
// game.WatchLease, and renews that while it is visible. PUT needs the
// seat's token (a read's 404 and 401) and answers 200 {"until"}; DELETE
// ends the device's watch with its endpoint alone (the device's secret)
// and answers 204 whether or not there was one.
func (h *Handler) watch(c *call, body []byte) {
	endpoint, ok := h.endpointBody(c, body)
	if !ok {
		return
	}
	// The same rule as a push device's (PUT /api/me/push): an https URL
	// with a host, no user info, no private or local address. A lease is
	// never dialled, but what a server holds as an endpoint is one.
	if err := push.CheckEndpoint(endpoint, h.push != nil && h.push.Insecure); err != nil {
		c.fail(badRequest("%s", strings.TrimPrefix(err.Error(), push.ErrEndpoint.Error()+": ")))
		return
	}
	if c.r.Method == http.MethodDelete {
		if err := h.svc.Unwatch(c.r.Context(), c.gameID, endpoint); err != nil {
			c.fail(err)
			return
		}
		c.noContent()
		return
	}
	token, _, _ := bearer(c.r)
	until, err := h.svc.Watch(c.r.Context(), c.gameID, token, endpoint)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		Until string `json:"until"`
	}{until.UTC().Format(time.RFC3339)})
}

// pushedView is what a watching page is pushed: seat's view as a GET
// answers it, and its ETag (game.Config.ViewJSON).
func pushedView(v *engine.View, m game.Meta, seat int) ([]byte, string) {
	b, err := (&viewAnswer{v: v, meta: m}).appendJSON(make([]byte, 0, 4096))
	if err != nil {
		return nil, ""
	}
	return b, etag(m.Version, seat, &m)
}
