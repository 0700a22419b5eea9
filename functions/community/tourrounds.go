package community

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"tessera/engine"
	"tessera/engine/pairing"
	"tessera/engine/rating"
	"tessera/functions/game"
	"tessera/functions/store"
)

// A tournament's rounds: made, their games made through the game
// service's one path, decided at a game's end or at the round's deadline
// (the sweep), and the next begun.

// roundGameID is the id of the game at table k of round r of tournament
// id: the same for whoever makes it.
func roundGameID(id string, r, k int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "tessera tournament %s round %d table %d", id, r, k))
	return game.IDEncoding.EncodeToString(sum[:game.IDBytes])
}

// beginRound seats the next round of t (in memory: the caller writes t).
// After the last round, t is finished instead, its winner named. Its
// format (Formats) pairs the round and names the winner.
func (h *Service) beginRound(ctx context.Context, t *Tournament) error {
	f := Formats[t.Format]
	if f == nil {
		return fmt.Errorf("%w: tournament %s: unknown format %q", game.ErrInternal, t.ID, t.Format)
	}
	if t.Round >= t.Rounds {
		t.Status = TourFinished
		t.Winner = f.winner(t)
		return nil
	}
	t.Round++
	tables, err := f.pair(ctx, h, t)
	if err != nil {
		return err
	}
	r := TourRound{Number: t.Round, Deadline: h.g.Now().Add(time.Duration(t.RoundTime) * time.Second).UTC().Truncate(time.Second)}
	for k, tb := range tables {
		tt := TourTable{Players: pairing.Seats(tb, t.Pairs)}
		if len(tb) > 1 {
			tt.Game = roundGameID(t.ID, t.Round, k)
		} else {
			tt.Points = []int{1} // a bye: worth 1, counted when its round begins
		}
		r.Tables = append(r.Tables, tt)
	}
	t.Played = append(t.Played, r)
	return nil
}

// makeRound creates the current round's games that do not exist yet,
// tells each entrant of theirs (push "round"), and notes that they exist.
func (h *Service) makeRound(ctx context.Context, host, id string) (*Tournament, error) {
	t, _, err := h.LoadTournament(ctx, id)
	if err != nil || t.Status != TourPlaying || len(t.Played) == 0 || t.Played[len(t.Played)-1].Made {
		return t, err
	}
	r := t.Played[len(t.Played)-1]
	told := map[string]bool{} // one push an entrant: for their first table (a round robin has many)
	for _, tb := range r.Tables {
		if tb.Game == "" {
			continue
		}
		// A game another request made was told by it (ErrExists).
		msgs := map[int]game.Message{}
		for s, pid := range tb.Players {
			if !told[pid] {
				told[pid] = true
				msgs[s] = game.RoundMessage(tb.Game, r.Number, t.Name)
			}
		}
		if err := h.makeTableGame(ctx, host, t, tb, msgs); err != nil && !errors.Is(err, store.ErrExists) {
			return nil, err
		}
	}
	return h.updateTournament(ctx, id, func(t *Tournament) error {
		last := &t.Played[len(t.Played)-1]
		if last.Number != r.Number || last.Made {
			return game.ErrUnchanged
		}
		last.Made = true
		return nil
	})
}

// makeTableGame creates one table's game, every seat taken by its
// entrant's key, started at once, and tells its seats msgs: store.ErrExists
// for a game made already (by a racing request or sweep).
func (h *Service) makeTableGame(ctx context.Context, host string, t *Tournament, tb TourTable, msgs map[int]game.Message) error {
	ng := game.NewGame{ID: tb.Game, Options: t.Options(), Seats: make([]game.NewSeat, len(tb.Players)), MoveTime: t.MoveTime,
		Room:     game.Room{Rated: t.Rated, Tournament: t.ID},
		Messages: func(*engine.Match) map[int]game.Message { return msgs }}
	for s, pid := range tb.Players {
		e := t.Entrants[t.entrant(pid)]
		ng.Seats[s] = game.NewSeat{Name: e.Name, TokenHash: e.Key, Keyed: e.Key != nil, Player: pid}
	}
	_, err := h.g.Make(ctx, game.Op{Host: host}, ng)
	return err
}

