package api

import (
	"net/http"
	"time"

	"tessera/engine"
	"tessera/functions/community"
	"tessera/functions/game"
)

// meGame is one game of GET /api/me.
type meGame struct {
	ID        string         `json:"id"`
	Seat      int            `json:"seat"`
	Variant   engine.Variant `json:"variant"`
	Status    engine.Status  `json:"status"`
	YourTurn  bool           `json:"yourTurn"`
	Names     []*string      `json:"names"`
	Scores    []int          `json:"scores"`
	Deadline  *string        `json:"deadline"`
	UpdatedAt string         `json:"updatedAt"`
	// League is an addition: the league the game is played in, or null.
	League *string `json:"league"`
	// Tournament is an addition too: the tournament it is a game of, or null.
	Tournament *string `json:"tournament"`
	// Vacations is an addition: per seat, when its key's vacation ends
	// (null: none), as the view's seats[].vacation.
	Vacations []*string `json:"vacations"`
	// Away and Paused are additions: per seat, whether the computer plays
	// for the person there (the view's seats[].away); and whether the game
	// waits because every person is away (API.md "Clocks"; never an open
	// game, where the computer plays on).
	Away   []bool `json:"away"`
	Paused bool   `json:"paused"`
	// Previous is an addition: the game this one is the rematch of, as
	// the view's previous (null: none).
	Previous *string `json:"previous"`
}

// errNoKey is a 401 of the player endpoints.
var errNoKey = &apiError{status: http.StatusUnauthorized, code: codeUnauthorized,
	message: "A player key is required: Authorization: Bearer <key>."}

// playerKey reads the bearer key of a player endpoint, or answers 401.
func (c *call) playerKey() ([]byte, bool) {
	key, _, ok := bearer(c.r)
	if !ok {
		c.failWith(errNoKey)
		return nil, false
	}
	return game.HashToken(key), true
}

// me is GET /api/me: the key's games, most recently updated first, and
// its profile (the service's MyGames).
func (h *Handler) me(c *call) {
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	mine, err := h.svc.MyGames(c.r.Context(), hash)
	if err != nil {
		c.fail(err)
		return
	}
	games := make([]meGame, 0, len(mine.Games))
	for _, mg := range mine.Games {
		games = append(games, meGameOf(mg))
	}
	player, err := h.com.PrivateOfRecord(c.r.Context(), mine.Player, mine.Vac)
	if err != nil {
		c.fail(err)
		return
	}
	leagues := []community.LeagueRef{}
	if player != nil && player.Leagues != nil {
		leagues = player.Leagues
	}
	tours, err := h.com.MyTournaments(c.r.Context(), mine.Player)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		Games       []meGame                 `json:"games"`
		Player      *privateProfile          `json:"player"`
		Leagues     []community.LeagueRef    `json:"leagues"`
		Tournaments []community.MyTournament `json:"tournaments"`
		// Email is an addition (issue 46): the key's address, masked,
		// whether it is confirmed and whether the digest is on; null none.
		Email *game.EmailStatus `json:"email"`
	}{games, private(player), leagues, tours, mine.Email})
}

// meGameOf is one game of /api/me as JSON.
func meGameOf(mg game.MyGame) meGame {
	st, v, seat := mg.State, mg.View, mg.Seat
	g := meGame{ID: mg.ID, Seat: seat, Variant: v.Variant, Status: v.Status,
		YourTurn: mg.YourTurn, Scores: v.Scores,
		UpdatedAt: mg.UpdatedAt.UTC().Format(time.RFC3339)}
	if st.League != "" {
		l := st.League
		g.League = &l
	}
	if st.Tournament != "" {
		tr := st.Tournament
		g.Tournament = &tr
	}
	if d := st.DeadlineOf(seat); g.YourTurn && !d.IsZero() {
		ds := d.Format(time.RFC3339)
		g.Deadline = &ds
	}
	g.Paused = g.Status == engine.StatusPlaying && !st.Open && mg.AllAway
	if st.Previous != "" {
		prev := st.Previous
		g.Previous = &prev
	}
	for s, vs := range v.Seats {
		g.Away = append(g.Away, vs.Away)
		g.Names = append(g.Names, vs.Name)
		var until *string
		if u := st.Seats[s].Vacation; u != 0 && g.Status != engine.StatusFinished {
			us := time.Unix(u, 0).UTC().Format(time.RFC3339)
			until = &us
		}
		g.Vacations = append(g.Vacations, until)
	}
	return g
}

// forget is DELETE /api/me (an addition, issue 36, docs/forgetting.md):
// everything kept about the key goes; its seats stay, anonymous. 204,
// also when there was nothing (again: 204).
func (h *Handler) forget(c *call) {
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	if err := h.com.Forget(c.r.Context(), c.op(), hash); err != nil {
		c.fail(err)
		return
	}
	c.noContent()
}

// export is GET /api/me/export (an addition, docs/forgetting.md):
// everything kept about the key, as JSON.
func (h *Handler) export(c *call) {
	hash, ok := c.playerKey()
	if !ok {
		return
	}
	out, err := h.com.Export(c.r.Context(), hash)
	if err != nil {
		c.fail(err)
		return
	}
	c.w.Header().Set("Content-Disposition", `attachment; filename="tessera-export.json"`)
	c.writeJSON(http.StatusOK, out)
}
