package community

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"tessera/engine"
	"tessera/engine/rating"
	"tessera/functions/game"
	"tessera/functions/store"
)

// A profile is what the room knows of one player key (API.md "Profiles"):
// its public player id, name, the matches it finished, and its ratings per
// pool. It is one store item, named by the player id (ProfileItemID), so
// GET /api/players/{id} is one read; the key's record (player.go) holds
// the id, drawn once when the key first takes a seat or sets a name. The
// id is random, never derived from the key.
//
// The item is a format byte (profileFormat) and the JSON of Profile: a
// few kilobytes at most (20 recent matches, 50 ratings of history a pool,
// 64 settled game ids).
const (
	profileFormat = 1
	// MaxRecent is how many rated matches a profile lists (API.md: 20).
	MaxRecent = 20
	// MaxHistory is how many ratings a pool keeps for the profile's chart.
	MaxHistory = 50
	// MaxSettled is how many game ids a profile remembers having counted
	// (game's settle.go) at least; an older one is forgotten only when
	// its game is settled and game.SettleGrace has passed (counted), so a
	// settling's retry always finds the id, however many games the
	// player finished meanwhile.
	MaxSettled = 64
	// Provisional: fewer rated matches than this in a pool (API.md).
	Provisional = 10
	// profileTTL is how long a profile lives after its last write: a
	// player's ratings outlive their games (docs/expiry.md).
	profileTTL = 2 * 365 * 24 * time.Hour
	// forgottenTTL is how long a forgotten player's profile stays a
	// tombstone (forget.go): far longer than any request that read the
	// key's record before it was forgotten can still be running.
	forgottenTTL = 7 * 24 * time.Hour
)

// errForgotten is a profile whose player was forgotten: its item is a
// tombstone that holds only the id, reads as none (store.ErrNotFound)
// and is never made again (writeProfile).
var errForgotten = fmt.Errorf("the profile's player was forgotten: %w", store.ErrNotFound)

// ProfileItemID is the store item of player id pid.
func ProfileItemID(pid string) string { return "profile-" + pid }

// Profile is one player's profile as stored.
type Profile struct {
	ID       string                `json:"id"`
	Name     string                `json:"name"`
	NameSet  bool                  `json:"nameSet,omitempty"` // set with PUT /api/me/profile
	Since    time.Time             `json:"since"`
	Finished int                   `json:"finished"`
	Timeouts int                   `json:"timeouts"`
	Pools    map[string]*PoolStats `json:"pools,omitempty"`
	Recent   []RecentMatch         `json:"recent,omitempty"`  // newest first
	Settled  []string              `json:"settled,omitempty"` // newest last
	// Forgotten marks a tombstone (forget.go): nothing else is kept.
	Forgotten bool `json:"forgotten,omitempty"`
	// Leagues are the leagues it is a member of (GET /api/me), LeaguesMade
	// how many it created (at most MaxLeaguesCreated).
	Leagues     []LeagueRef `json:"leagues,omitempty"`
	LeaguesMade int         `json:"leaguesMade,omitempty"`
	// Tournaments are the last 50 it created (the limit counts those
	// not finished).
	Tournaments []string `json:"tournaments,omitempty"`
	// Entered are the last MaxEntered tournaments it entered (written
	// before the entry; read against the tournament's entrants).
	Entered []string `json:"entered,omitempty"`
	// Trophies are those it earned; OnTime counts its finished matches in
	// a row without a timeout (the on-time trophy).
	Trophies []EarnedTrophy `json:"trophies,omitempty"`
	OnTime   int            `json:"onTime,omitempty"`
	// Muted and Blocked are its own lists of player ids (safety.go);
	// never public. Ids only: a name is looked up when the list is shown,
	// so a player forgotten since leaves no name here.
	Muted   []string `json:"muted,omitempty"`
	Blocked []string `json:"blocked,omitempty"`
	// Reports are when it filed its reports of the last day (Unix
	// seconds): their limits (report.go). Suspended: an operator's
	// suspension from the open room (report.go); nil for none.
	Reports   []int64     `json:"reports,omitempty"`
	Suspended *Suspension `json:"suspended,omitempty"`
	// Filed are the ids of the reports it filed, ReportedIn those about
	// it (every one still kept, at most MaxReportRefs each: report.go):
	// what forgetting it deletes and scrubs (forget.go).
	Filed      []string `json:"filed,omitempty"`
	ReportedIn []string `json:"reportedIn,omitempty"`
}

