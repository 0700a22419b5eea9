package community

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"tessera/engine"
	"tessera/engine/pairing"
	"tessera/functions/game"
	"tessera/functions/store"
)

// Tournaments (API.md "Tournaments (tornei)"): round robin and Swiss. A
// tournament is one store item (TournamentItemID), JSON after a format
// byte. Its rounds advance in three places, each a conditional write of
// the item, so that of racing writers one wins and the others reload:
//
//   - a game's end, at its settling (settle.go): its table's points; the
//     last table of a round begins the next round (or ends the tournament);
//   - the sweep, through the item's due time in the store's due index: a
//     round past its deadline decides its tables still playing by their
//     scores then, and the next begins; a round whose games were not all
//     made yet (a crash) has them made;
//   - the start, by its creator.
//
// A round's games have ids derived from the tournament, round and table
// (roundGameID), so a game is created once whoever creates it first; the
// item notes when all of a round's games exist.
const (
	tournamentFormat = 1
	// MaxRunning is how many unfinished tournaments a key may run.
	MaxRunning = 3
	// tournamentTTL: a tournament lives this long after its last write.
	tournamentTTL = 2 * 365 * 24 * time.Hour
	// Tournament statuses.
	TourEntries  = "entries"
	TourPlaying  = "playing"
	TourFinished = "finished"
	// Formats.
	RoundRobin = "roundrobin"
	Swiss      = "swiss"
	// tourList is the lobby's list of listed tournaments taking entries.
	tourList = "tournaments"
)

// TournamentItemID is the store item of tournament id.
func TournamentItemID(id string) string { return "tournament-" + id }

// TournamentRequest is POST /api/tournaments: Rounds and Size 0 when
// not given (Check fills in the defaults).
type TournamentRequest struct {
	Name, Format  string
	Rounds        int
	Options       engine.Options
	MoveTime      int64
	RoundTime     int64
	Size          int
	Listed, Rated bool
}

// Bounds of a tournament (API.md).
const (
	MinRoundTime = 3600
	MaxRoundTime = 30 * 24 * 3600
	MinSize      = 2
	MaxSize      = 64
	MaxRounds    = 10
	// DefaultSize and DefaultSwissRounds are a request's without them.
	DefaultSize        = 16
	DefaultSwissRounds = 3
)

// Check applies a tournament's rules to r and fills in its defaults:
// engine.ErrBadInput for a rule it breaks. CreateTournament checks again,
// so any transport keeps them.
func (r *TournamentRequest) Check() error {
	bad := func(msg string, args ...any) error {
		return fmt.Errorf("%w: "+msg, append([]any{engine.ErrBadInput}, args...)...)
	}
	switch {
	case r.Rounds < 0 || r.Rounds > MaxRounds:
		return bad("rounds must be 1 to %d", MaxRounds)
	case r.Size != 0 && (r.Size < MinSize || r.Size > MaxSize):
		return bad("size must be %d to %d", MinSize, MaxSize)
	case r.RoundTime < MinRoundTime || r.RoundTime > MaxRoundTime:
		return bad("roundTime must be %d to %d", MinRoundTime, MaxRoundTime)
	case r.MoveTime < game.MinMoveTime || r.MoveTime > game.MaxMoveTime:
		return bad("moveTime must be %d to %d", game.MinMoveTime, game.MaxMoveTime)
	}
	if r.Size == 0 {
		r.Size = DefaultSize
	}
	f := Formats[r.Format]
	if f == nil {
		return bad("format must be one of %s", strings.Join(FormatNames, ", "))
	}
	if why := f.check(r); why != "" {
		return bad("%s", why)
	}
	if r.Rated && game.PoolOf(r.Options) == "" {
		return bad("%s games are not rated", r.Options.Variant)
	}
	return nil
}

