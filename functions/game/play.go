package game

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"

	"tessera/engine"
	"tessera/functions/store"
)

// The service's four changes to a game: create one, take a seat, move,
// rematch. Each is one call with ids and values; the API decodes the
// request before and writes the answer after (API.md's check order: what
// the API checks, 400, comes first, then 404, 401, a retried moveId, 409,
// 422, as each call below says).

// Errors of the service's calls beside the engine's and the store's.
var (
	// ErrUnauthorized: the token holds no seat of this game.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrNotFinished: a rematch of a match still played.
	ErrNotFinished = errors.New("the match is not finished")
	// ErrStale: a move decided on an older version (a *StaleError).
	ErrStale = errors.New("stale version")
)

// StaleError is ErrStale with the game as it now is, for the answer.
type StaleError struct{ Now Answer }

func (e *StaleError) Error() string { return ErrStale.Error() }
func (e *StaleError) Unwrap() error { return ErrStale }

// Op is what a call knows of the request beyond its values: the host that
// names the site (the pushes' VAPID contact when none is configured), and
// where the computer players' costly decisions are counted (the rate
// limit charges them).
type Op struct {
	Host  string
	Think *Thinking
}

// Answer is a game as a call leaves it, for one seat: its view (the
// service never hands out the match itself).
type Answer struct {
	View    *engine.View
	Seat    int
	Meta    Meta   // Meta.ID and Meta.Version name the game and its version
	Token   string // the seat's token (create, seat, rematch)
	Created bool   // this call made the seat or game (201), not a retry (200)
}

func answerOf(id string, m *engine.Match, seat int, st *Stored, item store.Item, token string, created bool) Answer {
	return Answer{View: m.View(seat), Seat: seat, Meta: st.Meta(id, st.Version, item.UpdatedAt), Token: token, Created: created}
}

// BotSeat is a computer player asked for at create.
type BotSeat struct {
	Seat  int
	Level string
}

// CreateRequest is a new game: its options (defaults filled in), the
// creator's name and player key ("" for none), the move time in seconds
// (0: no clock) and the computer players.
type CreateRequest struct {
	Options  engine.Options
	Name     string
	Key      string
	MoveTime int64
	Bots     []BotSeat
	// Open lists it in the room; Rated rates it (API.md "Open tables").
	Open, Rated bool
	// League makes it a game of that league ("" none).
	League string
}

// Check applies the room's rules to a create (API.md "Open tables":
// strangers never wait for ever): engine.ErrBadInput for one it breaks.
func (r CreateRequest) Check() error {
	bad := func(msg string, args ...any) error {
		return fmt.Errorf("%w: "+msg, append([]any{engine.ErrBadInput}, args...)...)
	}
	switch {
	case r.League != "" && r.Key == "":
		return bad("a league game needs your player key (key)")
	case r.Open && r.Key == "":
		return bad("an open game needs your player key (key)")
	case r.Open && r.MoveTime == 0:
		return bad("an open game needs a clock (moveTime)")
	case r.Rated && !r.Open:
		return bad("a rated game must be open")
	case r.Rated && len(r.Bots) > 0:
		return bad("a rated game has no computer players")
	case r.Rated && PoolOf(r.Options) == "":
		return bad("%s games are not rated", r.Options.Variant)
	}
	return nil
}

// SeatRequest takes a seat: Seat -1 for the lowest free one.
type SeatRequest struct {
	Name string
	Seat int
	Key  string
}

// MoveRequest is a move decided on Version; MoveID ("" for none) makes
// its retries safe.
type MoveRequest struct {
	Version int64
	MoveID  string
	Move    engine.Move
	// Device is the push endpoint of the page that moves ("" none): it
	// has the move's answer, so its watch is not pushed this version
	// (issue 45: a quarter of a match's pushes went back to their mover).
	Device string
}