// LeagueRef names a league in a profile.
type LeagueRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// PoolStats is a player's rating in one pool.
type PoolStats struct {
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Games   int     `json:"games"`
	Wins    int     `json:"wins"`
	History []int   `json:"history,omitempty"` // shown rating after each match, oldest first
	Streak  int     `json:"streak,omitempty"`  // rated wins in a row (five-in-a-row)
}

// Rating is the model's value.
func (p PoolStats) Rating() rating.Rating { return rating.Rating{Mu: p.Mu, Sigma: p.Sigma} }

// RecentMatch is one rated match of a profile.
type RecentMatch struct {
	Game   string    `json:"game"`
	Pool   string    `json:"pool"`
	Rank   int       `json:"rank"`
	Before int       `json:"before"`
	After  int       `json:"after"`
	At     time.Time `json:"at"`
}

// Reliability is round(100 (finished − timeouts) / finished), -1 while
// nothing is finished.
func (p *Profile) Reliability() int {
	if p.Finished == 0 {
		return -1
	}
	return int((200*(p.Finished-p.Timeouts) + p.Finished) / (2 * p.Finished))
}

// Pool is the profile's stats in pool, a new player's when it has none.
func (p *Profile) Pool(pool string) PoolStats {
	if s := p.Pools[pool]; s != nil {
		return *s
	}
	r := rating.Tessera.New()
	return PoolStats{Mu: r.Mu, Sigma: r.Sigma}
}

func encodeProfile(p *Profile) ([]byte, error) { return game.EncodeJSONItem(profileFormat, p) }

// DecodeProfile reads a stored profile: errForgotten (a store.ErrNotFound)
// for a forgotten player's tombstone, which every reader takes as none.
func DecodeProfile(b []byte) (*Profile, error) {
	p, err := game.DecodeJSONItem(b, profileFormat, "profile", func(p *Profile) string { return p.ID })
	if err == nil && p.Forgotten {
		return nil, errForgotten
	}
	return p, err
}

// Pools are every pool's name, in API.md's order, from the rule sets'
// registry (engine.Pools): a rule set rated in a new pool needs nothing
// here.
var Pools = func() []string {
	var out []string
	for _, p := range engine.Pools() {
		out = append(out, p.Name)
	}
	return out
}()

// LoadProfile reads the profile of player id pid: store.ErrNotFound when
// there is none.
func (h *Service) LoadProfile(ctx context.Context, pid string) (*Profile, int64, error) {
	if !game.ValidGameID(pid) {
		return nil, 0, fmt.Errorf("profile %q: %w", pid, store.ErrNotFound)
	}
	item, err := h.store.Load(ctx, ProfileItemID(pid))
	if err != nil {
		return nil, 0, err
	}
	p, err := DecodeProfile(item.State)
	if err != nil {
		return nil, 0, err
	}
	return p, item.Version, nil
}

// UpdateProfile applies change to the profile of pid and writes it on
// condition that nobody wrote in between, retrying a lost race on the
// profile as it then is. change reports whether it changed anything. It
// returns the profile as written (or as found when change did nothing)
// and its version. A profile that is not there, or was forgotten, is
// store.ErrNotFound: nothing but the key's own name or seat makes one
// (makeProfile), so no report, settling or league revives a forgotten
// player.
func (h *Service) UpdateProfile(ctx context.Context, pid string, change func(p *Profile) bool) (*Profile, int64, error) {
	return h.writeProfile(ctx, pid, "", func(p *Profile) (bool, error) { return change(p), nil })
}

// makeProfile is UpdateProfile for the key's own name or seat: a profile
// named name is made when there is none, but never where a forgotten
// player's tombstone stands (store.ErrNotFound).
func (h *Service) makeProfile(ctx context.Context, pid, name string, change func(p *Profile) bool) (*Profile, int64, error) {
	return h.writeProfile(ctx, pid, name, func(p *Profile) (bool, error) { return change(p), nil })
}

