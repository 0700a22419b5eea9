package api

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"

	"tessera/engine"
	"tessera/engine/bot"
)

// Hints, table notes and the look back at a hand (additions, issue 35,
// docs/hints.md). Each needs the seat's token (a read's 404, then 401).

// playJSON is a play and what the expert expects of it.
type playJSON struct {
	Tile   engine.Tile `json:"tile"`
	End    engine.End  `json:"end"`
	Points float64     `json:"points"` // this hand's, to one decimal
	Win    float64     `json:"win"`    // the match's, 0..1 to three decimals
}

func playOf(p bot.PlayAdvice) playJSON {
	return playJSON{Tile: p.Move.Tile, End: p.Move.End,
		Points: math.Round(p.Points*10) / 10, Win: math.Round(p.Win*1000) / 1000}
}

// moveJSON is a play alone.
type moveJSON struct {
	Tile engine.Tile `json:"tile"`
	End  engine.End  `json:"end"`
}

// hint is POST /api/games/{id}/hint: the expert's choice and every legal
// play's expected points and chance to win, after the public mark that the
// seat asked (the view's hints). 409 not_eligible in games without hints,
// not_your_turn when the seat has no play to choose. It takes no body (an
// empty JSON object is accepted too).
func (h *Handler) hint(c *call, body []byte) {
	if b := strings.TrimSpace(string(body)); b != "" && b != "{}" {
		c.fail(badRequest("a hint takes no body"))
		return
	}
	token, _, _ := bearer(c.r)
	a, meta, err := h.svc.Hint(c.r.Context(), c.op(), c.gameID, token)
	if err != nil {
		c.fail(err)
		return
	}
	c.think.Hard += hintCost // a refused hint searched nothing
	out := struct {
		Best    moveJSON   `json:"best"`
		Plays   []playJSON `json:"plays"`
		Version int64      `json:"version"`
	}{Best: moveJSON{a.Best.Tile, a.Best.End}, Version: meta.Version}
	for _, p := range a.Plays {
		out.Plays = append(out.Plays, playOf(p))
	}
	c.writeJSON(http.StatusOK, out)
}

// hintCost is a hint's thinking in hard decisions (the rate limiter's
// thinking bucket): the expert's search (two) and the tallies beside it.
const hintCost = 3

// notes is GET /api/games/{id}/notes: the seat's table notes (tiles out
// by number, their pips, what each seat showed it lacks), from its own
// view; 409 not_eligible when no hand is in play.
func (h *Handler) notes(c *call) {
	token, _, _ := bearer(c.r)
	n, err := h.svc.Notes(c.r.Context(), c.op(), c.gameID, token)
	if err != nil {
		c.fail(err)
		return
	}
	c.writeJSON(http.StatusOK, struct {
		Out   [7]int  `json:"out"`
		Pips  int     `json:"pips"`
		Lacks [][]int `json:"lacks"`
	}{n.Out, n.Pips, n.Lacks})
}

// review is GET /api/games/{id}/review[?hand=N]: the seat's own plays of
// hand N (default: the last that ended) that had a choice, each beside the
// expert's choice then. 409 not_finished for a hand not ended, not_eligible
// during a match without hints; 400 for a hand the game keeps no record of.
func (h *Handler) review(c *call) {
	hand := 0
	if vs, ok := c.r.URL.Query()["hand"]; ok {
		n, err := strconv.Atoi(vs[0])
		if len(vs) != 1 || err != nil || n < 1 || strings.TrimLeft(vs[0], "0123456789") != "" {
			c.fail(badRequest("hand must be a whole number of 1 or more"))
			return
		}
		hand = n
	}
	token, _, _ := bearer(c.r)
	hand, plays, err := h.svc.Review(c.r.Context(), c.op(), c.gameID, token, hand)
	c.think.Hard += len(plays) * reviewCost
	if err != nil {
		c.fail(err)
		return
	}
	type reviewed struct {
		Seq    int             `json:"seq"`
		Played playJSON        `json:"played"`
		Best   playJSON        `json:"best"`
		Board  json.RawMessage `json:"board"` // as the view's board
	}
	out := struct {
		Hand  int        `json:"hand"`
		Plays []reviewed `json:"plays"`
	}{Hand: hand, Plays: []reviewed{}}
	for _, p := range plays {
		board, err := appendBoard(nil, &p.Board)
		if err != nil {
			c.fail(err)
			return
		}
		out.Plays = append(out.Plays, reviewed{Seq: p.Seq, Played: playOf(p.Played), Best: playOf(p.Best), Board: board})
	}
	c.writeJSON(http.StatusOK, out)
}

// reviewCost is one reviewed decision's thinking in hard decisions (half
// the expert's budget, with tallies).
const reviewCost = 1
