package game

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"tessera/engine"
	"tessera/functions/store"
)

// Vacation (API.md "Vacation", docs/vacation.md): a key takes days from a
// budget; meanwhile its seats' clocks stop in games that are neither
// rated nor in a tournament, every view of its unfinished games shows
// when it ends, and its devices get no push but `end`.
//
// The key's record keeps the budget and the vacation (one write starts or
// ends it, with the budget), so a push, which reads the record for its
// devices, knows without another read. Each unfinished game of the key
// keeps, per seat, when the vacation ends (SeatAuth.Vacation): its clock
// and its view read that, and the game is due then (Stored.Due), so the
// sweep ends it there with no write to the record. Starting and ending
// early tell every game of the record (version + 1 each): the record is
// written first with Pending and is due at once, so a crash halfway is
// finished by the sweep (SweepVacation), as a match's settling is.
const (
	VacationStartDays = 7
	VacationEveryDays = 2
	VacationPeriod    = 30 * 24 * time.Hour
	VacationMaxDays   = 21
	day               = 24 * 60 * 60
	vacationSet       = 1
	vacationPending   = 2
)

// Vacation is a key's budget and vacation, kept in its record.
type Vacation struct {
	// Budget is the days left once Credited 30-day periods after the
	// profile was made were credited; BudgetSet is false before the
	// first write (a new budget: 7 days, none credited).
	Budget    int
	Credited  int
	BudgetSet bool
	// Start and Until bound the vacation taken (Unix seconds; Until 0
	// or past: none), of Days days.
	Start, Until int64
	Days         int
	// Pending: the record's games are still to be told of a change.
	Pending bool
}

func (v *Vacation) append(b []byte) []byte {
	var flags byte
	if v.BudgetSet {
		flags |= vacationSet
	}
	if v.Pending {
		flags |= vacationPending
	}
	b = append(b, flags, byte(v.Budget))
	b = binary.AppendUvarint(b, uint64(v.Credited))
	b = binary.AppendVarint(b, v.Start)
	b = binary.AppendVarint(b, v.Until)
	return append(b, byte(v.Days))
}

func (v *Vacation) read(r *storedReader) {
	flags := r.count("vacation flags", vacationSet|vacationPending)
	v.BudgetSet, v.Pending = flags&vacationSet != 0, flags&vacationPending != 0
	v.Budget = r.count("vacation budget", VacationMaxDays)
	v.Credited = int(r.uvarint("vacation credited", 1<<31))
	v.Start, v.Until = r.varint("vacation start"), r.varint("vacation end")
	v.Days = r.count("vacation days", VacationMaxDays)
}

// Active reports whether the vacation lasts at now.
func (v *Vacation) Active(now time.Time) bool { return v.Until > now.Unix() }

// credit brings the budget up to now for a profile made at since: 2 days
// every 30 days, at most 21.
func (v *Vacation) credit(now, since time.Time) {
	if !v.BudgetSet {
		v.Budget, v.Credited, v.BudgetSet = VacationStartDays, 0, true
	}
	if periods := int(now.Sub(since) / VacationPeriod); periods > v.Credited {
		v.Budget = min(VacationMaxDays, v.Budget+VacationEveryDays*(periods-v.Credited))
		v.Credited = periods
	}
}

// VacationStatus is the private profile's vacation: the budget's days at
// now and when the vacation ends (zero: none).
type VacationStatus struct {
	BudgetDays int
	Until      time.Time
}

// Status is v seen at now by a profile made at since.
func (v Vacation) Status(now, since time.Time) VacationStatus {
	v.credit(now, since)
	s := VacationStatus{BudgetDays: v.Budget}
	if v.Active(now) {
		s.Until = time.Unix(v.Until, 0).UTC()
	}
	return s
}

// TakeVacation is POST /api/me/vacation: days off the budget from now.
// A key without a profile (the community's Since), or on vacation
// already, is not eligible. It answers the key's vacation as it then is.
func (h *Service) TakeVacation(ctx context.Context, hash []byte, days int) (VacationStatus, error) {
	since, ok, err := h.community.Since(ctx, hash)
	if err != nil {
		return VacationStatus{}, err
	}
	if !ok {
		return VacationStatus{}, fmt.Errorf("%w: take a seat or set your name first", ErrNotEligible)
	}
	var refused error
	var rec *Record // as written
	err = h.UpdatePlayer(ctx, hash, func(r *Record) bool {
		rec = r
		now := h.now()
		r.Vac.credit(now, since)
		switch {
		case r.Vac.Active(now):
			refused = fmt.Errorf("%w: you are on vacation already; end it first", ErrNotEligible)
		case days < 1 || days > r.Vac.Budget:
			refused = fmt.Errorf("%w: days must be 1 to %d (your budget)", engine.ErrBadInput, r.Vac.Budget)
		default:
			refused = nil
			r.Vac.Budget -= days
			r.Vac.Start, r.Vac.Until, r.Vac.Days = now.Unix(), now.Unix()+int64(days)*day, days
			r.Vac.Pending = true
			return true
		}
		return false
	})
	if err == nil {
		err = refused
	}
	if err != nil {
		return VacationStatus{}, err
	}
	return h.vacationTold(ctx, hash, since, rec), nil
}

