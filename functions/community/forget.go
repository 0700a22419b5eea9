package community

import (
	"context"
	"errors"
	"slices"
	"time"

	"tessera/functions/game"
	"tessera/functions/store"
)

// Forget me and take my data (issue 36, docs/forgetting.md).

// Forget is DELETE /api/me: everything kept about the key whose hash is
// hash goes, and its seats in games stay under ForgottenName. In order,
// each step one that a retry may repeat (the record, which lists the
// games, goes last, so a crash part way leaves what the next DELETE
// needs to finish): the games' seats and talk; the leagues' memberships;
// the tournaments' entries; the reports it filed (deleted) and those
// about it (its name and words taken out); its leaderboard entries; its
// profile; its record with its devices.
func (h *Service) Forget(ctx context.Context, op game.Op, hash []byte) error {
	rec, p, err := h.recordProfile(ctx, hash)
	if err != nil {
		return err
	}
	if err := h.g.ForgetSeats(ctx, op, hash, gamesOf(rec, p)); err != nil {
		return err
	}
	if p != nil {
		if err := h.forgetProfile(ctx, p); err != nil {
			return err
		}
	} else if rec.Player != "" {
		// No profile (yet, or any more): the tombstone all the same, so
		// that a seat taken with the record read before it goes makes
		// none.
		if _, err := h.buryProfile(ctx, rec.Player); err != nil {
			return err
		}
	}
	return h.g.ForgetRecord(ctx, hash)
}

// gamesOf is every game the record and the profile name.
func gamesOf(rec *game.Record, p *Profile) []string {
	ids := slices.Clone(rec.Games)
	add := func(id string) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if p != nil {
		for _, r := range p.Recent {
			add(r.Game)
		}
		for _, id := range p.Settled {
			add(id)
		}
		for _, t := range p.Trophies {
			add(t.Game)
		}
	}
	return ids
}

