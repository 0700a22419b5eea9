package community

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// Leagues (API.md "Leagues (leghe)"): a group of friends with a running
// table by month. A league is one store item (LeagueItemID), JSON after a
// format byte: its members, the hash of its invite, its tables by season
// (each finished league match counted once: settle.go calls
// countLeagueMatch), and its games. The league's id is listed in each
// member's profile (GET /api/me's leagues).
const (
	leagueFormat = 1
	// MaxLeaguesCreated and MaxMembers are API.md's limits.
	MaxLeaguesCreated = 10
	MaxMembers        = 100
	// maxLeagueGames is how many games a league remembers (GET shows a
	// season's, at most 100).
	maxLeagueGames = 400
	leagueTTL      = 2 * 365 * 24 * time.Hour
	seasonLayout   = "2006-01"
)

// LeagueItemID is the store item of league id.
func LeagueItemID(id string) string { return "league-" + id }

// League is one league as stored.
type League struct {
	ID      string                            `json:"id"`
	Name    string                            `json:"name"`
	Variant string                            `json:"variant"`
	Hints   bool                              `json:"hints,omitempty"` // its games' seats may ask for hints (docs/hints.md)
	Admin   string                            `json:"admin"`
	Invite  []byte                            `json:"invite"` // the invite's hash
	Members []LeagueMember                    `json:"members"`
	Seasons map[string]map[string]*LeagueLine `json:"seasons,omitempty"` // season -> player -> line
	Games   []LeagueGame                      `json:"games,omitempty"`   // oldest first
	Settled []string                          `json:"settled,omitempty"` // the games counted (counted: the last MaxSettled at least)
	Crowned []string                          `json:"crowned,omitempty"` // seasons whose champion has the trophy
}

// due is when the sweep should crown a season's champion: the first
// instant of the month after the oldest season with matches not crowned
// yet (zero for none).
func (l *League) due() time.Time {
	var oldest string
	for s, table := range l.Seasons {
		if len(table) > 0 && !slices.Contains(l.Crowned, s) && (oldest == "" || s < oldest) {
			oldest = s
		}
	}
	if oldest == "" {
		return time.Time{}
	}
	t, err := time.Parse(seasonLayout, oldest)
	if err != nil {
		return time.Time{}
	}
	return t.AddDate(0, 1, 0)
}

// LeagueMember is one member (Removed: no longer, their lines stay).
type LeagueMember struct {
	Player  string    `json:"player"`
	Since   time.Time `json:"since"`
	Removed bool      `json:"removed,omitempty"`
	// Key is the hash of the member's key (its devices hear of a new
	// league game); none for a member who joined before it was kept.
	Key []byte `json:"key,omitempty"`
}

// LeagueLine is one player's line of a season's table.
type LeagueLine struct {
	Played        int `json:"played"`
	Won           int `json:"won"`
	Lost          int `json:"lost"`
	PointsFor     int `json:"pointsFor"`
	PointsAgainst int `json:"pointsAgainst"`
	// Form is an addition to API.md's row: the season's last five
	// results, oldest first, "W" won and "L" lost.
	Form string `json:"form"`
}

// LeagueGame is a game of the league and the season its match ended in
// ("" while it is played).
type LeagueGame struct {
	ID     string `json:"id"`
	Season string `json:"season,omitempty"`
}

// Member reports whether player pid is a member (not removed).
func (l *League) Member(pid string) bool {
	for _, m := range l.Members {
		if m.Player == pid && !m.Removed {
			return true
		}
	}
	return false
}

func (l *League) members() int {
	n := 0
	for _, m := range l.Members {
		if !m.Removed {
			n++
		}
	}
	return n
}

func encodeLeague(l *League) ([]byte, error) { return game.EncodeJSONItem(leagueFormat, l) }

func decodeLeague(b []byte) (*League, error) {
	return game.DecodeJSONItem(b, leagueFormat, "league", func(l *League) string { return l.ID })
}

// LoadLeague reads league id: store.ErrNotFound when there is none.
func (h *Service) LoadLeague(ctx context.Context, id string) (*League, int64, error) {
	if !game.ValidGameID(id) {
		return nil, 0, fmt.Errorf("league %q: %w", id, store.ErrNotFound)
	}
	item, err := h.store.Load(ctx, LeagueItemID(id))
	if err != nil {
		return nil, 0, err
	}
	l, err := decodeLeague(item.State)
	return l, item.Version, err
}

