package community

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"tessera/engine"
	"tessera/engine/rating"
	"tessera/functions/game"
	"tessera/functions/store"
)

// The room's lists (docs/lists.md), read with store.List, never a scan:
//
//   - "lobby:<variant>:<0|1>": the open games of a rule set, unrated or
//     rated, with a free seat. The entry is part of the game's own item,
//     written in the same save that takes it out when the last seat is
//     taken. Its rank is the creation time then the game id (newest
//     first); a read takes ranks of the last RoomStay only, so a game
//     waiting longer leaves the room without a write. Its card is the
//     lobby entry (LobbyGame) as JSON.
//   - "board:<pool>": one item per player with at least Provisional rated
//     matches in the pool (boardItemID), rewritten whenever settling (or a
//     new name) changes the profile behind it. Rank: μ − 3σ, then the
//     player id, so ties go by id. Card: the leaderboard row.

// LobbyGame is one open game of GET /api/lobby.
type LobbyGame struct {
	ID        string       `json:"id"`
	Variant   string       `json:"variant"`
	Options   LobbyOptions `json:"options"`
	Rated     bool         `json:"rated"`
	CreatedAt string       `json:"createdAt"`
	Seats     []LobbySeat  `json:"seats"`
}

// LobbyOptions are a game's options as a view writes them.
type LobbyOptions struct {
	Players  int  `json:"players"`
	Pairs    bool `json:"pairs"`
	Target   int  `json:"target"`
	Redeal   bool `json:"redeal"`
	MoveTime *int `json:"moveTime"`
}

// LobbySeat is a seat of a lobby entry.
type LobbySeat struct {
	Seat        int     `json:"seat"`
	Taken       bool    `json:"taken"`
	Name        *string `json:"name"`
	Player      *string `json:"player"`
	Rating      *int    `json:"rating"`
	Reliability *int    `json:"reliability"`
	Provisional bool    `json:"provisional"` // Rating is provisional (docs/api-decisions.md)
}

