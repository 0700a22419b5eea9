package community

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"tessera/engine"
	"tessera/engine/pairing"
	"tessera/engine/rating"
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
	switch r.Format {
	case Swiss:
		if r.Rounds == 0 {
			r.Rounds = DefaultSwissRounds
		}
	case RoundRobin:
		if r.Rounds > 1 {
			return bad("a round robin has one round")
		}
		if r.Options.Players != 2 {
			return bad("a round robin seats two players a table")
		}
		r.Rounds = 1
	default:
		return bad("format must be roundrobin or swiss")
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
	id, err := game.NewGameID(h.g.Rand())
	if err != nil {
		return nil, "", err
	}
	invite, inviteHash, err := h.newInvite()
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
	if _, _, err := h.UpdateProfile(ctx, p.ID, p.Name, func(p *Profile) bool {
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
		if _, _, err := h.UpdateProfile(ctx, p.ID, p.Name, func(p *Profile) bool {
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
		return h.beginRound(t)
	})
	if err != nil {
		return nil, err
	}
	return h.makeRound(ctx, host, id)
}

// roundGameID is the id of the game at table k of round r of tournament
// id: the same for whoever makes it.
func roundGameID(id string, r, k int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "tessera tournament %s round %d table %d", id, r, k))
	return game.IDEncoding.EncodeToString(sum[:game.IDBytes])
}

// beginRound seats the next round of t (in memory: the caller writes t).
// After the last round, t is finished instead.
func (h *Service) beginRound(t *Tournament) error {
	if t.Round >= t.Rounds {
		t.Status = TourFinished
		if order := pairing.Order(t.entrantIDs(), t.history()); len(order) > 0 {
			t.Winner = order[0].Player
		}
		return nil
	}
	t.Round++
	var tables []pairing.Table
	if t.Format == RoundRobin {
		tables = pairing.RoundRobin(t.entrantIDs())
	} else {
		size := t.Players
		tables = pairing.Swiss(t.entrantIDs(), t.history(), size)
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
	seed, err := game.NewSeed(h.g.Rand())
	if err != nil {
		return err
	}
	m, err := engine.NewMatch(t.Options(), seed)
	if err != nil {
		return err
	}
	st := &game.Stored{Seats: make([]game.SeatAuth, len(tb.Players)), MoveTime: t.MoveTime,
		Room: game.Room{Rated: t.Rated, CreatedAt: h.g.Now().UnixNano(), Tournament: t.ID}}
	profiles := map[string]*Profile{}
	if t.Rated {
		var ids []string
		for _, pid := range tb.Players {
			ids = append(ids, ProfileItemID(pid))
		}
		items, err := h.store.LoadMany(ctx, ids)
		if err != nil {
			return err
		}
		for _, it := range items {
			if p, err := DecodeProfile(it.State); err == nil {
				profiles[p.ID] = p
			}
		}
	}
	for s, pid := range tb.Players {
		e := t.Entrants[t.entrant(pid)]
		if err := m.TakeSeat(s, engine.Seat{Name: e.Name}); err != nil {
			return err
		}
		st.Seats[s] = game.SeatAuth{TokenHash: e.Key, SeatRoom: game.SeatRoom{Player: pid, Rating: -1, Reliability: -1, RatingAfter: -1}}
		if pool := game.PoolOf(m.Options()); t.Rated && pool != "" {
			ps := rating.Tessera.New()
			if p := profiles[pid]; p != nil {
				ps = p.Pool(pool).Rating()
			}
			st.Seats[s].Rating = rating.Shown(ps)
		}
	}
	if err := h.g.SeatVacations(ctx, st); err != nil { // shown; the clocks run
		return err
	}
	for _, a := range st.Seats {
		if err := h.g.AddToRecord(ctx, a.TokenHash, tb.Game); err != nil {
			return err
		}
	}
	return h.g.MakeGame(ctx, game.Op{Host: host}, tb.Game, st, m, msgs)
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
			return h.beginRound(t)
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
	items, err := h.store.LoadMany(ctx, open)
	if err != nil {
		return err
	}
	matches := map[string]*engine.Match{}
	for gid, it := range items {
		g, err := game.OpenLoaded(gid, it)
		if err != nil {
			return err
		}
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
		return h.beginRound(t)
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
	if pid == "" {
		return out, nil
	}
	p, _, err := h.LoadProfile(ctx, pid)
	if errors.Is(err, store.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return nil, err
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
