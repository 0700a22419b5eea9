package community

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"tessera/engine"
	"tessera/engine/rating"
	"tessera/functions/game"
	"tessera/functions/store"
)

// What a match's end means for its players (docs/settling.md): the game
// service marks it (game's markEnd) and settles it exactly once (game's
// Settle); the community decides, in the save that ends it, the ratings
// after it and the trophies (Ending), and counts it in each player's
// profile, leaderboards, league and tournament (Ended).

// Eligibility and limits (API.md "Open tables").
const (
	// MinFinished is how many matches a key must have finished before it
	// creates or joins a rated game.
	MinFinished = 3
	// MaxWaiting is how many open games a key may have waiting in the
	// room at once.
	MaxWaiting = 3
	// RoomStay is how long an open game stays listed while it waits.
	RoomStay = 7 * 24 * time.Hour
)

// Ending decides, in the save that ends st's match m, every seat's
// trophies and, in a rated game, every seat's rating after the match from
// its profile as it is then (game.Community).
func (h *Service) Ending(ctx context.Context, st *game.Stored, m *engine.Match) error {
	pool := game.PoolOf(m.Options())
	profiles, err := h.seatProfiles(ctx, st)
	if err != nil {
		return err
	}
	// The trophies, from the profiles as they are now (settling gives each
	// to a profile once).
	for s := range st.Seats {
		a := &st.Seats[s]
		if a.Player == "" {
			continue
		}
		f := TrophyFacts{Feats: a.Feats, Rated: st.Rated && pool != "", TimedOut: a.TimedOut}
		if p := profiles[a.Player]; p != nil {
			f.Finished, f.OnTime, f.Owned = p.Finished, p.OnTime, p.owned()
			if pool != "" {
				f.Streak = p.Pool(pool).Streak
			}
		}
		a.Trophies = MatchTrophies(RecordOf(m), s, f)
	}
	if !st.Rated || pool == "" {
		return nil
	}
	opts := m.Options()
	teams := make([][]rating.Rating, opts.Teams())
	members := make([][]int, opts.Teams())
	for s := range st.Seats {
		t := opts.TeamOf(s)
		cur := rating.Tessera.New()
		if p := profiles[st.Seats[s].Player]; p != nil {
			cur = p.Pool(pool).Rating()
		}
		teams[t] = append(teams[t], cur)
		members[t] = append(members[t], s)
		st.Seats[s].Before = cur
	}
	after, err := rating.Tessera.Update(teams, ranksOf(m))
	if err != nil {
		return fmt.Errorf("%w: rating: %v", game.ErrInternal, err)
	}
	for t, seats := range members {
		for j, s := range seats {
			st.Seats[s].After = after[t][j]
			st.Seats[s].RatingAfter = rating.Shown(after[t][j])
		}
	}
	st.HasResult = true
	return nil
}

// ranksOf is each team's place for the update (API.md "Ratings"), as
// the game's pool ranks them (engine.Pool): the winner first and the
// others second, or the others following by final score.
func ranksOf(m *engine.Match) []int {
	if p := game.RatingPool(m.Options()); p != nil && p.ByScore {
		return rating.Ranks(m.Scores(), m.Winner())
	}
	ranks := make([]int, m.Options().Teams())
	for t := range ranks {
		ranks[t] = 2
		if t == m.Winner() {
			ranks[t] = 1
		}
	}
	return ranks
}

// seatProfiles reads the profiles of the seats' players at once (absent
// ones are nil).
func (h *Service) seatProfiles(ctx context.Context, st *game.Stored) (map[string]*Profile, error) {
	var ids []string
	for _, a := range st.Seats {
		if a.Player != "" {
			ids = append(ids, ProfileItemID(a.Player))
		}
	}
	items, err := h.store.LoadMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]*Profile{}
	for _, it := range items {
		p, err := DecodeProfile(it.State)
		if errors.Is(err, store.ErrNotFound) {
			continue // forgotten: none
		}
		if err != nil {
			return nil, err
		}
		out[p.ID] = p
	}
	return out, nil
}