// Create makes a new match with the creator in seat 0 and the computer
// players asked for. If that fills the table, the first hand is dealt and
// played until a person must act, all at version 1.
func (h *Service) Create(ctx context.Context, op Op, req CreateRequest) (Answer, error) {
	if err := req.Check(); err != nil {
		return Answer{}, err
	}
	seed, err := NewSeed(h.rand) // before the token: seeded tests deal as they always did
	if err != nil {
		return Answer{}, err
	}
	token, hash, err := h.SeatToken(req.Key)
	if err != nil {
		return Answer{}, err
	}
	seats := make([]NewSeat, req.Options.Players)
	seats[0] = NewSeat{Name: req.Name, TokenHash: hash, Keyed: req.Key != ""}
	for _, b := range req.Bots {
		switch {
		case b.Seat < 0 || b.Seat >= len(seats): // as the engine's TakeSeat answers
			return Answer{}, fmt.Errorf("%w: seat %d is not at this table", engine.ErrBadInput, b.Seat)
		case seats[b.Seat].Name != "":
			return Answer{}, fmt.Errorf("%w: seat %d is taken", engine.ErrSeatTaken, b.Seat)
		}
		seats[b.Seat] = NewSeat{Name: BotName(b.Seat), Bot: b.Level}
	}
	c, err := h.Make(ctx, op, NewGame{Seed: &seed, Options: req.Options, Seats: seats, MoveTime: req.MoveTime,
		Room: Room{Open: req.Open, Rated: req.Rated, League: req.League}, Create: &req, Cause: hash})
	if err != nil {
		return Answer{}, err
	}
	return Answer{View: c.Match.View(0), Seat: 0, Meta: c.Game.Meta(c.ID), Token: token, Created: true}, nil
}

// TakeSeat takes the named seat of game id, or the lowest free one.
// Taking the last seat deals the first hand and plays the computer
// players' moves that follow. A key that holds a seat already is answered
// that seat, not created, whatever else req asks (a retry whose answer was
// lost).
func (h *Service) TakeSeat(ctx context.Context, op Op, id string, req SeatRequest) (Answer, error) {
	var (
		token    string
		hash     []byte
		recorded bool
		held     = -1 // the seat the key holds already
		seat     int
	)
	c, err := h.update(ctx, op, gameWrites, id, nil, func(c *Change) error {
		g, m := c.Game, c.Match
		if req.Key != "" {
			if held = SeatOfHash(g.State.Seats, HashToken(req.Key)); held >= 0 {
				return ErrUnchanged
			}
		}
		if seat = req.Seat; seat < 0 {
			if seat = m.FreeSeat(); seat < 0 {
				return engine.ErrGameFull
			}
		}
		if token == "" {
			var err error
			if token, hash, err = h.SeatToken(req.Key); err != nil {
				return err
			}
		}
		// Decided on the game as this attempt read it, on every attempt:
		// a seat taken meanwhile may be one this key may not sit beside
		// (a block), and a suspension or eligibility may have changed.
		if (g.State.Open || g.State.League != "") && req.Key == "" {
			return fmt.Errorf("%w: this game's seat needs your player key", engine.ErrBadInput)
		}
		if err := h.community.AdmitSeat(ctx, hash0(req.Key), g.State); err != nil {
			return err
		}
		if err := m.TakeSeat(seat, engine.Seat{Name: req.Name}); err != nil {
			return err
		}
		g.State.Seats[seat].TokenHash = hash
		c.Cause = hash
		if req.Key != "" {
			if err := h.community.Seated(ctx, g.State, m, seat, hash, req.Name); err != nil {
				return err
			}
			if err := h.SeatVacations(ctx, g.State); err != nil {
				return err
			}
			if !recorded {
				// The record first: see player.go.
				if err := h.AddToRecord(ctx, hash, id); err != nil {
					return err
				}
				recorded = true
			}
		}
		return nil
	})
	if err != nil {
		return Answer{}, err
	}
	if held >= 0 {
		return answerOf(id, c.Match, held, c.Game.State, c.Game.Item, req.Key, false), nil
	}
	return answerOf(id, c.Match, seat, c.Game.State, c.Saved, token, true), nil
}

