package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"tessera/functions/community"
	"tessera/functions/game"
)

// The room's endpoints (API.md "Community"): profiles, the lobby and the
// leaderboards. Each read is one store read or list (docs/lists.md).

// privateProfile is the key's own profile (PUT /api/me/profile, GET
// /api/me's player).
type privateProfile struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Since    string   `json:"since"`
	Vacation vacation `json:"vacation"`
	// Muted and Blocked: the key's own lists (additions, docs/blocking.md).
	Muted   []community.PlayerRef `json:"muted"`
	Blocked []community.PlayerRef `json:"blocked"`
}

// vacation is the private profile's vacation (API.md "Vacation").
type vacation struct {
	BudgetDays int     `json:"budgetDays"`
	Until      *string `json:"until"`
}

func private(p *community.Private) *privateProfile {
	if p == nil {
		return nil
	}
	out := &privateProfile{ID: p.ID, Name: p.Name, Since: p.Since.UTC().Format(time.RFC3339),
		Vacation: vacation{BudgetDays: p.Vacation.BudgetDays},
		Muted:    append([]community.PlayerRef{}, p.Mutes...), Blocked: append([]community.PlayerRef{}, p.Blocks...)}
	if !p.Vacation.Until.IsZero() {
		u := p.Vacation.Until.UTC().Format(time.RFC3339)
		out.Vacation.Until = &u
	}
	return out
}

// publicProfile is GET /api/players/{id}.
type publicProfile struct {
	ID          string                `json:"id"`
	Name        string                `json:"name"`
	Since       string                `json:"since"`
	Ratings     map[string]poolRating `json:"ratings"`
	Finished    int                   `json:"finished"`
	Timeouts    int                   `json:"timeouts"`
	Reliability *int                  `json:"reliability"`
	Trophies    []trophyJSON          `json:"trophies"`
	Recent      []recentMatch         `json:"recent"`
}

type trophyJSON struct {
	ID   string  `json:"id"`
	At   string  `json:"at"`
	Game *string `json:"game"`
}

type poolRating struct {
	Rating      int     `json:"rating"`
	Mu          float64 `json:"mu"`
	Sigma       float64 `json:"sigma"`
	Games       int     `json:"games"`
	Wins        int     `json:"wins"`
	Provisional bool    `json:"provisional"`
	History     []int   `json:"history"` // an addition: the shown rating after each of the last 50 matches, oldest first
}

