package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"tessera/functions/game"
)

// poll is GET /api/games/{id}: the view for the token's seat or for a
// spectator, with an ETag; a matching If-None-Match is answered 304 from
// the stored header alone, without replaying the match.
func (h *Handler) poll(c *call) {
	g, err := h.loadForPoll(c.r.Context(), c)
	if err != nil {
		c.fail(err)
		return
	}
	seat, err := authenticate(g, c, true)
	if err != nil {
		c.fail(err)
		return
	}
	if g, err = h.catchUp(c.r.Context(), c, g); err != nil {
		c.fail(err)
		return
	}
	tag := etag(g.Item.Version, seat, g.State.Chat)
	c.w.Header().Set("ETag", tag)
	if notModified(c.r.Header.Values("If-None-Match"), tag) {
		c.status = http.StatusNotModified
		c.w.WriteHeader(http.StatusNotModified)
		return
	}
	m, err := g.Replay()
	if err != nil {
		c.w.Header().Del("ETag")
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, answer(m, seat, g.State.Meta(c.gameID, g.Item.Version, g.Item.UpdatedAt)))
}

// loadForPoll reads the game for a poll. A poll whose If-None-Match names the
// version its page holds may read a moment stale where the store offers it
// (store.Eventual; half the read's price on DynamoDB): an item at that
// version answers 304, at worst a moment late; a newer one is a true view of
// the game. An item older than the page's, or none, is read again strongly,
// and so is every poll without a version (a page's first GET, or one a push
// asked for: it drops its ETag). docs/consistency.md.
func (h *Handler) loadForPoll(ctx context.Context, c *call) (*game.Loaded, error) {
	g, err := h.svc.LoadHeld(ctx, c.gameID, heldVersion(c.r.Header.Values("If-None-Match")))
	if err != nil {
		return nil, err
	}
	c.version = g.Item.Version
	return g, nil
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

// catchUp brings g up to now before a request that passed its checks
// goes on (the service's CatchUp decides and applies overdue timeouts);
// the request then answers at the version it reached.
func (h *Handler) catchUp(ctx context.Context, c *call, g *game.Loaded) (*game.Loaded, error) {
	g, err := h.svc.CatchUp(ctx, c.r.Host, c.gameID, g, &c.think)
	if err != nil {
		return nil, err
	}
	c.version = g.Item.Version
	return g, nil
}