// forgetProfile is Forget's part of what the profile leads to, and the
// profile itself.
func (h *Service) forgetProfile(ctx context.Context, p *Profile) error {
	for _, l := range p.Leagues {
		_, err := h.updateLeague(ctx, l.ID, func(l *League) error {
			changed := false
			for i := range l.Members {
				m := &l.Members[i]
				if m.Player == p.ID && (!m.Removed || m.Key != nil) {
					m.Removed, m.Key, changed = true, nil, true
				}
			}
			if l.Admin == p.ID {
				l.Admin = ""
				for _, m := range l.Members { // the longest member left
					if !m.Removed {
						l.Admin = m.Player
						break
					}
				}
				changed = true
			}
			if !changed {
				return game.ErrUnchanged
			}
			return nil
		})
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	tours := slices.Clone(p.Entered)
	for _, id := range p.Tournaments {
		if !slices.Contains(tours, id) {
			tours = append(tours, id)
		}
	}
	for _, id := range tours {
		_, err := h.updateTournament(ctx, id, func(t *Tournament) error {
			changed := false
			for i := range t.Entrants {
				e := &t.Entrants[i]
				if e.Player == p.ID && (e.Name != ForgottenName || e.Key != nil) {
					e.Name, e.Key, changed = ForgottenName, nil, true
				}
			}
			if !changed {
				return game.ErrUnchanged
			}
			return nil
		})
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if err := h.forgetReports(ctx, p); err != nil {
		return err
	}
	if p.Suspended != nil { // its id leaves the operator's list too
		if err := h.markSuspended(ctx, p.ID, false); err != nil {
			return err
		}
	}
	for _, pool := range Pools {
		if err := h.store.Delete(ctx, boardItemID(pool, p.ID)); err != nil {
			return err
		}
	}
	// The tombstone, then the reports again, as the profile's last
	// version named them: a report filed by or about the player while it
	// was forgotten was either listed there (its report, made after the
	// first pass, goes now) or refused (no profile to list it in); one
	// made after this pass finds the tombstone (File) and scrubs itself.
	last, err := h.buryProfile(ctx, p.ID)
	if err != nil || last == nil {
		return err
	}
	return h.forgetReports(ctx, last)
}

// forgetReports deletes the reports p filed and takes p's name and words
// out of those about it.
func (h *Service) forgetReports(ctx context.Context, p *Profile) error {
	for _, id := range p.Filed {
		if err := h.store.Delete(ctx, ReportItemID(id)); err != nil {
			return err
		}
	}
	for _, id := range p.ReportedIn {
		if err := h.scrubReport(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// buryProfile puts a tombstone in place of the profile of pid (holding
// only the id, for forgottenTTL): every reader takes it as none, and no
// request that raced the forgetting (a seat taken with the key's record
// read before it went, a report) can make or change the profile again
// (writeProfile). It returns the profile as it was last, before the
// tombstone (nil: none, or one already).
func (h *Service) buryProfile(ctx context.Context, pid string) (*Profile, error) {
	b, err := encodeProfile(&Profile{ID: pid, Forgotten: true})
	if err != nil {
		return nil, err
	}
	id := ProfileItemID(pid)
	var last *Profile
	err = game.Retry(ctx, game.ProfileWrites, func(int) error {
		now := h.g.Now()
		item, err := h.store.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			last = nil
			return h.store.Create(ctx, id, b, now, time.Time{}, now.Add(forgottenTTL))
		}
		if err != nil {
			return err
		}
		if last, err = DecodeProfile(item.State); errors.Is(err, store.ErrNotFound) {
			last = nil // a tombstone already: its lifetime starts again
		} else if err != nil {
			return err
		}
		return h.store.Save(ctx, id, b, item.Version, now, time.Time{}, now.Add(forgottenTTL))
	})
	return last, err
}

// scrubReport takes a forgotten player's name and words out of a report
// about it (the reporter's note too: it may name them); the report stays
// for the moderators, as it was listed.
func (h *Service) scrubReport(ctx context.Context, id string) error {
	return game.Retry(ctx, game.ReportWrites, func(int) error {
		item, err := h.store.Load(ctx, ReportItemID(id))
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		r, err := decodeReport(item.State)
		if err != nil {
			return err
		}
		if r.Name == ForgottenName && r.Note == "" && (r.Message == nil || r.Message.Text == "" && r.Message.Reaction == "") {
			return nil
		}
		r.Name, r.Note = ForgottenName, ""
		if r.Message != nil {
			r.Message.Text, r.Message.Reaction = "", ""
		}
		b, err := game.EncodeJSONItem(reportFormat, r)
		if err != nil {
			return err
		}
		now := h.g.Now()
		return h.store.SaveListed(ctx, ReportItemID(id), b, item.Version, now, time.Time{}, item.Expires, item.Entry)
	})
}

// Export is GET /api/me/export: everything kept about the key whose
// hash is hash, as JSON (docs/forgetting.md): its record (games, devices,
// vacation), its profile as stored (lists, ratings, trophies, reports'
// times and ids), its seats in its games and what it said at their
// tables, the leagues and tournaments that hold it, the reports it filed.
func (h *Service) Export(ctx context.Context, hash []byte) (*Exported, error) {
	rec, p, err := h.recordProfile(ctx, hash)
	if err != nil {
		return nil, err
	}
	out := &Exported{At: h.g.Now().UTC().Truncate(time.Second), Games: []ExportedSeat{}, Said: []ExportedMessage{},
		Leagues: []ExportedMembership{}, Tournaments: []ExportedEntry{}, Reports: []*Report{}, Explained: exportExplained}
	out.Record.Games = append([]string{}, rec.Games...)
	out.Record.Devices = []ExportedDevice{}
	for _, d := range rec.Devices {
		out.Record.Devices = append(out.Record.Devices, ExportedDevice{Endpoint: d.Endpoint, P256dh: d.P256dh, Auth: d.Auth, Lang: d.Lang.String()})
	}
	out.Record.Player = rec.Player
	if m := rec.Mail; m.Addr != "" {
		out.Record.Email = &ExportedEmail{Address: m.Addr, Language: m.Lang.String(), Confirmed: m.Confirmed, Digest: m.On()}
		if m.LastDigest != 0 {
			at := time.Unix(m.LastDigest, 0).UTC()
			out.Record.Email.LastMail = &at
		}
	}
	v := rec.Vac
	out.Record.Vacation = ExportedVacation{DaysLeft: v.Budget, PeriodsCredited: v.Credited, Days: v.Days, GamesToTell: v.Pending}
	if !v.BudgetSet {
		out.Record.Vacation.DaysLeft = game.VacationStartDays // nothing taken yet: a new budget
	}
	if v.Until != 0 {
		start, until := time.Unix(v.Start, 0).UTC(), time.Unix(v.Until, 0).UTC()
		out.Record.Vacation.Start, out.Record.Vacation.Until = &start, &until
	}
	if p != nil {
		out.Profile = &ExportedProfile{Profile: p}
		for _, at := range p.Reports {
			out.Profile.Reports = append(out.Profile.Reports, time.Unix(at, 0).UTC())
		}
	}
	seats, said, err := h.g.SeatsOf(ctx, hash, gamesOf(rec, p))
	if err != nil {
		return nil, err
	}
	for _, s := range seats {
		out.Games = append(out.Games, ExportedSeat{Game: s.Game, Seat: s.Seat, Name: s.Name})
	}
	for _, m := range said {
		out.Said = append(out.Said, ExportedMessage{Game: m.Game, ChatMessage: m.Message})
	}
	if p == nil {
		return out, nil
	}
	for _, ref := range p.Leagues {
		l, _, err := h.LoadLeague(ctx, ref.ID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		mine := ExportedMembership{ID: l.ID, Name: l.Name, Admin: l.Admin == p.ID, Seasons: map[string]*LeagueLine{}}
		for i := range l.Members {
			if m := l.Members[i]; m.Player == p.ID {
				since := m.Since.UTC()
				mine.Since, mine.Removed = &since, m.Removed
			}
		}
		for season, lines := range l.Seasons {
			if line, ok := lines[p.ID]; ok {
				mine.Seasons[season] = line
			}
		}
		out.Leagues = append(out.Leagues, mine)
	}
	for _, id := range append(slices.Clone(p.Entered), p.Tournaments...) {
		t, _, err := h.LoadTournament(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		e := ExportedEntry{ID: t.ID, Name: t.Name, Created: t.Creator == p.ID}
		if i := t.entrant(p.ID); i >= 0 {
			e.EnteredAs = t.Entrants[i].Name
		}
		out.Tournaments = append(out.Tournaments, e)
	}
	for _, id := range p.Filed {
		item, err := h.store.Load(ctx, ReportItemID(id))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		r, err := decodeReport(item.State)
		if err != nil {
			return nil, err
		}
		// The reporter's own: whom, when, what and its note; not the
		// other player's name or words (no other player's words).
		r.Name, r.Message = "", nil
		out.Reports = append(out.Reports, r)
	}
	return out, nil
}

// Exported is what Export answers.
type Exported struct {
	At     time.Time `json:"exportedAt"`
	Record struct {
		Player   string           `json:"player"`
		Games    []string         `json:"games"`
		Devices  []ExportedDevice `json:"devices"`
		Vacation ExportedVacation `json:"vacation"`
		// Email is the key's address in full (its owner's export only),
		// null none.
		Email *ExportedEmail `json:"email"`
	} `json:"record"`
	Profile     *ExportedProfile     `json:"profile"`
	Games       []ExportedSeat       `json:"seats"`
	Said        []ExportedMessage    `json:"said"`
	Leagues     []ExportedMembership `json:"leagues"`
	Tournaments []ExportedEntry      `json:"tournaments"`
	Reports     []*Report            `json:"reports"`
	// Explained says in words, in English and Italian, what the numbers
	// mean (the ratings above all).
	Explained map[string]map[string]string `json:"explained"`
}

// ExportedEmail is the record's address, as its owner reads it.
type ExportedEmail struct {
	Address   string     `json:"address"`
	Language  string     `json:"language"`
	Confirmed bool       `json:"confirmed"`
	Digest    bool       `json:"digest"`
	LastMail  *time.Time `json:"lastDigest"`
}

// ExportedVacation is the record's vacation, as a person reads it.
type ExportedVacation struct {
	DaysLeft        int        `json:"daysLeft"`        // the days of vacation left
	PeriodsCredited int        `json:"periodsCredited"` // the 30-day periods since the profile was made that have added their days
	Start           *time.Time `json:"start,omitempty"` // the vacation taken: from
	Until           *time.Time `json:"until,omitempty"` // to
	Days            int        `json:"days,omitempty"`  // its days
	GamesToTell     bool       `json:"gamesToTell,omitempty"`
}

// ExportedProfile is the profile as stored, but for the times of the
// reports of the last day, as dates, and without the ids of the reports
// about it (with them a reported player could work out who reported
// them, docs/moderation.md).
type ExportedProfile struct {
	*Profile
	Reports    []time.Time `json:"reports,omitempty"`
	ReportedIn []string    `json:"reportedIn,omitzero"` // never set: hides the profile's
}

// ExportedMembership is a league the key is in, as the key sees it.
type ExportedMembership struct {
	ID      string                 `json:"id"`
	Name    string                 `json:"name"`
	Admin   bool                   `json:"admin"`
	Since   *time.Time             `json:"since,omitempty"`
	Removed bool                   `json:"removed,omitempty"`
	Seasons map[string]*LeagueLine `json:"seasons"` // "2026-12": the key's line of that month's table
}

// exportExplained is Exported.Explained.
var exportExplained = map[string]map[string]string{
	"en": {
		"ratings":  "profile.pools: a rating per pool of rated games (a rule set and its player count). mu is the estimate of your skill and sigma how unsure it still is. The rating shown is 60 times mu, rounded (a new player's mu is 25: 1500); the leaderboards order players by mu minus 3 sigma, so a player with few matches stands lower until sigma shrinks. A rating is provisional for its first 10 matches. games and wins count your rated matches; history is the rating shown after each of them, oldest first; streak is your rated wins in a row.",
		"vacation": "record.vacation: daysLeft are the days of vacation you may still take; every 30 days since your profile was made adds days (periodsCredited counts them). start, until and days are the vacation taken.",
		"email":    "record.email: the address you gave for the digest of games waiting for you, whether you confirmed it, whether the digest is on, and when the last one was sent. Forgetting you removes it.",
		"dates":    "Every date is UTC, in ISO 8601.",
	},
	"it": {
		"ratings":  "profile.pools: un punteggio per ogni gruppo di partite classificate (un gioco e il suo numero di giocatori). mu è la stima della tua bravura e sigma quanto è ancora incerta. Il punteggio mostrato è 60 volte mu, arrotondato (un nuovo giocatore ha mu 25: 1500); le classifiche ordinano i giocatori per mu meno 3 sigma, quindi chi ha giocato poco sta più in basso finché sigma non cala. Un punteggio è provvisorio per le sue prime 10 partite. games e wins contano le tue partite classificate; history è il punteggio mostrato dopo ognuna, dalla più vecchia; streak sono le tue vittorie classificate di fila.",
		"vacation": "record.vacation: daysLeft sono i giorni di vacanza che puoi ancora prendere; ogni 30 giorni dalla creazione del tuo profilo se ne aggiungono (periodsCredited li conta). start, until e days sono la vacanza presa.",
		"email":    "record.email: l'indirizzo che hai dato per il riepilogo delle partite che ti aspettano, se lo hai confermato, se il riepilogo è attivo e quando è partito l'ultimo. Se chiedi di essere dimenticato, viene tolto.",
		"dates":    "Ogni data è in UTC, nel formato ISO 8601.",
	},
}

// ExportedDevice is a push device as the record keeps it.
type ExportedDevice struct {
	Endpoint string `json:"endpoint"`
	P256dh   []byte `json:"p256dh"`
	Auth     []byte `json:"auth"`
	Lang     string `json:"lang"`
}

// ExportedSeat is a seat the key holds.
type ExportedSeat struct {
	Game string `json:"game"`
	Seat int    `json:"seat"`
	Name string `json:"name"`
}

// ExportedMessage is something the key said at a table.
type ExportedMessage struct {
	Game string `json:"game"`
	game.ChatMessage
}

// ExportedEntry is a tournament the key entered or made.
type ExportedEntry struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Created   bool   `json:"created"`
	EnteredAs string `json:"enteredAs,omitempty"`
}