// Move applies the move of the seat token holds to game id. After the
// checks in API.md's order (the seat, overdue clocks applied, a retried
// moveId answered as it was, the version, then the rules), the move is
// applied with every forced draw and pass and computer move after it, and
// saved on condition that nobody else wrote in between.
//
// Deadlines that have passed are applied in the same change, not in a
// write of their own before it: the seats past them time out, and the
// move that was sent for the game as it stood is then stale (the version
// moves on), so the change writes the timeouts alone and the move is
// answered 409 stale_version with the game as written, as when the
// timeouts were written first; a retried moveId is answered as it was.
func (h *Service) Move(ctx context.Context, op Op, id, token string, req MoveRequest) (Answer, error) {
	var (
		seat    int
		retried bool // a retried moveId
		late    bool // deadlines passed: the change is their timeouts
		back    bool // the move ended its key's vacation
	)
	// A lost race is read again: a race lost to a change of the game
	// answers as API.md says (the moveId applied: 200; else 409
	// stale_version), one lost to a note (a chat's seq, a hint's mark)
	// leaves the version as it was, and the move is applied to the game
	// as it now is.
	c, err := h.update(ctx, op, gameWrites, id, nil, func(c *Change) error {
		st, m := c.Game.State, c.Match
		var err error
		if seat, err = seatOf(c.Game, token); err != nil {
			return err
		}
		late = h.timeouts(c) == nil
		retried = st.Applied(seat, req.MoveID)
		switch {
		case late:
			return nil
		case retried:
			return ErrUnchanged
		case req.Version != st.Version:
			return &StaleError{answerOf(id, m, seat, st, c.Game.Item, "", false)}
		}
		if err := m.Apply(seat, req.Move); err != nil {
			return notHeld(m, seat, req.Move, err)
		}
		st.Remember(seat, req.MoveID)
		c.Cause = st.Seats[seat].TokenHash
		if req.Device != "" {
			c.Device = deviceDigest(req.Device)
		}
		// A move of any type ends its key's vacation (API.md "Vacation"):
		// here in this change, then in the key's other games (below).
		back = st.Seats[seat].Vacation != 0
		st.Seats[seat].Vacation = 0
		return nil
	})
	if err != nil {
		return Answer{}, err
	}
	if retried || late { // the game as it is (late: as the timeouts wrote it), nothing applied
		a := answerOf(id, c.Match, seat, c.Game.State, c.Game.Item, "", false)
		if retried {
			return a, nil
		}
		return Answer{}, &StaleError{a}
	}
	if back {
		if _, err := h.EndVacation(ctx, c.Game.State.Seats[seat].TokenHash); err != nil {
			h.log.Warn("vacation: not ended by a move", "gameId", id, "cause", LogCause(err))
		}
	}
	return answerOf(id, c.Match, seat, c.Game.State, c.Saved, "", true), nil
}

// seatOf is the seat token holds in g: ErrUnauthorized for none.
func seatOf(g *Loaded, token string) (int, error) {
	if token == "" {
		return 0, ErrUnauthorized
	}
	seat := SeatOf(g.State.Seats, token)
	if seat < 0 {
		return 0, ErrUnauthorized
	}
	return seat, nil
}

// notHeld rewrites the refusal of a tile the seat does not hold so that the
// message does not repeat it: the tile may be another seat's, and no error
// body names another seat's tile, even one the client sent.
func notHeld(m *engine.Match, seat int, mv engine.Move, err error) error {
	if mv.Kind != engine.Play || !errors.Is(err, engine.ErrIllegalMove) {
		return err
	}
	if m.Holds(seat, mv.Tile) {
		return err
	}
	return fmt.Errorf("%w: you do not hold that tile", engine.ErrIllegalMove)
}