// BoardRow is one row of a leaderboard.
type BoardRow struct {
	Rank   int    `json:"rank"`
	Player string `json:"player"`
	Name   string `json:"name"`
	Rating int    `json:"rating"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
}

// boardCard is a leaderboard item's card (and state): the row without its
// rank, and the version of the profile it was taken from.
type boardCard struct {
	BoardRow
	Profile int64 `json:"pv"`
}

// MaxLobby and MaxBoard are the most entries a lobby and a leaderboard
// answer hold (API.md).
const (
	MaxLobby = 50
	MaxBoard = 100
)

// roomRankTime writes a time as the lobby ranks it (sortable).
const roomRankTime = "20060102T150405.000000000Z"

func lobbyList(variant string, rated bool) string {
	if rated {
		return "lobby:" + variant + ":1"
	}
	return "lobby:" + variant + ":0"
}

func boardList(pool string) string { return "board:" + pool }

func boardItemID(pool, pid string) string { return "board-" + pool + "-" + pid }

func OptionsOf(o engine.Options, moveTime int64) LobbyOptions {
	lo := LobbyOptions{Players: o.Players, Pairs: o.Pairs, Target: o.Target, Redeal: o.Redeal}
	if moveTime > 0 {
		mt := int(moveTime)
		lo.MoveTime = &mt
	}
	return lo
}

// roomEntry is game id's place in the room: its lobby entry while it is
// open and waits for a seat, else none.
func roomEntry(id string, st *game.Stored, m *engine.Match) (store.Entry, error) {
	if !st.Open || m.Status() != engine.StatusOpen {
		return store.Entry{}, nil
	}
	r := m.Options().Rules()
	created := time.Unix(0, st.CreatedAt).UTC()
	g := LobbyGame{ID: id, Variant: r.Name, Options: OptionsOf(m.Options(), st.MoveTime), Rated: st.Rated,
		CreatedAt: created.Format(time.RFC3339)}
	for s, a := range st.Seats {
		seat := m.Seat(s)
		ls := LobbySeat{Seat: s, Taken: seat.Taken}
		if seat.Taken {
			name := seat.Name
			ls.Name = &name
		}
		if a.Player != "" {
			p := a.Player
			ls.Player = &p
		}
		if a.Rating >= 0 {
			v := a.Rating
			ls.Rating = &v
			ls.Provisional = a.Provisional
		}
		if a.Reliability >= 0 {
			v := a.Reliability
			ls.Reliability = &v
		}
		g.Seats = append(g.Seats, ls)
	}
	card, err := json.Marshal(g)
	if err != nil {
		return store.Entry{}, err
	}
	return store.Entry{List: lobbyList(r.Name, st.Rated), Rank: created.Format(roomRankTime) + id, Card: card}, nil
}

// Lobby is GET /api/lobby: the open games with a free seat created in the
// last RoomStay, newest first, at most MaxLobby; variant "" for every rule
// set, rated nil for both. One List per (rule set, rated) asked for. With
// the hash of a key, the tables where a player it blocked sits are left
// out (docs/blocking.md).
//
// The cards are the entries as written (LobbyGame's JSON, with the id),
// answered as they are; decoded only for a key that blocked players, or
// while a player is suspended, to read their seats: a suspended player's
// tables are in no lobby (docs/moderation.md).
func (h *Service) Lobby(ctx context.Context, variant string, rated *bool, hash []byte) ([]json.RawMessage, error) {
	blocked, err := h.blockedOf(ctx, hash)
	if err != nil {
		return nil, err
	}
	// The tables where a suspended player sits wait for nobody
	// (docs/moderation.md): out of every lobby, one small read.
	suspended, err := h.suspendedPlayers(ctx)
	if err != nil {
		return nil, err
	}
	for pid := range suspended {
		blocked[pid] = true
	}
	from := h.g.Now().Add(-RoomStay).UTC().Format(roomRankTime)
	type entry struct {
		rank string
		game json.RawMessage
	}
	var all []entry
	for _, r := range engine.RuleSets() {
		if variant != "" && r.Name != variant {
			continue
		}
		for _, rt := range []bool{false, true} {
			if rated != nil && *rated != rt || rt && r.Pool == nil {
				continue
			}
			l, err := h.store.List(ctx, lobbyList(r.Name, rt), from, MaxLobby)
			if err != nil {
				return nil, err
			}
			for _, e := range l {
				if !json.Valid(e.Card) {
					return nil, fmt.Errorf("%w: the lobby card of %s is not JSON", engine.ErrCorrupt, e.ID)
				}
				if len(blocked) > 0 && seatsAny(e.Card, blocked) {
					continue // a blocked or suspended player's table (docs/blocking.md)
				}
				all = append(all, entry{e.Rank, e.Card})
			}
		}
	}
	// Merge: newest first.
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && all[j].rank > all[j-1].rank; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	out := make([]json.RawMessage, 0, min(len(all), MaxLobby))
	for _, e := range all[:min(len(all), MaxLobby)] {
		out = append(out, e.game)
	}
	return out, nil
}

// seatsAny reports whether a lobby card (valid JSON) seats a player of set.
func seatsAny(card []byte, set map[string]bool) bool {
	var c struct {
		Seats []struct {
			Player *string `json:"player"`
		} `json:"seats"`
	}
	_ = json.Unmarshal(card, &c)
	for _, s := range c.Seats {
		if s.Player != nil && set[*s.Player] {
			return true
		}
	}
	return false
}

// ordinalRank writes μ − 3σ so that byte order is numeric order, then the
// player id with each character mirrored, so that among equal ratings the
// lower id ranks higher (the list reads highest first).
func ordinalRank(r rating.Rating, pid string) string {
	v := int64(math.Round((rating.Ordinal(r) + 1e4) * 1e6))
	v = max(0, min(v, 99999999999999))
	var b strings.Builder
	fmt.Fprintf(&b, "%014d", v)
	for i := 0; i < len(pid); i++ {
		b.WriteByte(0x7e - (pid[i] - 0x20))
	}
	return b.String()
}

// putBoards writes the leaderboard entries of profile p (at version): one
// for each pool in which it has Provisional rated matches or more. An
// entry taken from a later version of the profile is left as it is.
func (h *Service) putBoards(ctx context.Context, p *Profile, version int64) error {
	for _, pool := range Pools {
		ps := p.Pools[pool]
		if ps == nil || ps.Games < Provisional {
			continue
		}
		card, err := json.Marshal(boardCard{BoardRow{Player: p.ID, Name: p.Name, Rating: rating.Shown(ps.Rating()),
			Games: ps.Games, Wins: ps.Wins}, version})
		if err != nil {
			return err
		}
		e := store.Entry{List: boardList(pool), Rank: ordinalRank(ps.Rating(), p.ID), Card: card}
		if p.Suspended != nil {
			e = store.Entry{} // a suspended profile is in no leaderboard (docs/moderation.md)
		}
		if err := h.putBoard(ctx, boardItemID(pool, p.ID), e, version); err != nil {
			return err
		}
	}
	return nil
}

// putBoard writes a leaderboard item at profile version (listed as e;
// e.List "" for none, with e.Card all the same as its state).
func (h *Service) putBoard(ctx context.Context, id string, e store.Entry, version int64) error {
	if e.List == "" {
		return h.unlistBoard(ctx, id, version)
	}
	return game.Retry(ctx, game.BoardWrites, func(int) error {
		now := h.g.Now()
		item, err := h.store.Load(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return h.store.CreateListed(ctx, id, e.Card, now, time.Time{}, now.Add(profileTTL), e)
		case err != nil:
			return err
		}
		var old boardCard
		if json.Unmarshal(item.State, &old) == nil && old.Profile >= version {
			return nil
		}
		return h.store.SaveListed(ctx, id, e.Card, item.Version, now, time.Time{}, now.Add(profileTTL), e)
	})
}

// unlistBoard takes leaderboard item id out of its list, keeping it (with
// the profile's version, so an older write never lists it again).
func (h *Service) unlistBoard(ctx context.Context, id string, version int64) error {
	return game.Retry(ctx, game.BoardWrites, func(int) error {
		item, err := h.store.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var card boardCard
		if err := json.Unmarshal(item.State, &card); err != nil {
			return err
		}
		if card.Profile >= version {
			return nil
		}
		card.Profile = version
		b, err := json.Marshal(card)
		if err != nil {
			return err
		}
		now := h.g.Now()
		return h.store.Save(ctx, id, b, item.Version, now, time.Time{}, now.Add(profileTTL))
	})
}

// Leaderboard is GET /api/leaderboard/{pool}: store.ErrNotFound for a
// pool that does not exist.
func (h *Service) Leaderboard(ctx context.Context, pool string) ([]BoardRow, error) {
	known := false
	for _, p := range Pools {
		known = known || p == pool
	}
	if !known {
		return nil, fmt.Errorf("leaderboard %q: %w", pool, store.ErrNotFound)
	}
	l, err := h.store.List(ctx, boardList(pool), "", MaxBoard)
	if err != nil {
		return nil, err
	}
	rows := make([]BoardRow, 0, len(l))
	for i, e := range l {
		var c boardCard
		if err := json.Unmarshal(e.Card, &c); err != nil {
			return nil, fmt.Errorf("%w: leaderboard card of %s: %v", engine.ErrCorrupt, e.ID, err)
		}
		c.BoardRow.Rank = i + 1
		rows = append(rows, c.BoardRow)
	}
	return rows, nil
}