// Tournament is one tournament as stored.
type Tournament struct {
	ID        string      `json:"id"`
	Name      string      `json:"name"`
	Format    string      `json:"format"`
	Rounds    int         `json:"rounds"`
	Variant   string      `json:"variant"`
	Players   int         `json:"players"`
	Pairs     bool        `json:"pairs"`
	Target    int         `json:"target"`
	Redeal    bool        `json:"redeal"`
	MoveTime  int64       `json:"moveTime"`
	RoundTime int64       `json:"roundTime"`
	Size      int         `json:"size"`
	Listed    bool        `json:"listed"`
	Rated     bool        `json:"rated"`
	Creator   string      `json:"creator"`
	Invite    []byte      `json:"invite"`
	Status    string      `json:"status"`
	Round     int         `json:"round"`
	CreatedAt int64       `json:"createdAt"`
	Entrants  []Entrant   `json:"entrants"`
	Played    []TourRound `json:"played,omitempty"`
	Winner    string      `json:"winner,omitempty"`
}

// Entrant is one entrant: player id, profile name at entry, key hash.
type Entrant struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	Key    []byte `json:"key"`
}

// TourRound is a round begun: its tables (byes are tables of one, no
// game), its deadline, and whether all its games exist.
type TourRound struct {
	Number   int         `json:"number"`
	Deadline time.Time   `json:"deadline"`
	Tables   []TourTable `json:"tables"`
	Made     bool        `json:"made"`
}

// TourTable is one table: its game ("" for a bye), its players in seat
// order, and their points once decided (nil until then).
type TourTable struct {
	Game    string   `json:"game"`
	Players []string `json:"players"`
	Points  []int    `json:"points"`
}

// Options are the tournament's games' options.
func (t *Tournament) Options() engine.Options {
	var v engine.Variant
	_ = v.UnmarshalText([]byte(t.Variant))
	return engine.Options{Variant: v, Players: t.Players, Pairs: t.Pairs, Target: t.Target, Redeal: t.Redeal}
}

func (t *Tournament) entrant(pid string) int {
	return slices.IndexFunc(t.Entrants, func(e Entrant) bool { return e.Player == pid })
}

func (t *Tournament) entrantIDs() []string {
	out := make([]string, len(t.Entrants))
	for i, e := range t.Entrants {
		out[i] = e.Player
	}
	return out
}

// history is what pairing needs of the rounds played: decided tables and
// byes.
func (t *Tournament) history() pairing.History {
	var h pairing.History
	o := t.Options()
	for _, r := range t.Played {
		for _, tb := range r.Tables {
			switch {
			case tb.Game == "":
				h.Byes = append(h.Byes, tb.Players...)
			case tb.Points != nil:
				res := pairing.Result{Players: tb.Players, Points: tb.Points}
				if o.Pairs {
					res.Teams = make([]int, len(tb.Players))
					for s := range res.Teams {
						res.Teams[s] = o.TeamOf(s)
					}
				}
				h.Results = append(h.Results, res)
			}
		}
	}
	return h
}

// due is when the sweep should look at the tournament: at once while a
// round's games are not all made, else at the round's deadline.
func (t *Tournament) due(now time.Time) time.Time {
	if t.Status != TourPlaying || len(t.Played) == 0 {
		return time.Time{}
	}
	r := t.Played[len(t.Played)-1]
	if !r.Made {
		return now
	}
	return r.Deadline
}

// TournamentCard is a listed tournament in the lobby.
type TournamentCard struct {
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Format  string       `json:"format"`
	Variant string       `json:"variant"`
	Options LobbyOptions `json:"options"`
	Entries int          `json:"entries"`
	Size    int          `json:"size"`
	Rated   bool         `json:"rated"` // an addition to API.md's entry
}

// entry is the tournament's place in the lobby: while listed and taking
// entries.
func (t *Tournament) entry() (store.Entry, error) {
	if !t.Listed || t.Status != TourEntries {
		return store.Entry{}, nil
	}
	card, err := json.Marshal(TournamentCard{ID: t.ID, Name: t.Name, Format: t.Format, Variant: t.Variant,
		Options: OptionsOf(t.Options(), t.MoveTime), Entries: len(t.Entrants), Size: t.Size, Rated: t.Rated})
	if err != nil {
		return store.Entry{}, err
	}
	return store.Entry{List: tourList, Rank: time.Unix(0, t.CreatedAt).UTC().Format(roomRankTime) + t.ID, Card: card}, nil
}