// EndVacation ends the key's vacation now (DELETE /api/me/vacation, or a
// move of the key), giving back the whole days not begun. Without one it
// changes nothing. A key without a profile is not eligible.
func (h *Service) EndVacation(ctx context.Context, hash []byte) (VacationStatus, error) {
	since, ok, err := h.community.Since(ctx, hash)
	if err != nil {
		return VacationStatus{}, err
	}
	if !ok {
		return VacationStatus{}, fmt.Errorf("%w: take a seat or set your name first", ErrNotEligible)
	}
	var rec *Record // as written, or as found
	err = h.UpdatePlayer(ctx, hash, func(r *Record) bool {
		rec = r
		now := h.now()
		if !r.Vac.Active(now) {
			return false
		}
		r.Vac.credit(now, since)
		begun := int((now.Unix()-r.Vac.Start)/day) + 1
		r.Vac.Budget = min(VacationMaxDays, r.Vac.Budget+max(0, r.Vac.Days-begun))
		r.Vac.Start, r.Vac.Until, r.Vac.Days = 0, 0, 0
		r.Vac.Pending = true
		return true
	})
	if err != nil {
		return VacationStatus{}, err
	}
	return h.vacationTold(ctx, hash, since, rec), nil
}

// vacationTold tells the games of rec, the key's record as just written,
// and answers its vacation as seen by a profile made at since. A game
// that could not be told is left to the sweep (the record is due).
func (h *Service) vacationTold(ctx context.Context, hash []byte, since time.Time, rec *Record) VacationStatus {
	vac, err := h.tellGames(ctx, hash, rec)
	if err != nil {
		h.log.Warn("vacation: games left to the sweep", "cause", LogCause(err))
		vac = rec.Vac
	}
	return vac.Status(h.now(), since)
}

// tellGames brings every unfinished game of the key's record (rec, or as
// stored when nil) to its vacation (when it ends, or none), then clears
// the record's Pending if nothing changed it meanwhile. It returns the
// record's vacation as it then is.
func (h *Service) tellGames(ctx context.Context, hash []byte, rec *Record) (Vacation, error) {
	if rec == nil {
		var err error
		if rec, _, err = h.LoadPlayer(ctx, hash); err != nil {
			return Vacation{}, err
		}
	}
	if !rec.Vac.Pending {
		return rec.Vac, nil
	}
	told := rec.Vac
	var until int64
	if told.Active(h.now()) {
		until = told.Until
	}
	var first error
	for _, id := range rec.Games {
		err := h.changeVacations(ctx, id, func(a *SeatAuth) int64 {
			if string(a.TokenHash) == string(hash) {
				return until
			}
			return a.Vacation
		})
		if err != nil && first == nil {
			first = fmt.Errorf("game %s: %w", id, err)
		}
	}
	if first != nil {
		return told, first
	}
	final := told
	err := h.UpdatePlayer(ctx, hash, func(r *Record) bool {
		final = r.Vac
		if r.Vac != told {
			return false // changed again: that change tells the games
		}
		r.Vac.Pending = false
		final = r.Vac
		return true
	})
	return final, err
}

// sweepPlayer is the sweep's visit of the record named id: it finishes
// telling its games of a vacation (a request that started or ended one
// stopped halfway), then mails the key's digest if its check is due.
func (h *Service) sweepPlayer(ctx context.Context, id string) error {
	hash, err := hex.DecodeString(strings.TrimPrefix(id, "player-"))
	if err != nil {
		return fmt.Errorf("%w: due record %q", engine.ErrCorrupt, id)
	}
	// One read of the record serves both: telling the games changes only
	// its Pending, which the digest does not read.
	rec, _, err := h.LoadPlayer(ctx, hash)
	if err != nil {
		return err
	}
	if _, err = h.tellGames(ctx, hash, rec); err != nil {
		return err
	}
	return h.sweepDigest(ctx, hash, rec)
}

// changeVacations sets each seat's vacation of game id to what to says,
// as one change of the game (version + 1), restarting the clocks of the
// seats whose vacation ended; a finished game, or one where nothing
// changes, is not written.
func (h *Service) changeVacations(ctx context.Context, id string, to func(a *SeatAuth) int64) error {
	_, err := h.update(ctx, Op{}, gameWrites, id, nil, func(c *Change) error {
		if !setVacations(c, to) {
			return ErrUnchanged
		}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// setVacations sets each seat's vacation of an unfinished game to what
// to says, reporting whether one changed.
func setVacations(c *Change, to func(a *SeatAuth) int64) bool {
	if c.Match.Status() == engine.StatusFinished {
		return false
	}
	changed := false
	for i := range c.Game.State.Seats {
		a := &c.Game.State.Seats[i]
		if v := to(a); v != a.Vacation {
			a.Vacation, changed = v, true
		}
	}
	return changed
}

// vacationsOver ends, in c's game, the vacations whose time is over at
// now (the sweep wakes the game then), reporting whether one ended.
func vacationsOver(c *Change, now time.Time) bool {
	return setVacations(c, func(a *SeatAuth) int64 {
		if a.Vacation <= now.Unix() {
			return 0
		}
		return a.Vacation
	})
}

// SeatVacations marks the seats of st whose keys are on vacation (a game
// made or joined, a rematch, a tournament's round), from their records.
func (h *Service) SeatVacations(ctx context.Context, st *Stored) error {
	var ids []string
	for _, a := range st.Seats {
		if a.TokenHash != nil {
			ids = append(ids, PlayerID(a.TokenHash))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	items, err := h.store.LoadMany(ctx, ids)
	if err != nil {
		return err
	}
	now := h.now()
	for i := range st.Seats {
		a := &st.Seats[i]
		a.Vacation = 0
		if item, ok := items[PlayerID(a.TokenHash)]; ok && a.TokenHash != nil {
			if rec, err := DecodePlayer(item.State); err == nil && rec.Vac.Active(now) {
				a.Vacation = rec.Vac.Until
			}
		}
	}
	return nil
}
