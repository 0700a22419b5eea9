package api

import (
	"net/http"
	"strings"

	"tessera/engine"
	"tessera/functions/community"
	"tessera/functions/game"
)

// Leagues (API.md "Leagues (leghe)").

// maxLeagueName is a league's (and a tournament's) longest name.
const maxLeagueName = 40

type leagueJSON = community.LeagueView

// decodeLeague reads POST /api/leagues: a name of 1-40 code points (as
// Names) and a variant.
func decodeLeagueRequest(body []byte) (name, variant string, hints bool, err error) {
	obj, err := parseObject(body)
	if err != nil {
		return "", "", false, err
	}
	f := fields{obj: obj, what: "the body"}
	name, hasName := f.str("name")
	f.require("name", hasName)
	variant, hasVariant := f.str("variant")
	f.require("variant", hasVariant)
	hints, _ = f.bool("hints") // an addition (docs/hints.md): false when absent
	if err := f.done(); err != nil {
		return "", "", false, err
	}
	var v engine.Variant
	if err := v.UnmarshalText([]byte(variant)); err != nil {
		return "", "", false, badRequest("unknown variant %q", variant)
	}
	// A league's name: the Names rules, up to 40 code points.
	if name, err = cleanNameOf(name, maxLeagueName); err != nil {
		return "", "", false, err
	}
	return name, variant, hints, nil
}

// keyHash is the hash of the request's well-formed bearer key, nil for
// none (a league read without one is 404, as another's).
func (c *call) keyHash() []byte {
	key, _, ok := bearer(c.r)
	if !ok {
		return nil
	}
	return game.HashToken(key)
}

// createLeague is POST /api/leagues.
func (h *Handler) createLeague(c *call, body []byte) {
	name, variant, hints, err := decodeLeagueRequest(body)
	if err != nil {
		c.fail(err)
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	l, invite, err := h.com.CreateLeague(c.r.Context(), hash, name, variant, hints)
	if err != nil {
		c.fail(err)
		return
	}
	v, err := h.com.ViewLeague(c.r.Context(), hash, l.ID, "")
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusCreated, struct {
		League *leagueJSON `json:"league"`
		Invite string      `json:"invite"`
	}{v, invite})
}

// joinLeague is POST /api/leagues/{id}/members.
func (h *Handler) joinLeague(c *call, id string, body []byte) {
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return
	}
	f := fields{obj: obj, what: "the body"}
	invite, has := f.str("invite")
	f.require("invite", has)
	if err := f.done(); err != nil {
		c.fail(err)
		return
	}
	// 404 (an unknown league, a wrong invite) before 401.
	if l, _, err := h.com.LoadLeague(c.r.Context(), id); err != nil {
		c.fail(err)
		return
	} else if !community.InviteMatches(l, invite) {
		c.fail(errNotFound)
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	_, created, err := h.com.JoinLeague(c.r.Context(), hash, id, invite)
	if err != nil {
		c.fail(err)
		return
	}
	v, err := h.com.ViewLeague(c.r.Context(), hash, id, "")
	if err != nil {
		c.fail(err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	c.writeJSON(status, struct {
		League *leagueJSON `json:"league"`
	}{v})
}

// rotateInvite is POST /api/leagues/{id}/invite (admin only, else 404).
func (h *Handler) rotateInvite(c *call, id string, body []byte) {
	if _, err := parseObject(body); err != nil && len(strings.TrimSpace(string(body))) > 0 {
		c.fail(err)
		return
	}
	invite, err := h.com.RotateInvite(c.r.Context(), c.keyHash(), id)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		Invite string `json:"invite"`
	}{invite})
}

// removeMember is DELETE /api/leagues/{id}/members/{player} (admin only).
func (h *Handler) removeMember(c *call, id, player string) {
	if err := h.com.RemoveMember(c.r.Context(), c.keyHash(), id, player); err != nil {
		c.fail(err)
		return
	}
	c.noContent()
}

// league is GET /api/leagues/{id}[?season=YYYY-MM] (members only, else 404).
func (h *Handler) league(c *call, id string) {
	if q := c.r.URL.Query(); q.Has("invite") {
		// An addition: the league as its invite shows it to a visitor
		// who has not joined yet (a wrong invite is 404, as a join).
		p, err := h.com.PreviewLeague(c.r.Context(), id, q.Get("invite"))
		if err != nil {
			c.fail(err)
			return
		}
		c.writeJSON(http.StatusOK, p)
		return
	}
	v, err := h.com.ViewLeague(c.r.Context(), c.keyHash(), id, c.r.URL.Query().Get("season"))
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, v)
}

// leagueRoute finds the leagues' paths: the route, the league id and the
// player id of a member's path.
func leagueRoute(path string) (route, string, string) {
	if path == "/api/leagues" {
		return routeLeagues, "", ""
	}
	rest, ok := strings.CutPrefix(path, "/api/leagues/")
	if !ok {
		return routeNone, "", ""
	}
	parts := strings.Split(rest, "/")
	if parts[0] == "" {
		return routeNone, "", ""
	}
	switch {
	case len(parts) == 1:
		return routeLeague, parts[0], ""
	case len(parts) == 2 && parts[1] == "members":
		return routeLeagueMembers, parts[0], ""
	case len(parts) == 2 && parts[1] == "invite":
		return routeLeagueInvite, parts[0], ""
	case len(parts) == 3 && parts[1] == "members" && parts[2] != "":
		return routeLeagueMember, parts[0], parts[2]
	}
	return routeNone, "", ""
}