// applyEnd counts the end of game id in each of its players' profiles,
// once, and writes their leaderboard entries.
func (h *Service) applyEnd(ctx context.Context, host, id string, st *game.Stored, m *engine.Match) error {
	opts := m.Options()
	pool := game.PoolOf(opts)
	rated := st.Rated && st.HasResult && pool != ""
	at := time.Unix(st.SettleAt, 0).UTC()
	var ranks []int
	if rated {
		ranks = ranksOf(m)
	}
	done := map[string]bool{}
	for s, a := range st.Seats {
		if a.Player == "" || done[a.Player] {
			continue
		}
		done[a.Player] = true
		timeout := false
		for _, b := range st.Seats {
			timeout = timeout || (b.Player == a.Player && b.TimedOut)
		}
		team := opts.TeamOf(s)
		p, version, err := h.writeProfile(ctx, a.Player, "", func(p *Profile) (bool, error) {
			if slices.Contains(p.Settled, id) {
				return false, nil
			}
			// Decided here, on every attempt: a settling that ran late
			// counts nothing (game.SettleRun).
			if err := game.SettleInTime(ctx, h.g.Now()); err != nil {
				return false, err
			}
			p.Finished++
			if timeout {
				p.Timeouts++
				p.OnTime = 0
			} else {
				p.OnTime++
			}
			named := ""
			if st.Open || st.Tournament != "" { // a profile names only these (API.md)
				named = id
			}
			var mask uint16
			for _, b := range st.Seats {
				if b.Player == a.Player {
					mask |= b.Trophies
				}
			}
			p.give(mask, at, named)
			if rated {
				if p.Pools == nil {
					p.Pools = map[string]*PoolStats{}
				}
				ps := p.Pool(pool)
				before := ps.Rating()
				now := shift(before, a.Before, a.After)
				ps.Mu, ps.Sigma = now.Mu, now.Sigma
				ps.Games++
				if team == m.Winner() {
					ps.Wins++
					ps.Streak++
				} else {
					ps.Streak = 0
				}
				ps.History = game.AppendCapped(ps.History, rating.Shown(now), MaxHistory)
				p.Pools[pool] = &ps
				p.Recent = append([]RecentMatch{{Game: id, Pool: pool, Rank: ranks[team],
					Before: rating.Shown(before), After: rating.Shown(now), At: at}}, p.Recent...)
				if len(p.Recent) > MaxRecent {
					p.Recent = p.Recent[:MaxRecent]
				}
			}
			p.Settled = h.counted(ctx, p.Settled, id)
			return true, nil
		})
		if errors.Is(err, store.ErrNotFound) {
			continue // a forgotten player's profile counts nothing
		}
		if err != nil {
			return err
		}
		if err := h.putBoards(ctx, p, version); err != nil {
			return err
		}
	}
	if st.League != "" {
		if err := h.countLeagueMatch(ctx, id, st, m); err != nil {
			return err
		}
	}
	if st.Tournament != "" {
		return h.tournamentGameEnded(ctx, host, id, st, m)
	}
	return nil
}

// counted is list (the games a profile or a league counted, newest last)
// with id added. It keeps at least the last MaxSettled; an older id leaves
// only when its game may be forgotten (game's Forgettable: settled well
// before, or gone), so a settling that is retried always finds the games
// it counted. A failed read forgets nothing this time.
func (h *Service) counted(ctx context.Context, list []string, id string) []string {
	list = append(list, id)
	over := len(list) - MaxSettled
	if over <= 0 {
		return list
	}
	gone, err := h.g.Forgettable(ctx, list[:over])
	if err != nil {
		return list
	}
	return slices.DeleteFunc(list, func(g string) bool { return gone[g] })
}