func encodeTournament(t *Tournament) ([]byte, error) { return game.EncodeJSONItem(tournamentFormat, t) }

func decodeTournament(b []byte) (*Tournament, error) {
	return game.DecodeJSONItem(b, tournamentFormat, "tournament", func(t *Tournament) string { return t.ID })
}

// LoadTournament reads tournament id (store.ErrNotFound when none).
func (h *Service) LoadTournament(ctx context.Context, id string) (*Tournament, store.Item, error) {
	if !game.ValidGameID(id) {
		return nil, store.Item{}, fmt.Errorf("tournament %q: %w", id, store.ErrNotFound)
	}
	item, err := h.store.Load(ctx, TournamentItemID(id))
	if err != nil {
		return nil, store.Item{}, err
	}
	t, err := decodeTournament(item.State)
	return t, item, err
}

// saveTournament writes t in place of item (its entry and due time too).
func (h *Service) saveTournament(ctx context.Context, t *Tournament, item store.Item) error {
	b, err := encodeTournament(t)
	if err != nil {
		return err
	}
	e, err := t.entry()
	if err != nil {
		return err
	}
	now := h.g.Now()
	return h.store.SaveListed(ctx, TournamentItemID(t.ID), b, item.Version, now, t.due(now), now.Add(tournamentTTL), e)
}

