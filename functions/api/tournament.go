package api

import (
	"net/http"
	"strings"

	"tessera/functions/community"
	"tessera/functions/game"
)

// Tournaments (API.md "Tournaments (tornei)").

// decodeTournament reads POST /api/tournaments: the fields and their
// bounds; the community's rules (community.TournamentRequest.Check) fill
// in the defaults and check the rest.
func decodeTournament(body []byte) (community.TournamentRequest, error) {
	var req community.TournamentRequest
	obj, err := parseObject(body)
	if err != nil {
		return req, err
	}
	f := fields{obj: obj, what: "the body"}
	name, hasName := f.str("name")
	f.require("name", hasName)
	format, hasFormat := f.str("format")
	f.require("format", hasFormat)
	rounds, _ := f.int("rounds", 1, community.MaxRounds)
	table := f.table()
	moveTime, hasMoveTime := f.int("moveTime", game.MinMoveTime, game.MaxMoveTime)
	f.require("moveTime", hasMoveTime)
	roundTime, hasRoundTime := f.int("roundTime", community.MinRoundTime, community.MaxRoundTime)
	f.require("roundTime", hasRoundTime)
	size, _ := f.int("size", community.MinSize, community.MaxSize)
	listed, _ := f.bool("listed")
	rated, _ := f.bool("rated")
	if err := f.done(); err != nil {
		return req, err
	}
	o, err := table.options()
	if err != nil {
		return req, err
	}
	if req.Name, err = cleanNameOf(name, maxLeagueName); err != nil {
		return req, err
	}
	req.Format, req.Options, req.MoveTime, req.RoundTime, req.Listed, req.Rated = format, o, moveTime, roundTime, listed, rated
	req.Rounds, req.Size = int(rounds), int(size)
	return req, req.Check()
}

// createTournament is POST /api/tournaments.
func (h *Handler) createTournament(c *call, body []byte) {
	req, err := decodeTournament(body)
	if err != nil {
		c.fail(err)
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	t, invite, err := h.com.CreateTournament(c.r.Context(), hash, req)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusCreated, struct {
		Tournament *community.TournamentView `json:"tournament"`
		Invite     string                    `json:"invite"`
	}{t.View(), invite})
}

// tournament is GET /api/tournaments/{id} (no key needed).
func (h *Handler) tournament(c *call, id string) {
	t, _, err := h.com.LoadTournament(c.r.Context(), id)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, t.View())
}

// entries is POST (enter) and DELETE (withdraw) /api/tournaments/{id}/entries.
func (h *Handler) entries(c *call, id string, body []byte) {
	ctx := c.r.Context()
	if c.r.Method == http.MethodDelete { // no body (API.md), as DELETE /api/me/vacation
		if _, _, err := h.com.LoadTournament(ctx, id); err != nil {
			c.fail(err)
			return
		}
		hash, ok := c.playerKey()
		if !ok {
			return
		}
		if err := h.com.Withdraw(ctx, hash, id); err != nil {
			c.fail(err)
			return
		}
		c.noContent()
		return
	}
	obj, err := parseObject(body)
	if err != nil {
		c.fail(err)
		return
	}
	f := fields{obj: obj, what: "the body"}
	invite, _ := f.str("invite")
	if err := f.done(); err != nil {
		c.fail(err)
		return
	}
	if err := h.com.CheckInvite(ctx, id, invite); err != nil {
		c.fail(err)
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	t, created, err := h.com.Enter(ctx, hash, id)
	if err != nil {
		c.fail(err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	c.writeJSON(status, struct {
		Tournament *community.TournamentView `json:"tournament"`
	}{t.View()})
}

// startTournament is POST /api/tournaments/{id}/start (its creator only).
func (h *Handler) startTournament(c *call, id string, body []byte) {
	if _, err := parseObject(body); err != nil && strings.TrimSpace(string(body)) != "" {
		c.fail(err)
		return
	}
	t, err := h.com.Start(c.r.Context(), c.r.Host, c.keyHash(), id)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		Tournament *community.TournamentView `json:"tournament"`
	}{t.View()})
}

// tournamentRoute finds the tournaments' paths.
func tournamentRoute(path string) (route, string) {
	if path == "/api/tournaments" {
		return routeTournaments, ""
	}
	rest, ok := strings.CutPrefix(path, "/api/tournaments/")
	if !ok {
		return routeNone, ""
	}
	id, sub, hasSub := strings.Cut(rest, "/")
	switch {
	case id == "":
		return routeNone, ""
	case !hasSub:
		return routeTournament, id
	case sub == "entries":
		return routeEntries, id
	case sub == "start":
		return routeStart, id
	}
	return routeNone, ""
}
