package community

import (
	"context"
	"fmt"
	"sort"
	"time"

	"tessera/engine"
	"tessera/functions/store"
)

// What a league shows: its page for a member (ViewLeague, its table by
// season and its games) and its invite's preview for a visitor.

// LeagueView is GET /api/leagues/{id}: the league as a member sees it for
// season ("" for the current one).
type LeagueView struct {
	ID      string              `json:"id"`
	Name    string              `json:"name"`
	Variant string              `json:"variant"`
	Hints   bool                `json:"hints"` // an addition (docs/hints.md)
	Admin   string              `json:"admin"`
	Season  string              `json:"season"`
	Seasons []string            `json:"seasons"`
	Members []LeagueMemberView  `json:"members"`
	Table   []LeagueTableRow    `json:"table"`
	Games   []LeagueGameSummary `json:"games"`
}

// LeagueMemberView is a member under their profile name.
type LeagueMemberView struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	Since  string `json:"since"`
}

// LeagueTableRow is a line of the table with its rank and name.
type LeagueTableRow struct {
	Rank   int    `json:"rank"`
	Player string `json:"player"`
	Name   string `json:"name"`
	LeagueLine
}

// LeagueGameSummary is one game of a season.
type LeagueGameSummary struct {
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	Names     []*string `json:"names"`
	Scores    []int     `json:"scores"`
	Winner    *int      `json:"winner"`
	UpdatedAt string    `json:"updatedAt"`
	updated   time.Time
}

// ErrBadSeason is a season that is not YYYY-MM.
var ErrBadSeason = fmt.Errorf("%w: season must be YYYY-MM", engine.ErrBadInput)

// ViewLeague is GET /api/leagues/{id} for the key whose hash is hash: 404
// for anyone but a member.
func (h *Service) ViewLeague(ctx context.Context, hash []byte, id, season string) (*LeagueView, error) {
	l, err := h.memberLeague(ctx, hash, id)
	if err != nil {
		return nil, err
	}
	current := h.g.Now().UTC().Format(seasonLayout)
	if season == "" {
		season = current
	} else if t, err := time.Parse(seasonLayout, season); err != nil || t.Format(seasonLayout) != season {
		return nil, ErrBadSeason
	}
	v := &LeagueView{ID: l.ID, Name: l.Name, Variant: l.Variant, Hints: l.Hints, Admin: l.Admin, Season: season,
		Members: []LeagueMemberView{}, Table: []LeagueTableRow{}, Games: []LeagueGameSummary{}}
	seasons := map[string]bool{current: true}
	for s := range l.Seasons {
		seasons[s] = true
	}
	for s := range seasons {
		v.Seasons = append(v.Seasons, s)
	}
	sort.Strings(v.Seasons)
	// Names: the profiles of the members and of everyone in the table.
	ids := map[string]bool{}
	for _, m := range l.Members {
		ids[m.Player] = true
	}
	for pid := range l.Seasons[season] {
		ids[pid] = true
	}
	names, err := h.profileNames(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, m := range l.Members {
		if !m.Removed {
			v.Members = append(v.Members, LeagueMemberView{Player: m.Player, Name: nameOf(names, m.Player), Since: m.Since.UTC().Format(time.RFC3339)})
		}
	}
	for pid, line := range l.Seasons[season] {
		v.Table = append(v.Table, LeagueTableRow{Player: pid, Name: nameOf(names, pid), LeagueLine: *line})
	}
	SortTable(v.Table)
	var gameIDs []string
	for i := len(l.Games) - 1; i >= 0 && len(gameIDs) < store.MaxLoadMany; i-- {
		g := l.Games[i]
		if g.Season == season || g.Season == "" && season == current {
			gameIDs = append(gameIDs, g.ID)
		}
	}
	games, err := h.g.Games(ctx, gameIDs)
	if err != nil {
		return nil, err
	}
	for _, gid := range gameIDs {
		g, ok := games[gid]
		if !ok {
			continue
		}
		m, err := g.Replay()
		if err != nil {
			continue
		}
		s := LeagueGameSummary{ID: gid, Status: m.Status().String(), Scores: m.Scores(),
			UpdatedAt: g.Item.UpdatedAt.UTC().Format(time.RFC3339), updated: g.Item.UpdatedAt}
		for i := range m.Options().Players {
			if seat := m.Seat(i); seat.Taken {
				name := seat.Name
				s.Names = append(s.Names, &name)
			} else {
				s.Names = append(s.Names, nil)
			}
		}
		if w := m.Winner(); w >= 0 && m.Status() == engine.StatusFinished {
			s.Winner = &w
		}
		v.Games = append(v.Games, s)
	}
	sort.SliceStable(v.Games, func(i, j int) bool { return v.Games[i].updated.After(v.Games[j].updated) })
	return v, nil
}

// SortTable ranks a season's table (API.md): by won, then won/played,
// then pointsFor − pointsAgainst, then player id.
func SortTable(rows []LeagueTableRow) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Won != b.Won {
			return a.Won > b.Won
		}
		// won/played, compared without division (played > 0 in a table).
		if x, y := a.Won*b.Played, b.Won*a.Played; x != y {
			return x > y
		}
		if x, y := a.PointsFor-a.PointsAgainst, b.PointsFor-b.PointsAgainst; x != y {
			return x > y
		}
		return a.Player < b.Player
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
}

// nameOf is pid's name in names, ForgottenName for a player without a
// profile (forgotten): never an empty name on a page.
func nameOf(names map[string]string, pid string) string {
	if n, ok := names[pid]; ok {
		return n
	}
	return ForgottenName
}

// profileNames reads the names of the profiles ids (in batches of
// store.MaxLoadMany).
func (h *Service) profileNames(ctx context.Context, ids map[string]bool) (map[string]string, error) {
	var all []string
	for id := range ids {
		all = append(all, ProfileItemID(id))
	}
	items, err := store.LoadAll(ctx, h.store, all)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, it := range items {
		if p, err := DecodeProfile(it.State); err == nil {
			out[p.ID] = p.Name
		}
	}
	return out, nil
}

// LeaguePreview is what an invite shows before its holder joins (an
// addition: GET /api/leagues/{id}?invite=<token>): the league's name and
// rule set, who runs it and how many play in it.
type LeaguePreview struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Variant   string `json:"variant"`
	Admin     string `json:"admin"`
	AdminName string `json:"adminName"`
	Members   int    `json:"memberCount"`
	Invited   bool   `json:"invited"`
}

// PreviewLeague is league id as its invite shows it: store.ErrNotFound
// for an unknown league or a wrong invite, as a join answers.
func (h *Service) PreviewLeague(ctx context.Context, id, invite string) (*LeaguePreview, error) {
	l, _, err := h.LoadLeague(ctx, id)
	if err != nil {
		return nil, err
	}
	if !InviteMatches(l, invite) {
		return nil, fmt.Errorf("league %q: %w", id, store.ErrNotFound)
	}
	names, err := h.profileNames(ctx, map[string]bool{l.Admin: true})
	if err != nil {
		return nil, err
	}
	return &LeaguePreview{ID: l.ID, Name: l.Name, Variant: l.Variant, Admin: l.Admin, AdminName: nameOf(names, l.Admin),
		Members: l.members(), Invited: true}, nil
}