// updateTournament applies change and writes on condition, retrying a
// lost race; game.ErrUnchanged from change writes nothing.
func (h *Service) updateTournament(ctx context.Context, id string, change func(t *Tournament) error) (*Tournament, error) {
	return updateItem(ctx, game.TournamentWrites, func() (*Tournament, func() error, error) {
		t, item, err := h.LoadTournament(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		return t, func() error { return h.saveTournament(ctx, t, item) }, nil
	}, change)
}

// CreateTournament is POST /api/tournaments: it returns the tournament and
// its invite.
func (h *Service) CreateTournament(ctx context.Context, hash []byte, req TournamentRequest) (*Tournament, string, error) {
	if err := req.Check(); err != nil {
		return nil, "", err
	}
	p, err := h.ProfileOfKey(ctx, hash)
	if err != nil {
		return nil, "", err
	}
	if req.Listed {
		if err := suspension(p); err != nil {
			return nil, "", err
		}
	}
	var running []string
	for _, id := range p.Tournaments {
		running = append(running, TournamentItemID(id))
	}
	items, err := h.store.LoadMany(ctx, running)
	if err != nil {
		return nil, "", err
	}
	n := 0
	for _, it := range items {
		if t, err := decodeTournament(it.State); err == nil && t.Status != TourFinished {
			n++
		}
	}
	if n >= MaxRunning {
		return nil, "", fmt.Errorf("%w: a key may run %d tournaments that have not finished", game.ErrLimitReached, MaxRunning)
	}
	id, invite, inviteHash, err := h.newInvited()
	if err != nil {
		return nil, "", err
	}
	o := req.Options
	t := &Tournament{ID: id, Name: req.Name, Format: req.Format, Rounds: req.Rounds, Variant: o.Rules().Name,
		Players: o.Players, Pairs: o.Pairs, Target: o.Target, Redeal: o.Redeal, MoveTime: req.MoveTime,
		RoundTime: req.RoundTime, Size: req.Size, Listed: req.Listed, Rated: req.Rated, Creator: p.ID,
		Invite: inviteHash, Status: TourEntries, CreatedAt: h.g.Now().UnixNano(), Entrants: []Entrant{}}
	// The creator's profile first (the tournaments it runs): a crash
	// after it leaves an id that names nothing, which the count skips.
	if _, _, err := h.UpdateProfile(ctx, p.ID, func(p *Profile) bool {
		p.Tournaments = game.AppendCapped(p.Tournaments, id, 50)
		return true
	}); err != nil {
		return nil, "", err
	}
	b, err := encodeTournament(t)
	if err != nil {
		return nil, "", err
	}
	e, err := t.entry()
	if err != nil {
		return nil, "", err
	}
	now := h.g.Now()
	if err := h.store.CreateListed(ctx, TournamentItemID(id), b, now, time.Time{}, now.Add(tournamentTTL), e); err != nil {
		return nil, "", err
	}
	return t, invite, nil
}

// CheckInvite is the 404 step of an entry: a tournament that is not listed
// needs its invite.
func (h *Service) CheckInvite(ctx context.Context, id, invite string) error {
	t, _, err := h.LoadTournament(ctx, id)
	if err != nil {
		return err
	}
	if !t.Listed && !bytes.Equal(game.HashToken(invite), t.Invite) {
		return fmt.Errorf("tournament %q: %w", id, store.ErrNotFound)
	}
	return nil
}

// Enter is POST /api/tournaments/{id}/entries (after CheckInvite):
// created reports a new entry (201) rather than one already made (200).
func (h *Service) Enter(ctx context.Context, hash []byte, id string) (*Tournament, bool, error) {
	p, err := h.ProfileOfKey(ctx, hash)
	if err != nil {
		return nil, false, err
	}
	// The profile first (the tournaments it entered, for /api/me): a
	// crash or a refusal after it leaves an id whose entrants do not
	// hold the player, which MyTournaments skips.
	if !slices.Contains(p.Entered, id) {
		if _, _, err := h.UpdateProfile(ctx, p.ID, func(p *Profile) bool {
			if slices.Contains(p.Entered, id) {
				return false
			}
			p.Entered = game.AppendCapped(p.Entered, id, MaxEntered)
			return true
		}); err != nil {
			return nil, false, err
		}
	}
	created := false
	t, err := h.updateTournament(ctx, id, func(t *Tournament) error {
		if t.entrant(p.ID) >= 0 {
			return game.ErrUnchanged
		}
		if t.Status != TourEntries {
			return fmt.Errorf("%w: the tournament has started", game.ErrLimitReached)
		}
		if len(t.Entrants) >= t.Size {
			return fmt.Errorf("%w: the tournament is full", game.ErrLimitReached)
		}
		if t.Rated && p.Finished < MinFinished {
			return fmt.Errorf("%w: rated tournaments are for players who finished %d matches", game.ErrNotEligible, MinFinished)
		}
		if t.Listed {
			if err := suspension(p); err != nil {
				return err
			}
		}
		t.Entrants = append(t.Entrants, Entrant{Player: p.ID, Name: p.Name, Key: hash})
		created = true
		return nil
	})
	return t, created, err
}

// Withdraw is DELETE /api/tournaments/{id}/entries: before the start.
func (h *Service) Withdraw(ctx context.Context, hash []byte, id string) error {
	p, err := h.MyProfile(ctx, hash)
	if err != nil {
		return err
	}
	if p == nil {
		return nil // never entered
	}
	_, err = h.updateTournament(ctx, id, func(t *Tournament) error {
		i := t.entrant(p.ID)
		if i < 0 {
			return game.ErrUnchanged
		}
		if t.Status != TourEntries {
			return fmt.Errorf("%w: the tournament has started", game.ErrLimitReached)
		}
		t.Entrants = slices.Delete(t.Entrants, i, i+1)
		return nil
	})
	return err
}

// Start is POST /api/tournaments/{id}/start by its creator (else 404).
func (h *Service) Start(ctx context.Context, host string, hash []byte, id string) (*Tournament, error) {
	t, _, err := h.LoadTournament(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := h.MyProfile(ctx, hash)
	if err != nil {
		return nil, err
	}
	if p == nil || p.ID != t.Creator {
		return nil, fmt.Errorf("tournament %q: %w", id, store.ErrNotFound)
	}
	t, err = h.updateTournament(ctx, id, func(t *Tournament) error {
		if t.Status != TourEntries {
			return game.ErrUnchanged // started already: the answer is the tournament
		}
		if len(t.Entrants) < 2 {
			return fmt.Errorf("%w: a tournament needs at least 2 entrants", game.ErrNotEligible)
		}
		t.Status = TourPlaying
		return h.beginRound(ctx, t)
	})
	if err != nil {
		return nil, err
	}
	return h.makeRound(ctx, host, id)
}
