package community

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"tessera/engine"
	"tessera/engine/pairing"
)

// What a tournament shows: its page (View), the lobby's cards, and the
// tournaments a key entered (GET /api/me).

// MaxEntered is how many entered tournaments a profile remembers.
const MaxEntered = 20

// MyTournament is what GET /api/me says of a tournament the key entered
// (an addition, "tournaments"): where it stands, and the key's table in
// its current round: its game (null for a bye, or before the round's
// games exist), whether it is a bye, its points once decided (at the
// game's end, or by the scores at the round's deadline: the game then
// goes on, rated if the tournament is, and its end changes nothing here).
type MyTournament struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Status   string  `json:"status"`
	Rated    bool    `json:"rated"`
	Round    int     `json:"round"`
	Rounds   int     `json:"rounds"`
	Deadline *string `json:"deadline"`
	Game     *string `json:"game"`
	Bye      bool    `json:"bye"`
	Points   []int   `json:"points"`
	// Names are the table's players' names, in seat order.
	Names []string `json:"names"`
}

// MyTournaments are the tournaments player pid entered that take entries
// or are played, newest entry first (one LoadMany of its profile's
// Entered).
func (h *Service) MyTournaments(ctx context.Context, pid string) ([]MyTournament, error) {
	out := []MyTournament{}
	p, err := h.profileOrNil(ctx, pid)
	if err != nil || p == nil {
		return out, err
	}
	var ids []string
	for _, id := range p.Entered {
		ids = append(ids, TournamentItemID(id))
	}
	items, err := h.store.LoadMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := len(p.Entered) - 1; i >= 0; i-- {
		it, ok := items[TournamentItemID(p.Entered[i])]
		if !ok {
			continue
		}
		t, err := decodeTournament(it.State)
		if err != nil || t.entrant(pid) < 0 || t.Status == TourFinished {
			continue
		}
		mt := MyTournament{ID: t.ID, Name: t.Name, Status: t.Status, Rated: t.Rated, Round: t.Round, Rounds: t.Rounds}
		if n := len(t.Played); n > 0 {
			r := t.Played[n-1]
			d := r.Deadline.Format(time.RFC3339)
			mt.Deadline = &d
			for _, tb := range r.Tables {
				if !slices.Contains(tb.Players, pid) {
					continue
				}
				if tb.Game != "" {
					g := tb.Game
					mt.Game = &g
				} else {
					mt.Bye = true
				}
				mt.Points = tb.Points
				for _, q := range tb.Players {
					mt.Names = append(mt.Names, t.Entrants[t.entrant(q)].Name)
				}
			}
		}
		out = append(out, mt)
	}
	return out, nil
}

// TournamentView is GET /api/tournaments/{id}.
type TournamentView struct {
	ID       string             `json:"id"`
	Name     string             `json:"name"`
	Format   string             `json:"format"`
	Status   string             `json:"status"`
	Variant  string             `json:"variant"`
	Options  TourOptions        `json:"options"`
	Round    int                `json:"round"`
	Rounds   int                `json:"rounds"`
	Size     int                `json:"size"`
	Listed   bool               `json:"listed"`
	Rated    bool               `json:"rated"`
	Creator  string             `json:"creator"`
	Entries  []TourEntry        `json:"entries"`
	Pairings []TourPairingsView `json:"pairings"`
	Winner   *string            `json:"winner"`
}

// TourOptions are the games' options and the round's time.
type TourOptions struct {
	LobbyOptions
	RoundTime int64 `json:"roundTime"`
}

// TourEntry is an entrant's standing.
type TourEntry struct {
	Player   string `json:"player"`
	Name     string `json:"name"`
	Points   int    `json:"points"`
	Buchholz int    `json:"buchholz"`
	Rank     int    `json:"rank"`
}

// TourPairingsView is a round as shown.
type TourPairingsView struct {
	Round    int             `json:"round"`
	Deadline string          `json:"deadline"`
	Tables   []TourTableView `json:"tables"`
}

// TourTableView is a table as shown (a bye: game null).
type TourTableView struct {
	Game    *string  `json:"game"`
	Players []string `json:"players"`
	Points  []int    `json:"points"`
}

// View is t as GET /api/tournaments/{id} shows it.
func (t *Tournament) View() *TournamentView {
	v := &TournamentView{ID: t.ID, Name: t.Name, Format: t.Format, Status: t.Status, Variant: t.Variant,
		Options: TourOptions{OptionsOf(t.Options(), t.MoveTime), t.RoundTime}, Round: t.Round, Rounds: t.Rounds,
		Size: t.Size, Listed: t.Listed, Rated: t.Rated, Creator: t.Creator, Entries: []TourEntry{}, Pairings: []TourPairingsView{}}
	names := map[string]string{}
	for _, e := range t.Entrants {
		names[e.Player] = e.Name
	}
	for _, s := range pairing.Order(t.entrantIDs(), t.history()) {
		v.Entries = append(v.Entries, TourEntry{Player: s.Player, Name: names[s.Player], Points: s.Points, Buchholz: s.Buchholz, Rank: s.Rank})
	}
	for _, r := range t.Played {
		pv := TourPairingsView{Round: r.Number, Deadline: r.Deadline.Format(time.RFC3339), Tables: []TourTableView{}}
		for _, tb := range r.Tables {
			tv := TourTableView{Players: tb.Players, Points: tb.Points}
			if tb.Game != "" {
				g := tb.Game
				tv.Game = &g
			}
			pv.Tables = append(pv.Tables, tv)
		}
		v.Pairings = append(v.Pairings, pv)
	}
	if t.Winner != "" {
		w := t.Winner
		v.Winner = &w
	}
	return v
}

// ListedTournaments are the lobby's: listed, taking entries, newest first;
// of rule set variant ("" any) and rated or not (nil: both), as the
// lobby's games.
func (h *Service) ListedTournaments(ctx context.Context, variant string, rated *bool) ([]TournamentCard, error) {
	l, err := h.store.List(ctx, tourList, "", MaxLobby)
	if err != nil {
		return nil, err
	}
	out := make([]TournamentCard, 0, len(l))
	for _, e := range l {
		var c TournamentCard
		if err := json.Unmarshal(e.Card, &c); err != nil {
			return nil, fmt.Errorf("%w: tournament card of %s: %v", engine.ErrCorrupt, e.ID, err)
		}
		if variant != "" && c.Variant != variant || rated != nil && c.Rated != *rated {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// isTournamentItem reports whether a due item is a tournament.
func isTournamentItem(id string) (string, bool) { return strings.CutPrefix(id, "tournament-") }