// shift moves a player's current rating cur by what the match did to the
// rating it was computed from (before to after): exactly after when
// nothing else changed it since; otherwise the match's change in μ and in
// σ² on top of what another match settled meanwhile, so both count.
func shift(cur, before, after rating.Rating) rating.Rating {
	if cur == before {
		return after
	}
	v := cur.Sigma*cur.Sigma + after.Sigma*after.Sigma - before.Sigma*before.Sigma
	floor := rating.Tessera.Kappa * cur.Sigma * cur.Sigma
	return rating.Rating{Mu: cur.Mu + after.Mu - before.Mu, Sigma: math.Sqrt(max(v, floor))}
}

// seatProfile gives seat the profile of the key whose hash is hash as it
// sits down with name: its player id, and in the room what the lobby and
// the table show of it (its rating in a rated game, its reliability).
func (h *Service) seatProfile(ctx context.Context, st *game.Stored, m *engine.Match, seat int, hash []byte, name string) error {
	p, err := h.ProfileOfSeat(ctx, hash, name)
	if err != nil {
		return err
	}
	setSeatRating(st, m, seat, p)
	return nil
}

func setSeatRating(st *game.Stored, m *engine.Match, seat int, p *Profile) {
	a := &st.Seats[seat]
	a.Player = p.ID
	if st.Open {
		a.Reliability = p.Reliability()
	}
	if pool := game.PoolOf(m.Options()); st.Rated && pool != "" {
		ps := p.Pool(pool)
		a.Rating = rating.Shown(ps.Rating())
		a.Provisional = ps.Games < Provisional
	}
}

// rateSeats sets every known seat's rating as seatProfile does (a
// rematch, a tournament's table): one read of their profiles.
func (h *Service) rateSeats(ctx context.Context, st *game.Stored, m *engine.Match) error {
	if !st.Open && !st.Rated {
		return nil
	}
	profiles, err := h.seatProfiles(ctx, st)
	if err != nil {
		return err
	}
	for s, a := range st.Seats {
		if p := profiles[a.Player]; p != nil {
			setSeatRating(st, m, s, p)
		}
	}
	return nil
}

// eligible refuses a key that has not finished MinFinished matches a
// rated game.
func (h *Service) eligible(ctx context.Context, hash []byte) error {
	p, err := h.MyProfile(ctx, hash)
	if err != nil {
		return err
	}
	return eligibleProfile(p)
}

// eligibleProfile refuses profile p (nil: none) when it has not finished
// MinFinished matches.
func eligibleProfile(p *Profile) error {
	finished := 0
	if p != nil {
		finished = p.Finished
	}
	if more := MinFinished - finished; more > 0 {
		word := "matches"
		if more == 1 {
			word = "match"
		}
		return fmt.Errorf("%w: rated games are for players who finished %d matches; finish %d more %s first", game.ErrNotEligible, MinFinished, more, word)
	}
	return nil
}

// admitCreator checks a keyed create against the room's rules: a rated
// game needs an eligible key, and a key may have MaxWaiting open games
// waiting in the room. The count reads the key's games (one LoadMany of
// its record's at most 100): two creates at the same moment may both pass
// it (docs/abuse.md).
func (h *Service) admitCreator(ctx context.Context, hash []byte, req game.CreateRequest) error {
	if req.Rated {
		if err := h.eligible(ctx, hash); err != nil {
			return err
		}
	}
	if !req.Open {
		return nil
	}
	rec, _, err := h.g.LoadPlayer(ctx, hash)
	if err != nil {
		return err
	}
	games, err := h.g.Games(ctx, rec.Games)
	if err != nil {
		return err
	}
	since := h.g.Now().Add(-RoomStay).UnixNano()
	waiting := 0
	for _, g := range games {
		st := g.State
		if !st.Open || st.CreatedAt < since || len(st.Seats) == 0 || string(st.Seats[0].TokenHash) != string(hash) {
			continue
		}
		if m, err := engine.Decode(st.Match); err == nil && m.Status() == engine.StatusOpen {
			waiting++
		}
	}
	if waiting >= MaxWaiting {
		return fmt.Errorf("%w: you have %d open games waiting for players; wait until one fills", game.ErrLimitReached, waiting)
	}
	return nil
}