type recentMatch struct {
	Game   string `json:"game"`
	Pool   string `json:"pool"`
	Rank   int    `json:"rank"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	At     string `json:"at"`
}

// profileName reads PUT /api/me/profile's body.
func decodeProfileName(body []byte) (string, error) {
	obj, err := parseObject(body)
	if err != nil {
		return "", err
	}
	f := fields{obj: obj, what: "the body"}
	name, hasName := f.str("name")
	f.require("name", hasName)
	if err := f.done(); err != nil {
		return "", err
	}
	return cleanName(name)
}

// putProfile is PUT /api/me/profile.
func (h *Handler) putProfile(c *call, body []byte) {
	name, err := decodeProfileName(body)
	if err != nil {
		c.fail(err)
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	p, err := h.com.SetName(c.r.Context(), hash, name)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, private(p))
}

// decodeVacation reads POST /api/me/vacation's body: the days (checked
// against the budget by the service).
func decodeVacation(body []byte) (int, error) {
	obj, err := parseObject(body)
	if err != nil {
		return 0, err
	}
	f := fields{obj: obj, what: "the body"}
	days, ok := f.int("days", 1, game.VacationMaxDays)
	f.require("days", ok)
	if err := f.done(); err != nil {
		return 0, err
	}
	return int(days), nil
}

// vacation is POST and DELETE /api/me/vacation.
func (h *Handler) vacation(c *call, body []byte) {
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	var p *community.Private
	var err error
	if c.r.Method == http.MethodPost {
		var days int
		if days, err = decodeVacation(body); err == nil {
			p, err = h.com.TakeVacation(c.r.Context(), hash, days)
		}
	} else {
		p, err = h.com.EndVacation(c.r.Context(), hash)
	}
	if err == nil && p == nil {
		err = fmt.Errorf("%w: take a seat or set your name first", game.ErrNotEligible)
	}
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, private(p))
}

// player is GET /api/players/{id}.
func (h *Handler) player(c *call, id string) {
	p, _, err := h.com.LoadProfile(c.r.Context(), id)
	if err != nil {
		c.fail(err)
		return
	}
	out := publicProfile{ID: p.ID, Name: p.Name, Since: p.Since.UTC().Format(time.RFC3339),
		Ratings: map[string]poolRating{}, Finished: p.Finished, Timeouts: p.Timeouts,
		Trophies: []trophyJSON{}, Recent: []recentMatch{}}
	for _, tr := range p.Trophies {
		tj := trophyJSON{ID: tr.ID, At: tr.At.UTC().Format(time.RFC3339)}
		if tr.Game != "" {
			g := tr.Game
			tj.Game = &g
		}
		out.Trophies = append(out.Trophies, tj)
	}
	if r := p.Reliability(); r >= 0 {
		out.Reliability = &r
	}
	for pool, ps := range p.Pools {
		if ps == nil || ps.Games == 0 {
			continue
		}
		hist := ps.History
		if hist == nil {
			hist = []int{}
		}
		out.Ratings[pool] = poolRating{Rating: ratingShown(ps), Mu: ps.Mu, Sigma: ps.Sigma, Games: ps.Games,
			Wins: ps.Wins, Provisional: ps.Games < community.Provisional, History: hist}
	}
	for _, r := range p.Recent {
		out.Recent = append(out.Recent, recentMatch{Game: r.Game, Pool: r.Pool, Rank: r.Rank, Before: r.Before,
			After: r.After, At: r.At.UTC().Format(time.RFC3339)})
	}
	c.writeJSON(http.StatusOK, out)
}

func ratingShown(ps *community.PoolStats) int { return community.Shown(ps.Rating()) }

// lobby is GET /api/lobby[?variant=&rated=].
func (h *Handler) lobby(c *call) {
	q := c.r.URL.Query() // other parameters (a cache buster) are ignored
	variant := q.Get("variant")
	if q.Has("variant") && !game.KnownVariant(variant) {
		c.fail(badRequest("unknown variant %q", variant))
		return
	}
	var rated *bool
	if q.Has("rated") {
		switch q.Get("rated") {
		case "true":
			t := true
			rated = &t
		case "false":
			f := false
			rated = &f
		default:
			c.fail(badRequest("rated must be true or false"))
			return
		}
	}
	// With a key, the tables of the players it blocked are left out.
	games, err := h.com.Lobby(c.r.Context(), variant, rated, c.keyHash())
	if err != nil {
		c.fail(err)
		return
	}
	tours, err := h.com.ListedTournaments(c.r.Context(), variant, rated)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		Games       []json.RawMessage          `json:"games"`
		Tournaments []community.TournamentCard `json:"tournaments"`
	}{games, tours})
}

// leaderboard is GET /api/leaderboard/{pool}.
func (h *Handler) leaderboard(c *call, pool string) {
	rows, err := h.com.Leaderboard(c.r.Context(), pool)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		Pool    string               `json:"pool"`
		Players []community.BoardRow `json:"players"`
	}{pool, rows})
}

// communityRoute finds the room's paths: the route and the id in it.
func communityRoute(path string) (route, string) {
	switch path {
	case "/api/me/profile":
		return routeProfile, ""
	case "/api/me/vacation":
		return routeVacation, ""
	case "/api/lobby":
		return routeLobby, ""
	case "/api/reports":
		return routeReports, ""
	}
	if rest, ok := strings.CutPrefix(path, "/api/players/"); ok {
		if pid, ok := strings.CutSuffix(rest, "/moderation"); ok && pid != "" && !strings.Contains(pid, "/") {
			return routeModeration, pid
		}
	}
	for prefix, rt := range map[string]route{"/api/players/": routePlayer, "/api/leaderboard/": routeBoard,
		"/api/me/mutes/": routeMutes, "/api/me/blocks/": routeBlocks, "/api/reports/": routeReport} {
		if rest, ok := strings.CutPrefix(path, prefix); ok && rest != "" && !strings.Contains(rest, "/") {
			return rt, rest
		}
	}
	return routeNone, ""
}

// listed is PUT and DELETE /api/me/mutes/{player} and
// /api/me/blocks/{player} (additions, docs/blocking.md): the key's own
// lists. No body (or {}); 200 with the key's private profile.
func (h *Handler) listed(c *call, player string, body []byte) {
	if b := strings.TrimSpace(string(body)); b != "" && b != "{}" {
		c.fail(badRequest("this request takes no body"))
		return
	}
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	kind := community.ListMuted
	if c.route == routeBlocks {
		kind = community.ListBlocked
	}
	p, err := h.com.SetListed(c.r.Context(), hash, kind, player, c.r.Method == http.MethodPut)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, private(p))
}