// RematchID is the id of the rematch of game id: the same for every
// request, so that of concurrent rematch requests exactly one creates the
// game (the store's Create refuses the others) and a retry after a crash
// finds it. Knowing it tells nothing a game's `next` does not.
func RematchID(id string) string {
	sum := sha256.Sum256([]byte("tessera rematch of " + id))
	return IDEncoding.EncodeToString(sum[:IDBytes])
}

// Rematch answers the next match of finished game id for the seat token
// holds (API.md "Rematch"): the first call creates it, same options, every
// seat held by the same token or computer, the same names, started at
// once; then the finished game names it in next (a change, version + 1).
// Created reports whether this call made it.
func (h *Service) Rematch(ctx context.Context, op Op, id, token string) (Answer, error) {
	g, err := h.Load(ctx, id)
	if err != nil {
		return Answer{}, err
	}
	seat, err := seatOf(g, token)
	if err != nil {
		return Answer{}, err
	}
	old, err := g.Replay()
	if err != nil {
		return Answer{}, err
	}
	if old.Status() != engine.StatusFinished {
		return Answer{}, fmt.Errorf("%w: play this match to its end first", ErrNotFinished)
	}
	nextID := RematchID(id)
	created := false
	if g.State.Next == "" {
		if created, err = h.startRematch(ctx, op, id, seat, g, old, nextID); err != nil {
			return Answer{}, err
		}
	}
	if err := h.noteNext(ctx, op, id, nextID); err != nil {
		return Answer{}, err
	}
	next, m, err := h.loadMatch(ctx, nextID)
	if err != nil {
		return Answer{}, err
	}
	return answerOf(nextID, m, seat, next.State, next.Item, token, created), nil
}

// startRematch creates the next match of g (game id, asked for by seat)
// unless it exists; created reports whether this call made it. Its
// seats are admitted like any seat taken (a block, a suspension, a
// rated game's eligibility, a league's membership).
func (h *Service) startRematch(ctx context.Context, op Op, id string, caller int, g *Loaded, old *engine.Match, nextID string) (created bool, err error) {
	ng := NewGame{ID: nextID, Options: old.Options(), Seats: make([]NewSeat, len(g.State.Seats)), MoveTime: g.State.MoveTime,
		Room:     Room{Open: g.State.Open, Rated: g.State.Rated, League: g.State.League},
		Previous: id, SeriesMatches: g.State.SeriesMatches + 1, SeriesWins: make([]int, old.Options().Teams()),
		LeagueHints: g.State.LeagueHints, Admit: true}
	copy(ng.SeriesWins, g.State.SeriesWins)
	if w := old.Winner(); w >= 0 {
		ng.SeriesWins[w]++
	}
	for s := range ng.Seats {
		a := g.State.Seats[s]
		ng.Seats[s] = NewSeat{Name: old.Seat(s).Name, Bot: old.Seat(s).Bot, TokenHash: a.TokenHash, Keyed: a.Player != "", Player: a.Player}
	}
	// Every person hears of it but the caller (the answer says when it
	// is their turn already).
	ng.Messages = func(m *engine.Match) map[int]Message {
		msgs := map[int]Message{}
		for s, a := range g.State.Seats {
			if a.TokenHash != nil && s != caller {
				msgs[s] = RematchMessage(nextID, m.View(s), s, caller, Acting(m, s))
			}
		}
		return msgs
	}
	if _, err := h.Make(ctx, op, ng); errors.Is(err, store.ErrExists) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return true, nil
}

// noteNext writes next into finished game id, once (a change: version + 1).
func (h *Service) noteNext(ctx context.Context, op Op, id, nextID string) error {
	_, err := h.update(ctx, op, gameWrites, id, nil, func(c *Change) error {
		if c.Game.State.Next != "" {
			return ErrUnchanged
		}
		c.Game.State.Next = nextID
		return nil
	})
	return err
}

// hash0 is the hash of a key ("" none).
func hash0(key string) []byte {
	if key == "" {
		return nil
	}
	return HashToken(key)
}
