package game

import (
	"context"

	"tessera/engine"
	"tessera/functions/store"
)

// One way to make a game (docs/settling.md "One path"): a create, a
// rematch and a tournament's table are each a NewGame that Make takes
// through the same steps, in the same order:
//
//  1. the match, every named seat taken (persons and computers);
//  2. every keyed seat admitted: a create by the room's rules of a
//     create (AdmitGame), any other seat as a seat taken (AdmitSeat: a
//     block, a suspension, eligibility, a league's membership); a
//     tournament's table admits none (its entrants were admitted when
//     they entered);
//  3. the seats' profiles: a key new to the table is Seated (its player
//     id, rating, reliability, provisional mark), known players are
//     rated together (SeatsRated);
//  4. the keys' vacations (before the clocks: a vacation stops one);
//  5. the change's own steps before the write (the computers, the
//     clocks, an end: prepare);
//  6. for each id tried: the keyed seats' records, the league's list,
//     then the write (Create: store.ErrExists for a fixed id made
//     already);
//  7. the pushes (the game's own, or the maker's) and the rest of after.

// NewGame is a game to make.
type NewGame struct {
	// ID is the game's id: "" for a new random one (a create); a fixed
	// one (a rematch, a tournament's table) is made once, and Make
	// answers store.ErrExists, having told nobody, when it was made
	// already.
	ID string
	// Seed is the deals' seed (nil: Make draws one).
	Seed     *engine.Seed
	Options  engine.Options
	Seats    []NewSeat // by seat; a zero NewSeat is a free seat
	MoveTime int64     // seconds; 0: no clock
	Room     Room      // Room.CreatedAt is set by Make
	// What a rematch carries on from the match before (zero otherwise).
	Previous      string
	SeriesMatches int
	SeriesWins    []int
	LeagueHints   bool
	// Create is the creator's request: its seat (0) is admitted by the
	// room's rules of a create (AdmitGame); nil for any other game.
	Create *CreateRequest
	// Admit: every keyed seat is admitted as a seat taken (a rematch).
	Admit bool
	// Cause is the hash of the key that made it: it hears nothing of it.
	Cause []byte
	// Messages, when set, are the pushes to send once the game is
	// written, from its match as written (the computers may have
	// played), in place of the change's own.
	Messages func(m *engine.Match) map[int]Message
}

// NewSeat is one seat of a NewGame: a person's (Name, TokenHash: the
// key's or a drawn token's hash; Player when the key's player id is
// known already), a computer's (Name, Bot) or a free one (zero).
type NewSeat struct {
	Name      string
	Bot       string
	TokenHash []byte
	Keyed     bool   // TokenHash is a player key's (it has a record and a profile)
	Player    string // the key's player id, when known
}

// Make makes ng through the steps above and returns its change as
// written (c.ID its id).
func (h *Service) Make(ctx context.Context, op Op, ng NewGame) (*Change, error) {
	if ng.Seed == nil {
		seed, err := NewSeed(h.rand)
		if err != nil {
			return nil, err
		}
		ng.Seed = &seed
	}
	m, err := engine.NewMatch(ng.Options, *ng.Seed)
	if err != nil {
		return nil, err
	}
	st := &Stored{Seats: make([]SeatAuth, len(ng.Seats)), MoveTime: ng.MoveTime, Room: ng.Room,
		Previous: ng.Previous, SeriesMatches: ng.SeriesMatches, SeriesWins: ng.SeriesWins, LeagueHints: ng.LeagueHints}
	st.CreatedAt = h.now().UnixNano()
	for s, seat := range ng.Seats {
		st.Seats[s].Rating, st.Seats[s].Reliability, st.Seats[s].RatingAfter = -1, -1, -1
		if seat.Name == "" {
			continue
		}
		if err := m.TakeSeat(s, engine.Seat{Name: seat.Name, Bot: seat.Bot}); err != nil {
			return nil, err
		}
		st.Seats[s].TokenHash, st.Seats[s].Player = seat.TokenHash, seat.Player
	}
	// 2: admission, every keyed seat on the game as it will be.
	if ng.Create != nil {
		var hash []byte
		if ng.Seats[0].Keyed {
			hash = ng.Seats[0].TokenHash
		}
		if err := h.community.AdmitGame(ctx, hash, *ng.Create, st); err != nil {
			return nil, err
		}
	}
	if ng.Admit {
		for _, seat := range ng.Seats {
			if seat.Keyed {
				if err := h.community.AdmitSeat(ctx, seat.TokenHash, st); err != nil {
					return nil, err
				}
			}
		}
	}
	// 3: the seats' profiles.
	known, keyed := false, false
	for s, seat := range ng.Seats {
		keyed = keyed || seat.Keyed
		switch {
		case !seat.Keyed:
		case seat.Player == "":
			if err := h.community.Seated(ctx, st, m, s, seat.TokenHash, seat.Name); err != nil {
				return nil, err
			}
		default:
			known = true
		}
	}
	if known {
		if err := h.community.SeatsRated(ctx, st, m); err != nil {
			return nil, err
		}
	}
	// 4, 5.
	if keyed {
		if err := h.SeatVacations(ctx, st); err != nil {
			return nil, err
		}
	}
	c := newChange(ng.ID, st, m)
	c.Cause = ng.Cause
	if err := h.prepare(ctx, op, c); err != nil {
		return nil, err
	}
	// 6: a random id is drawn again when it exists already.
	kind := gameIDs
	if ng.ID != "" {
		kind = WriteKind{name: "game " + ng.ID, attempts: 1, exhausted: store.ErrExists}
	}
	err = Retry(ctx, kind, func(int) error {
		if ng.ID == "" {
			if c.ID, err = NewGameID(h.rand); err != nil {
				return err
			}
		}
		// The records first: see player.go.
		for _, seat := range ng.Seats {
			if seat.Keyed {
				if err := h.AddToRecord(ctx, seat.TokenHash, c.ID); err != nil {
					return err
				}
			}
		}
		if err := h.community.Listing(ctx, c.ID, st); err != nil {
			return err
		}
		return h.write(ctx, c)
	})
	if err != nil {
		return nil, err
	}
	// 7.
	if ng.Messages != nil {
		c.Messages = ng.Messages(m)
	}
	h.after(ctx, op, c)
	return c, nil
}
