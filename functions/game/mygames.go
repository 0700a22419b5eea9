package game

import (
	"context"
	"slices"
	"time"

	"tessera/engine"
)

// MaxMyGames is the most games /api/me lists (API.md).
const MaxMyGames = 100

// MyGame is one game of a key's list (GET /api/me): the key's seat, its
// view, whether it must act now and whether every person at the table is
// away (the game waits), and the game as stored.
type MyGame struct {
	ID        string
	Seat      int
	View      *engine.View
	YourTurn  bool
	AllAway   bool
	State     *Stored
	UpdatedAt time.Time
}

// MyGames is what the service keeps for a key, as /api/me shows it.
type MyGames struct {
	// Games: the games in which the key holds a seat, most recently
	// updated first, at most MaxMyGames.
	Games []MyGame
	// Player is the key's public player id ("" before it has one) and
	// Vac its vacation, as its record holds them (the community answers
	// its private profile from them).
	Player string
	Vac    Vacation
	// Email is the key's address as its owner sees it (nil: none).
	Email *EmailStatus
}

// MyGames reads the list of the key whose hash is hash: one Load of its
// record and one LoadMany of its games. Each game is checked against the
// game itself (a game gone, or one whose seats do not hold the key, is
// left out: see player.go), so nothing is listed that the key does not
// hold; a stored game that does not decode is logged and left out.
func (h *Service) MyGames(ctx context.Context, hash []byte) (*MyGames, error) {
	rec, _, err := h.LoadPlayer(ctx, hash)
	if err != nil {
		return nil, err
	}
	return h.myGamesOf(ctx, hash, rec)
}

// myGamesOf is MyGames of the record rec, already read.
func (h *Service) myGamesOf(ctx context.Context, hash []byte, rec *Record) (*MyGames, error) {
	items, err := h.store.LoadMany(ctx, rec.Games)
	if err != nil {
		return nil, err
	}
	out := &MyGames{Games: make([]MyGame, 0, len(items))}
	for _, id := range rec.Games {
		item, ok := items[id]
		if !ok {
			continue
		}
		st, err := OpenStored(id, item)
		if err != nil {
			h.log.Warn("my games: a stored game does not decode", "gameId", id, "cause", LogCause(err))
			continue
		}
		seat := SeatOfHash(st.Seats, hash)
		if seat < 0 {
			continue
		}
		m, err := engine.Decode(st.Match)
		if err != nil {
			h.log.Warn("my games: a stored game does not replay", "gameId", id, "cause", LogCause(err))
			continue
		}
		out.Games = append(out.Games, MyGame{ID: id, Seat: seat, View: m.View(seat), YourTurn: slices.Contains(m.ToAct(), seat),
			AllAway: m.AllAway(), State: st, UpdatedAt: item.UpdatedAt})
	}
	slices.SortStableFunc(out.Games, func(a, b MyGame) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	if len(out.Games) > MaxMyGames {
		out.Games = out.Games[:MaxMyGames]
	}
	out.Player, out.Vac, out.Email = rec.Player, rec.Vac, EmailOf(rec)
	return out, nil
}