// updateLeague applies change to league id and writes it on condition,
// retrying a lost race; change's error (or game.ErrUnchanged) ends it.
func (h *Service) updateLeague(ctx context.Context, id string, change func(l *League) error) (*League, error) {
	return updateItem(ctx, game.LeagueWrites, func() (*League, func() error, error) {
		l, version, err := h.LoadLeague(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		return l, func() error {
			b, err := encodeLeague(l)
			if err != nil {
				return err
			}
			now := h.g.Now()
			return h.store.Save(ctx, LeagueItemID(id), b, version, now, l.due(), now.Add(leagueTTL))
		}, nil
	}, change)
}

// updateItem is the community's one read-change-write of an item (a
// league, a tournament): load reads it and how to save it on condition,
// change changes it (game.ErrUnchanged: nothing to write, the item as
// read is the answer), and a lost race is tried again as kind allows.
func updateItem[T any](ctx context.Context, kind game.WriteKind, load func() (*T, func() error, error), change func(*T) error) (*T, error) {
	var out *T
	err := game.Retry(ctx, kind, func(int) error {
		v, save, err := load()
		if err != nil {
			return err
		}
		out = v
		if err := change(v); err != nil {
			return err
		}
		return save()
	})
	if err != nil && !errors.Is(err, game.ErrUnchanged) {
		return nil, err
	}
	return out, nil
}

// newInvite draws an invite token and its hash.
func (h *Service) newInvite() (string, []byte, error) {
	return h.g.SeatToken("")
}

// newInvited draws a new league's or tournament's id, its invite and the
// invite's hash.
func (h *Service) newInvited() (id, invite string, inviteHash []byte, err error) {
	if id, err = game.NewGameID(h.g.Rand()); err != nil {
		return "", "", nil, err
	}
	invite, inviteHash, err = h.newInvite()
	return id, invite, inviteHash, err
}

// CreateLeague is POST /api/leagues: the creator is its first member and
// its admin. It returns the league and its invite.
func (h *Service) CreateLeague(ctx context.Context, hash []byte, name, variant string, hints bool) (*League, string, error) {
	p, err := h.ProfileOfKey(ctx, hash)
	if err != nil {
		return nil, "", err
	}
	id, invite, inviteHash, err := h.newInvited()
	if err != nil {
		return nil, "", err
	}
	now := h.g.Now().UTC().Truncate(time.Second)
	l := &League{ID: id, Name: name, Variant: variant, Hints: hints, Admin: p.ID, Invite: inviteHash,
		Members: []LeagueMember{{Player: p.ID, Since: now, Key: hash}}}
	// The creator's profile first (the count of leagues made, the list):
	// a crash after it leaves a league id that names nothing, which every
	// read skips.
	admitted := false
	_, _, err = h.UpdateProfile(ctx, p.ID, func(p *Profile) bool {
		admitted = p.LeaguesMade < MaxLeaguesCreated
		if !admitted {
			return false
		}
		p.LeaguesMade++
		p.Leagues = append(p.Leagues, LeagueRef{ID: id, Name: name})
		return true
	})
	if err != nil {
		return nil, "", err
	}
	if !admitted {
		return nil, "", fmt.Errorf("%w: a key may create %d leagues", game.ErrLimitReached, MaxLeaguesCreated)
	}
	b, err := encodeLeague(l)
	if err != nil {
		return nil, "", err
	}
	if err := h.store.Create(ctx, LeagueItemID(id), b, h.g.Now(), time.Time{}, h.g.Now().Add(leagueTTL)); err != nil {
		return nil, "", err
	}
	return l, invite, nil
}

// JoinLeague is POST /api/leagues/{id}/members: created reports whether
// the key became a member now (201) rather than being one (200). A wrong
// invite is store.ErrNotFound, as an unknown league.
func (h *Service) JoinLeague(ctx context.Context, hash []byte, id, invite string) (*League, bool, error) {
	l, _, err := h.LoadLeague(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if !bytes.Equal(game.HashToken(invite), l.Invite) {
		return nil, false, fmt.Errorf("league %q: %w", id, store.ErrNotFound)
	}
	p, err := h.ProfileOfKey(ctx, hash)
	if err != nil {
		return nil, false, err
	}
	created := false
	l, err = h.updateLeague(ctx, id, func(l *League) error {
		if !bytes.Equal(game.HashToken(invite), l.Invite) {
			return fmt.Errorf("league %q: %w", id, store.ErrNotFound)
		}
		if l.Member(p.ID) {
			return game.ErrUnchanged
		}
		if l.members() >= MaxMembers {
			return fmt.Errorf("%w: a league has at most %d members", game.ErrLimitReached, MaxMembers)
		}
		now := h.g.Now().UTC().Truncate(time.Second)
		l.Members = slices.DeleteFunc(l.Members, func(m LeagueMember) bool { return m.Player == p.ID })
		l.Members = append(l.Members, LeagueMember{Player: p.ID, Since: now, Key: hash})
		created = true
		return nil
	})
	if err != nil || !created {
		return l, created, err
	}
	_, _, err = h.UpdateProfile(ctx, p.ID, func(p *Profile) bool {
		if slices.ContainsFunc(p.Leagues, func(r LeagueRef) bool { return r.ID == id }) {
			return false
		}
		p.Leagues = append(p.Leagues, LeagueRef{ID: id, Name: l.Name})
		return true
	})
	return l, created, err
}

// adminLeague loads league id for its admin: store.ErrNotFound for anyone
// else (API.md: "Admin only (else 404)").
func (h *Service) adminLeague(ctx context.Context, hash []byte, id string) (*League, *Profile, error) {
	l, _, err := h.LoadLeague(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := h.MyProfile(ctx, hash)
	if err != nil {
		return nil, nil, err
	}
	if p == nil || p.ID != l.Admin {
		return nil, nil, fmt.Errorf("league %q: %w", id, store.ErrNotFound)
	}
	return l, p, nil
}

// RotateInvite is POST /api/leagues/{id}/invite: a new invite; the old one
// stops working.
func (h *Service) RotateInvite(ctx context.Context, hash []byte, id string) (string, error) {
	if _, _, err := h.adminLeague(ctx, hash, id); err != nil {
		return "", err
	}
	invite, inviteHash, err := h.newInvite()
	if err != nil {
		return "", err
	}
	_, err = h.updateLeague(ctx, id, func(l *League) error {
		l.Invite = inviteHash
		return nil
	})
	return invite, err
}

// RemoveMember is DELETE /api/leagues/{id}/members/{player}: their lines
// stay in the tables. The admin cannot be removed (400).
func (h *Service) RemoveMember(ctx context.Context, hash []byte, id, pid string) error {
	l, _, err := h.adminLeague(ctx, hash, id)
	if err != nil {
		return err
	}
	if pid == l.Admin {
		return fmt.Errorf("%w: the admin stays in the league", engine.ErrBadInput)
	}
	if !l.Member(pid) {
		return fmt.Errorf("member %q: %w", pid, store.ErrNotFound)
	}
	if _, err := h.updateLeague(ctx, id, func(l *League) error {
		for i := range l.Members {
			if l.Members[i].Player == pid {
				l.Members[i].Removed = true
			}
		}
		return nil
	}); err != nil {
		return err
	}
	_, _, err = h.UpdateProfile(ctx, pid, func(p *Profile) bool {
		n := len(p.Leagues)
		p.Leagues = slices.DeleteFunc(p.Leagues, func(r LeagueRef) bool { return r.ID == id })
		return len(p.Leagues) != n
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil // a forgotten member has no list to leave
	}
	return err
}

// memberLeague is league id for a member, the key whose hash is hash:
// store.ErrNotFound for anyone else, as for an unknown league (API.md).
func (h *Service) memberLeague(ctx context.Context, hash []byte, id string) (*League, error) {
	l, _, err := h.LoadLeague(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := h.MyProfile(ctx, hash)
	if err != nil {
		return nil, err
	}
	if p == nil || !l.Member(p.ID) {
		return nil, fmt.Errorf("league %q: %w", id, store.ErrNotFound)
	}
	return l, nil
}

// leagueOfGame checks a create in league id by the key whose hash is hash
// (a member's; else 404) in the league's rule set (else 400), and returns
// the league.
func (h *Service) leagueOfGame(ctx context.Context, hash []byte, id string, o engine.Options) (*League, error) {
	l, err := h.memberLeague(ctx, hash, id)
	if err != nil {
		return nil, err
	}
	if r := o.Rules(); r == nil || r.Name != l.Variant {
		return nil, fmt.Errorf("%w: this league plays %s", engine.ErrBadInput, l.Variant)
	}
	return l, nil
}

// leagueMember refuses a seat in a league game to a key that is not a
// member (409 not_eligible).
func (h *Service) leagueMember(ctx context.Context, hash []byte, id string) error {
	l, _, err := h.LoadLeague(ctx, id)
	if err != nil {
		return err
	}
	p, err := h.MyProfile(ctx, hash)
	if err != nil {
		return err
	}
	if p == nil || !l.Member(p.ID) {
		return fmt.Errorf("%w: only the league's members play its games", game.ErrNotEligible)
	}
	return nil
}

// addLeagueGame lists game gid in league id (a new game or a rematch).
func (h *Service) addLeagueGame(ctx context.Context, id, gid string) error {
	_, err := h.updateLeague(ctx, id, func(l *League) error {
		if slices.ContainsFunc(l.Games, func(g LeagueGame) bool { return g.ID == gid }) {
			return game.ErrUnchanged
		}
		l.Games = append(l.Games, LeagueGame{ID: gid})
		if len(l.Games) > maxLeagueGames {
			l.Games = slices.Clone(l.Games[len(l.Games)-maxLeagueGames:])
		}
		return nil
	})
	return err
}

// countLeagueMatch counts the end of league game gid in its league's table
// for the season it ended in, once (settle.go).
func (h *Service) countLeagueMatch(ctx context.Context, gid string, st *game.Stored, m *engine.Match) error {
	season := time.Unix(st.SettleAt, 0).UTC().Format(seasonLayout)
	opts := m.Options()
	scores := m.Scores()
	total := 0
	for _, s := range scores {
		total += s
	}
	_, err := h.updateLeague(ctx, st.League, func(l *League) error {
		if slices.Contains(l.Settled, gid) {
			return game.ErrUnchanged
		}
		if err := game.SettleInTime(ctx, h.g.Now()); err != nil {
			return err // a settling that ran late counts nothing
		}
		if l.Seasons == nil {
			l.Seasons = map[string]map[string]*LeagueLine{}
		}
		table := l.Seasons[season]
		if table == nil {
			table = map[string]*LeagueLine{}
			l.Seasons[season] = table
		}
		done := map[string]bool{}
		for s, a := range st.Seats {
			if a.Player == "" || done[a.Player] {
				continue
			}
			done[a.Player] = true
			line := table[a.Player]
			if line == nil {
				line = &LeagueLine{}
				table[a.Player] = line
			}
			team := opts.TeamOf(s)
			line.Played++
			result := "L"
			if team == m.Winner() {
				line.Won++
				result = "W"
			} else {
				line.Lost++
			}
			line.Form += result
			if len(line.Form) > 5 {
				line.Form = line.Form[len(line.Form)-5:]
			}
			line.PointsFor += scores[team]
			line.PointsAgainst += total - scores[team]
		}
		for i := range l.Games {
			if l.Games[i].ID == gid {
				l.Games[i].Season = season
			}
		}
		l.Settled = h.counted(ctx, l.Settled, gid)
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil // the league is gone: nothing to count
	}
	return err
}

// InviteMatches reports whether invite is league l's current one.
func InviteMatches(l *League, invite string) bool {
	return bytes.Equal(game.HashToken(invite), l.Invite)
}

// SweepLeague crowns the champions of league id's ended seasons: the
// first of a season's table of at least 3 players gets the
// league-champion trophy (API.md "Trophies"). The trophies first (a
// profile keeps a trophy once, so giving it again changes nothing), then
// the seasons marked crowned: a crash between leaves them to the next
// sweep, which gives nothing twice.
func (h *Service) SweepLeague(ctx context.Context, id string) error {
	l, _, err := h.LoadLeague(ctx, id)
	if err != nil {
		return err
	}
	current := h.g.Now().UTC().Format(seasonLayout)
	var ended []string
	for season, table := range l.Seasons {
		if season >= current || slices.Contains(l.Crowned, season) {
			continue
		}
		ended = append(ended, season)
		if len(table) < 3 {
			continue
		}
		var rows []LeagueTableRow
		for pid, line := range table {
			rows = append(rows, LeagueTableRow{Player: pid, LeagueLine: *line})
		}
		SortTable(rows)
		if err := h.GiveTrophy(ctx, rows[0].Player, "league-champion", ""); err != nil {
			return err
		}
	}
	if len(ended) == 0 {
		return nil
	}
	_, err = h.updateLeague(ctx, id, func(l *League) error {
		n := len(l.Crowned)
		for _, s := range ended {
			if !slices.Contains(l.Crowned, s) {
				l.Crowned = append(l.Crowned, s)
			}
		}
		if len(l.Crowned) == n {
			return game.ErrUnchanged
		}
		return nil
	})
	return err
}

// Made tells the league's other members of its new game with a free seat
// (a push, kind "league": an invitation to take the seat), once, from the
// request that made it (game.Community). A rematch, full, tells nobody.
func (h *Service) Made(ctx context.Context, host, id string, st *game.Stored, m *engine.Match) error {
	if st.League == "" || m.FreeSeat() < 0 {
		return nil
	}
	l, _, err := h.LoadLeague(ctx, st.League)
	if err != nil {
		return err
	}
	by := m.Seat(0).Name
	var to []game.Delivery
	for _, mb := range l.Members {
		if mb.Removed || mb.Key == nil || game.SeatOfHash(st.Seats, mb.Key) >= 0 {
			continue
		}
		to = append(to, game.Delivery{Key: mb.Key, Seat: -1, Msg: game.LeagueGameMessage(id, l.Name, by)})
	}
	h.g.SendTo(ctx, host, id, 1, to)
	return nil
}