// writeProfile is the one conditional write of a profile: change on the
// profile as read on every attempt (an error ends the write, nothing
// written); a missing one is made, named makeNamed, only when makeNamed
// is not "".
func (h *Service) writeProfile(ctx context.Context, pid, makeNamed string, change func(p *Profile) (bool, error)) (*Profile, int64, error) {
	id := ProfileItemID(pid)
	var (
		out     *Profile
		version int64
	)
	err := game.Retry(ctx, game.ProfileWrites, func(int) error {
		p, v, err := h.LoadProfile(ctx, pid)
		fresh := errors.Is(err, store.ErrNotFound) && !errors.Is(err, errForgotten) && makeNamed != ""
		if fresh {
			p, v, err = &Profile{ID: pid, Name: makeNamed, Since: h.g.Now().UTC().Truncate(time.Second)}, 0, nil
		}
		if err != nil {
			return err
		}
		out, version = p, v
		changed, err := change(p)
		if err != nil {
			return err
		}
		if !changed && !fresh {
			return nil
		}
		b, err := encodeProfile(p)
		if err != nil {
			return err
		}
		now := h.g.Now()
		if fresh {
			// ErrExists when another made it, or a tombstone stands:
			// the next attempt reads which.
			err = h.store.Create(ctx, id, b, now, time.Time{}, now.Add(profileTTL))
		} else {
			err = h.store.Save(ctx, id, b, v, now, time.Time{}, now.Add(profileTTL))
		}
		if err == nil {
			version = v + 1
		}
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, version, nil
}

// playerIDOf returns the player id of the key whose hash is hash, drawing
// it (once: the record keeps it) when the key has none, and the key's
// vacation as its record holds it.
func (h *Service) playerIDOf(ctx context.Context, hash []byte) (string, game.Vacation, error) {
	p, _, err := h.g.LoadPlayer(ctx, hash)
	if err != nil {
		return "", game.Vacation{}, err
	}
	if p.Player != "" {
		return p.Player, p.Vac, nil
	}
	fresh, err := game.NewGameID(h.g.Rand())
	if err != nil {
		return "", game.Vacation{}, err
	}
	var pid string
	var vac game.Vacation
	err = h.g.UpdatePlayer(ctx, hash, func(p *game.Record) bool {
		vac = p.Vac
		if p.Player != "" { // a concurrent request drew it first
			pid = p.Player
			return false
		}
		p.Player, pid = fresh, fresh
		return true
	})
	return pid, vac, err
}

// ProfileOfSeat is the profile of the key whose hash is hash as it takes a
// seat named name: made when there is none; its name follows the seat's
// unless one was set (API.md: "else the name of the seat it took most
// recently").
func (h *Service) ProfileOfSeat(ctx context.Context, hash []byte, name string) (*Profile, error) {
	pid, _, err := h.playerIDOf(ctx, hash)
	if err != nil {
		return nil, err
	}
	renamed := false
	p, version, err := h.makeProfile(ctx, pid, name, func(p *Profile) bool {
		if p.NameSet || p.Name == name {
			return false
		}
		p.Name, renamed = name, true
		return true
	})
	if err == nil && renamed {
		err = h.putBoards(ctx, p, version) // the leaderboards show the new name
	}
	return p, err
}

// SetName is PUT /api/me/profile: the key's private profile, made when
// there is none, named name from now on.
func (h *Service) SetName(ctx context.Context, hash []byte, name string) (*Private, error) {
	pid, vac, err := h.playerIDOf(ctx, hash)
	if err != nil {
		return nil, err
	}
	renamed := false
	p, version, err := h.makeProfile(ctx, pid, name, func(p *Profile) bool {
		renamed = !p.NameSet || p.Name != name
		p.Name, p.NameSet = name, true
		return renamed
	})
	if err == nil && renamed {
		err = h.putBoards(ctx, p, version)
	}
	if err != nil {
		return nil, err
	}
	return h.PrivateOf(ctx, p, vac)
}

// MyProfile is the profile of the key whose hash is hash, nil when it has
// none.
func (h *Service) MyProfile(ctx context.Context, hash []byte) (*Profile, error) {
	_, p, err := h.recordProfile(ctx, hash)
	return p, err
}

// recordProfile is the record of the key whose hash is hash and the
// profile it names (nil for none).
func (h *Service) recordProfile(ctx context.Context, hash []byte) (*game.Record, *Profile, error) {
	rec, _, err := h.g.LoadPlayer(ctx, hash)
	if err != nil {
		return nil, nil, err
	}
	p, err := h.profileOrNil(ctx, rec.Player)
	return rec, p, err
}

// profileOrNil is the profile of player pid, nil for none ("" or no
// profile: also when a record was written and its profile not, a crash
// between; the next seat or name makes it).
func (h *Service) profileOrNil(ctx context.Context, pid string) (*Profile, error) {
	if pid == "" {
		return nil, nil
	}
	p, _, err := h.LoadProfile(ctx, pid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return p, err
}

// Shown is a rating as people see it (API.md: round(60 μ)).
func Shown(r rating.Rating) int { return rating.Shown(r) }

// ProfileOfKey is the profile of the key whose hash is hash, or
// game.ErrNotEligible (a league or a tournament needs a profile: a name set or
// a seat taken).
func (h *Service) ProfileOfKey(ctx context.Context, hash []byte) (*Profile, error) {
	_, p, err := h.keyProfile(ctx, hash)
	return p, err
}

// keyProfile is ProfileOfKey with the key's record it was found through.
func (h *Service) keyProfile(ctx context.Context, hash []byte) (*game.Record, *Profile, error) {
	rec, p, err := h.recordProfile(ctx, hash)
	if err != nil {
		return nil, nil, err
	}
	if p == nil {
		return nil, nil, fmt.Errorf("%w: set your name first (or take a seat in a game)", game.ErrNotEligible)
	}
	return rec, p, nil
}

// Private is the key's own profile with its vacation and its lists
// with the players' names.
type Private struct {
	*Profile
	Vacation      game.VacationStatus
	Mutes, Blocks []PlayerRef
}

// PrivateOf is profile p with its key's vacation v, as seen now.
func (h *Service) PrivateOf(ctx context.Context, p *Profile, v game.Vacation) (*Private, error) {
	return h.private(ctx, p, v.Status(h.g.Now(), p.Since))
}

// private is p with vacation status and its lists named.
func (h *Service) private(ctx context.Context, p *Profile, status game.VacationStatus) (*Private, error) {
	out := &Private{Profile: p, Vacation: status}
	var err error
	if out.Mutes, err = h.refs(ctx, p.Muted); err != nil {
		return nil, err
	}
	if out.Blocks, err = h.refs(ctx, p.Blocked); err != nil {
		return nil, err
	}
	// A forgotten player is no one to mute or unblock any more: the
	// lists a person reads leave them out (issue 43: "Sblocca —").
	isGone := func(r PlayerRef) bool { return r.gone }
	out.Mutes, out.Blocks = slices.DeleteFunc(out.Mutes, isGone), slices.DeleteFunc(out.Blocks, isGone)
	return out, nil
}

// PrivateOfRecord is the private profile of a key whose record names
// player pid ("" none) with vacation v: nil before it has one (or while
// a crash between the record and the profile left none).
func (h *Service) PrivateOfRecord(ctx context.Context, pid string, v game.Vacation) (*Private, error) {
	p, err := h.profileOrNil(ctx, pid)
	if err != nil || p == nil {
		return nil, err
	}
	return h.PrivateOf(ctx, p, v)
}

// TakeVacation is POST /api/me/vacation (game.Service.TakeVacation) with
// the key's private profile as its answer.
func (h *Service) TakeVacation(ctx context.Context, hash []byte, days int) (*Private, error) {
	status, err := h.g.TakeVacation(ctx, hash, days)
	if err != nil {
		return nil, err
	}
	return h.privateWith(ctx, hash, status)
}

// EndVacation is DELETE /api/me/vacation (game.Service.EndVacation) with
// the key's private profile as its answer.
func (h *Service) EndVacation(ctx context.Context, hash []byte) (*Private, error) {
	status, err := h.g.EndVacation(ctx, hash)
	if err != nil {
		return nil, err
	}
	return h.privateWith(ctx, hash, status)
}

// privateWith is the key's private profile with its vacation status.
func (h *Service) privateWith(ctx context.Context, hash []byte, status game.VacationStatus) (*Private, error) {
	p, err := h.ProfileOfKey(ctx, hash)
	if err != nil {
		return nil, err
	}
	return h.private(ctx, p, status)
}