// decide records the points of game gid's table from the teams' ranks.
func decide(t *Tournament, gid string, m *engine.Match, final bool) bool {
	for i := range t.Played {
		for k := range t.Played[i].Tables {
			tb := &t.Played[i].Tables[k]
			if tb.Game != gid || tb.Points != nil {
				continue
			}
			winner := -1
			if final {
				winner = m.Winner()
			}
			o := m.Options()
			teams := make([]int, o.Players)
			for s := range teams {
				teams[s] = o.TeamOf(s)
			}
			tb.Points = pairing.MatchPoints(teams, rating.Ranks(m.Scores(), winner))
			return true
		}
	}
	return false
}

// roundDone reports whether every table of t's current round is decided.
func roundDone(t *Tournament) bool {
	if t.Status != TourPlaying || len(t.Played) == 0 {
		return false
	}
	for _, tb := range t.Played[len(t.Played)-1].Tables {
		if tb.Points == nil {
			return false
		}
	}
	return true
}

// tournamentGameEnded counts the end of game gid at its settling: its
// table's points (once: a table decided at its deadline keeps them), and
// the next round when it was the round's last.
func (h *Service) tournamentGameEnded(ctx context.Context, host, gid string, st *game.Stored, m *engine.Match) error {
	advanced := false
	t, err := h.updateTournament(ctx, st.Tournament, func(t *Tournament) error {
		advanced = false
		if !decide(t, gid, m, true) {
			return game.ErrUnchanged
		}
		if roundDone(t) {
			advanced = true
			return h.beginRound(ctx, t)
		}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err == nil && advanced {
		if err = h.crown(ctx, t); err == nil {
			_, err = h.makeRound(ctx, host, st.Tournament)
		}
	}
	return err
}

// crown gives a finished tournament's winner the tournament-winner trophy
// when it had at least 4 entrants (once: a profile has a trophy once).
func (h *Service) crown(ctx context.Context, t *Tournament) error {
	if t.Status != TourFinished || t.Winner == "" || len(t.Entrants) < 4 {
		return nil
	}
	return h.GiveTrophy(ctx, t.Winner, "tournament-winner", "")
}

// SweepTournament is the sweep's part: a round whose games are not all
// made has them made; a round past its deadline decides its tables still
// playing by their scores now, and the next begins.
func (h *Service) SweepTournament(ctx context.Context, host, id string) error {
	t, _, err := h.LoadTournament(ctx, id)
	if err != nil {
		return err
	}
	if t.Status != TourPlaying || len(t.Played) == 0 {
		return nil
	}
	r := t.Played[len(t.Played)-1]
	if !r.Made {
		_, err := h.makeRound(ctx, host, id)
		return err
	}
	if h.g.Now().Before(r.Deadline) {
		return nil
	}
	var open []string
	for _, tb := range r.Tables {
		if tb.Game != "" && tb.Points == nil {
			open = append(open, tb.Game)
		}
	}
	games, err := h.g.Games(ctx, open)
	if err != nil {
		return err
	}
	matches := map[string]*engine.Match{}
	for gid, g := range games {
		m, err := g.Replay()
		if err != nil {
			return err
		}
		matches[gid] = m
	}
	t, err = h.updateTournament(ctx, id, func(t *Tournament) error {
		last := t.Played[len(t.Played)-1]
		if t.Status != TourPlaying || last.Number != r.Number {
			return game.ErrUnchanged
		}
		for gid, m := range matches {
			decide(t, gid, m, m.Status() == engine.StatusFinished)
		}
		// A game gone (it cannot be: tournament games live as long) is
		// decided as a tie.
		for k := range t.Played[len(t.Played)-1].Tables {
			tb := &t.Played[len(t.Played)-1].Tables[k]
			if tb.Points == nil {
				tb.Points = make([]int, len(tb.Players))
			}
		}
		return h.beginRound(ctx, t)
	})
	if err != nil {
		return err
	}
	if err := h.crown(ctx, t); err != nil {
		return err
	}
	_, err = h.makeRound(ctx, host, id)
	return err
}
