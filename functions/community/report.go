package community

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// Reports and moderation (issue 36, docs/moderation.md): a player reports
// a name, a message or a player; the report waits in the moderation queue
// (the list "reports:open", an index) with its context until an operator
// closes it; an operator may rename a profile or suspend it from the open
// room, listed tournaments and the leaderboards.

// Report kinds.
const (
	ReportName    = "name"
	ReportMessage = "message"
	ReportPlayer  = "player"
)

const (
	// MaxReportNote is a report's note in code points.
	MaxReportNote = 500
	// ReportsPerMinute and ReportsPerDay bound what one key reports;
	// ReportsPerAddress what every key of one address reports in a day
	// together (keys are free: a flood comes from many; issue 43).
	ReportsPerMinute  = 5
	ReportsPerDay     = 50
	ReportsPerAddress = 20
	// reportOpenTTL and reportClosedTTL: an open report waits 180 days
	// for an operator; a closed one is kept 30 days more.
	reportOpenTTL   = 180 * 24 * time.Hour
	reportClosedTTL = 30 * 24 * time.Hour
	reportFormat    = 1
	// queueList is the moderation queue, ranked so that the oldest open
	// report is the highest (queueRank); legacyQueueList the one before
	// issue 43 (ranked by time, newest highest), read until its reports
	// are closed or expire.
	queueList       = "reports:queue"
	legacyQueueList = "reports:open"
	// MaxQueue is what one read of the queue answers.
	MaxQueue = store.MaxList
	// MaxReportRefs bounds the reports a profile keeps track of (those it
	// filed, those about it): each report is kept while it lives, so that
	// forgetting reaches every one; when a list is full of open reports,
	// a new one is refused (limit_reached).
	MaxReportRefs = 100
)

// queueRank is a report's rank in the queue: the oldest highest (the
// nanoseconds of its filing counted down from the largest int64), then
// its id counted down too, so that a page of the queue
// (store.ListBelow, highest first) answers the oldest open reports
// first, and reports filed at one instant in the order of their ids.
// Every rank is printable and below "~".
func queueRank(at time.Time, id string) string {
	down := []byte(fmt.Sprintf("%019d", int64(math.MaxInt64)-at.UnixNano()))
	for i := range len(id) {
		down = append(down, '0'+'z'-id[i]) // an id's letters are '2'-'7' and 'a'-'z'
	}
	return string(down)
}

// ReportItemID is report id's item.
func ReportItemID(id string) string { return "report-" + id }

// Report is one report as stored and as the operator reads it.
type Report struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	By      string    `json:"by"`     // the reporter's player id
	Player  string    `json:"player"` // the reported player's id
	Name    string    `json:"name"`   // its name when reported
	What    string    `json:"what"`
	Game    string    `json:"game,omitempty"`
	Message *Said     `json:"message,omitempty"` // what it said, for a message
	Note    string    `json:"note,omitempty"`
	Closed  time.Time `json:"closed,omitzero"`
}

// Said is a reported message of the table talk.
type Said struct {
	Seq      int    `json:"seq"`
	Text     string `json:"text,omitempty"`
	Reaction string `json:"reaction,omitempty"`
}

// ReportRequest is POST /api/reports's body, checked by the API.
type ReportRequest struct {
	Player, What, Game, Note string
	Seq                      int
}

// reportID is the report's id: the same for the same reporter and
// request, so a retry finds the report it made.
func reportID(by string, r ReportRequest) string {
	sum := sha256.Sum256([]byte("tessera report\x00" + by + "\x00" + r.Player + "\x00" + r.What + "\x00" + r.Game + "\x00" + strconv.Itoa(r.Seq) + "\x00" + r.Note))
	return game.IDEncoding.EncodeToString(sum[:game.IDBytes])
}

// File is POST /api/reports: a report by the key whose hash is hash,
// from address addr ("": unknown), and whether it was made now (false: a
// retry of the same report). A key without a profile is
// game.ErrNotEligible, yourself engine.ErrBadInput, an unknown player or
// game store.ErrNotFound, a message that is not the player's in a game of
// the reporter's engine.ErrBadInput, too many reports (the key's, the
// address's, or a list of reports kept that is full)
// game.ErrLimitReached; no report is written then.
func (h *Service) File(ctx context.Context, hash []byte, addr string, req ReportRequest) (*Report, bool, error) {
	me, err := h.ProfileOfKey(ctx, hash)
	if err != nil {
		return nil, false, err
	}
	if req.Player == me.ID {
		return nil, false, fmt.Errorf("%w: you cannot report yourself", engine.ErrBadInput)
	}
	id := reportID(me.ID, req)
	if item, err := h.store.Load(ctx, ReportItemID(id)); err == nil {
		r, err := decodeReport(item.State)
		return r, false, err
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, false, err
	}
	them, _, err := h.LoadProfile(ctx, req.Player)
	if err != nil {
		return nil, false, err
	}
	now := h.g.Now().UTC().Truncate(time.Second)
	r := &Report{ID: id, At: now, By: me.ID, Player: them.ID, Name: them.Name, What: req.What, Game: req.Game, Note: req.Note}
	if req.What == ReportMessage {
		if r.Message, err = h.saidBy(ctx, me.ID, them.ID, req.Game, req.Seq); err != nil {
			return nil, false, err
		}
	}
	// The address's count first, then the reported player's list of
	// reports about it (forgetting it scrubs them: a dangling id there is
	// harmless), then the reporter's count and list: a crash after any of
	// them costs one report of a budget, never lets one more through.
	if err := h.chargeAddress(ctx, addr, now); err != nil {
		return nil, false, err
	}
	gone, err := h.reportsGone(ctx, them.ReportedIn)
	if err != nil {
		return nil, false, err
	}
	var refused error
	if _, _, err := h.UpdateProfile(ctx, them.ID, func(p *Profile) bool {
		refused = nil
		if slices.Contains(p.ReportedIn, id) {
			return false
		}
		kept := slices.DeleteFunc(slices.Clone(p.ReportedIn), func(r string) bool { return gone[r] })
		if len(kept) >= MaxReportRefs {
			refused = fmt.Errorf("%w: this player has %d reports waiting for the moderators already", game.ErrLimitReached, len(kept))
			return false
		}
		p.ReportedIn = append(kept, id)
		return true
	}); err != nil || refused != nil {
		return nil, false, errors.Join(err, refused)
	}
	if gone, err = h.reportsGone(ctx, me.Filed); err != nil {
		return nil, false, err
	}
	if _, _, err := h.UpdateProfile(ctx, me.ID, func(p *Profile) bool {
		refused = nil
		recent := p.Reports[:0:0]
		for _, at := range p.Reports {
			if now.Unix()-at < 86400 {
				recent = append(recent, at)
			}
		}
		minute := 0
		for _, at := range recent {
			if now.Unix()-at < 60 {
				minute++
			}
		}
		switch {
		case minute >= ReportsPerMinute:
			refused = fmt.Errorf("%w: %d reports a minute; wait a moment", game.ErrLimitReached, ReportsPerMinute)
			return false
		case len(recent) >= ReportsPerDay:
			refused = fmt.Errorf("%w: %d reports a day", game.ErrLimitReached, ReportsPerDay)
			return false
		}
		kept := slices.DeleteFunc(slices.Clone(p.Filed), func(r string) bool { return gone[r] })
		if len(kept) >= MaxReportRefs {
			refused = fmt.Errorf("%w: %d of your reports wait for the moderators", game.ErrLimitReached, len(kept))
			return false
		}
		p.Reports = append(recent, now.Unix())
		p.Filed = append(kept, id)
		return true
	}); err != nil || refused != nil {
		return nil, false, errors.Join(err, refused)
	}
	b, err := game.EncodeJSONItem(reportFormat, r)
	if err != nil {
		return nil, false, err
	}
	card, err := json.Marshal(struct {
		ID   string    `json:"id"`
		At   time.Time `json:"at"`
		What string    `json:"what"`
	}{r.ID, r.At, r.What})
	if err != nil {
		return nil, false, err
	}
	e := store.Entry{List: queueList, Rank: queueRank(h.g.Now(), r.ID), Card: card}
	err = h.store.CreateListed(ctx, ReportItemID(id), b, now, time.Time{}, now.Add(reportOpenTTL), e)
	if errors.Is(err, store.ErrConflict) { // a concurrent retry made it
		item, err := h.store.Load(ctx, ReportItemID(id))
		if err != nil {
			return nil, false, err
		}
		r, err := decodeReport(item.State)
		return r, false, err
	}
	if err != nil {
		return nil, false, err
	}
	// Either player forgotten while this was filed (its profile listed
	// the report, then the tombstone came; Forget's second pass may have
	// run before the report was made): the report goes as forgetting
	// would have done it.
	if _, _, err := h.LoadProfile(ctx, me.ID); errors.Is(err, store.ErrNotFound) {
		return nil, false, errors.Join(h.store.Delete(ctx, ReportItemID(id)), fmt.Errorf("you were forgotten: %w", store.ErrNotFound))
	}
	if _, _, err := h.LoadProfile(ctx, them.ID); errors.Is(err, store.ErrNotFound) {
		return nil, false, errors.Join(h.scrubReport(ctx, id), fmt.Errorf("player %q: %w", them.ID, store.ErrNotFound))
	}
	return r, true, nil
}

// saidBy is message seq of game gid's talk: it must be player's, in a
// game where reporter holds a seat.
func (h *Service) saidBy(ctx context.Context, reporter, player, gid string, seq int) (*Said, error) {
	g, err := h.g.Load(ctx, gid)
	if err != nil {
		return nil, err
	}
	mine := slices.IndexFunc(g.State.Seats, func(a game.SeatAuth) bool { return a.Player == reporter })
	if mine < 0 {
		return nil, fmt.Errorf("%w: you may report the talk of your own games", engine.ErrBadInput)
	}
	m, ok, err := h.g.ChatMessage(ctx, gid, seq)
	if err != nil {
		return nil, err
	}
	if !ok || m.Seat >= len(g.State.Seats) || g.State.Seats[m.Seat].Player != player {
		return nil, fmt.Errorf("%w: no such message of that player in the game", engine.ErrBadInput)
	}
	s := &Said{Seq: m.Seq}
	if m.Text != nil {
		s.Text = *m.Text
	}
	if m.Reaction != nil {
		s.Reaction = *m.Reaction
	}
	return s, nil
}

func decodeReport(b []byte) (*Report, error) {
	return game.DecodeJSONItem(b, reportFormat, "report", func(r *Report) string { return r.ID })
}

// Queue is GET /api/reports: the open reports, oldest first, at most
// MaxQueue from after on (a page's next; "": the first page), and the
// next page's after ("": this was the last); an after that no page can
// give (too long, not printable ASCII) is engine.ErrBadInput. A page is one List of the
// queue and one LoadMany of its reports; the first also reads the queue
// as it was before issue 43 (its reports are older than any other).
func (h *Service) Queue(ctx context.Context, after string) ([]*Report, string, error) {
	if len(after) > store.MaxRank || strings.ContainsFunc(after, func(r rune) bool { return r <= ' ' || r > '~' }) {
		return nil, "", fmt.Errorf("%w: after is the next of a page of the queue", engine.ErrBadInput)
	}
	var ids []string
	if after == "" {
		old, err := h.store.List(ctx, legacyQueueList, "", MaxQueue)
		if err != nil {
			return nil, "", err
		}
		for i := len(old) - 1; i >= 0; i-- { // newest highest there
			ids = append(ids, old[i].ID)
		}
	}
	next := "~" // the old queue filled the page: all of the new one follows (every rank is below "~")
	if room := MaxQueue - len(ids); room > 0 {
		l, err := h.store.ListBelow(ctx, queueList, after, room)
		if err != nil {
			return nil, "", err
		}
		next = ""
		for _, e := range l {
			ids = append(ids, e.ID)
		}
		if len(l) == room {
			next = l[len(l)-1].Rank
		}
	}
	items, err := h.store.LoadMany(ctx, ids)
	if err != nil {
		return nil, "", err
	}
	out := []*Report{}
	for _, id := range ids {
		it, ok := items[id]
		if !ok {
			continue
		}
		r, err := decodeReport(it.State)
		if err != nil {
			return nil, "", err
		}
		out = append(out, r)
	}
	return out, next, nil
}

// reportsGone is which of the reports ids are gone or closed: a
// profile's list leaves them out, and a closed one is deleted now (its
// 30 days kept after closing end early for a player with a full list,
// so that forgetting still reaches every report kept). It reads nothing
// while the list is not full.
func (h *Service) reportsGone(ctx context.Context, ids []string) (map[string]bool, error) {
	gone := map[string]bool{}
	if len(ids) < MaxReportRefs {
		return gone, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = ReportItemID(id)
	}
	items, err := store.LoadAll(ctx, h.store, keys)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		it, ok := items[ReportItemID(id)]
		if !ok {
			gone[id] = true
			continue
		}
		r, err := decodeReport(it.State)
		if err != nil {
			return nil, err
		}
		if !r.Closed.IsZero() {
			if err := h.store.Delete(ctx, ReportItemID(id)); err != nil {
				return nil, err
			}
			gone[id] = true
		}
	}
	return gone, nil
}

// Close is DELETE /api/reports/{id}: the report leaves the queue (kept
// reportClosedTTL more); closing a closed one changes nothing.
func (h *Service) Close(ctx context.Context, id string) error {
	return game.Retry(ctx, game.ReportWrites, func(int) error {
		item, err := h.store.Load(ctx, ReportItemID(id))
		if err != nil {
			return err
		}
		r, err := decodeReport(item.State)
		if err != nil {
			return err
		}
		if !r.Closed.IsZero() {
			return nil
		}
		now := h.g.Now().UTC().Truncate(time.Second)
		r.Closed = now
		b, err := game.EncodeJSONItem(reportFormat, r)
		if err != nil {
			return err
		}
		return h.store.Save(ctx, ReportItemID(id), b, item.Version, now, time.Time{}, now.Add(reportClosedTTL))
	})
}

// Moderation is what an operator changes of a profile.
type Moderation struct {
	Name      *string // a new name
	Suspended *bool
}

// Moderate is PUT /api/players/{id}/moderation: the profile renamed
// and/or suspended (or no longer), once whatever retries happen (setting
// what is already set changes nothing); its leaderboard entries follow.
func (h *Service) Moderate(ctx context.Context, pid string, m Moderation) (*Profile, error) {
	if _, _, err := h.LoadProfile(ctx, pid); err != nil {
		return nil, err
	}
	changed := false
	p, version, err := h.UpdateProfile(ctx, pid, func(p *Profile) bool {
		changed = false
		if m.Name != nil && (p.Name != *m.Name || !p.NameSet) {
			p.Name, p.NameSet, changed = *m.Name, true, true
		}
		if m.Suspended != nil && *m.Suspended != (p.Suspended != nil) {
			if *m.Suspended {
				p.Suspended = &Suspension{At: h.g.Now().UTC().Truncate(time.Second)}
			} else {
				p.Suspended = nil
			}
			changed = true
		}
		return changed
	})
	if err != nil {
		return nil, err
	}
	// The leaderboards and the lobby's list of the suspended follow the
	// profile (also after a crash between: the operator's retry finds
	// nothing to change in the profile and writes them).
	if err := h.putBoards(ctx, p, version); err != nil {
		return nil, err
	}
	if m.Suspended != nil {
		if err := h.markSuspended(ctx, pid, *m.Suspended); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Suspension is an operator's suspension of a profile from the open room,
// listed tournaments and the leaderboards.
type Suspension struct {
	At time.Time `json:"at"`
}

// suspended refuses a suspended key what the open room offers.
func (h *Service) suspended(ctx context.Context, hash []byte) error {
	if hash == nil {
		return nil
	}
	p, err := h.MyProfile(ctx, hash)
	if err != nil {
		return err
	}
	return suspension(p)
}

// suspension refuses profile p (nil: none) when it is suspended.
func suspension(p *Profile) error {
	if p == nil || p.Suspended == nil {
		return nil
	}
	return fmt.Errorf("%w: your profile is suspended from the open room, listed tournaments and the leaderboards", game.ErrNotEligible)
}

// addressItemID is the item that counts the reports of one address's
// last day: a digest of the address, never the address itself.
func addressItemID(addr string) string {
	sum := sha256.Sum256([]byte("tessera reports from\x00" + addr))
	return "reportsfrom-" + game.IDEncoding.EncodeToString(sum[:game.IDBytes])
}

// addressCount is what addressItemID holds: when its reports of the last
// day were filed (Unix seconds).
type addressCount struct {
	ID      string  `json:"id"`
	Reports []int64 `json:"reports"`
}

// chargeAddress counts a report from addr ("": none is known, nothing is
// counted) at now, or refuses it (game.ErrLimitReached) when the
// address's keys filed ReportsPerAddress in the last day together. The
// count lives a day after its last report.
func (h *Service) chargeAddress(ctx context.Context, addr string, now time.Time) error {
	if addr == "" {
		return nil
	}
	id := addressItemID(addr)
	return game.Retry(ctx, game.ReportWrites, func(int) error {
		c, version := &addressCount{ID: id}, int64(0)
		item, err := h.store.Load(ctx, id)
		switch {
		case err == nil:
			if c, err = game.DecodeJSONItem(item.State, reportFormat, "report count", func(c *addressCount) string { return c.ID }); err != nil {
				return err
			}
			version = item.Version
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		c.Reports = slices.DeleteFunc(c.Reports, func(at int64) bool { return now.Unix()-at >= 86400 })
		if len(c.Reports) >= ReportsPerAddress {
			return fmt.Errorf("%w: %d reports a day from one address", game.ErrLimitReached, ReportsPerAddress)
		}
		c.Reports = append(c.Reports, now.Unix())
		b, err := game.EncodeJSONItem(reportFormat, c)
		if err != nil {
			return err
		}
		return store.CreateOrSave(ctx, h.store, id, b, version, now, time.Time{}, now.Add(24*time.Hour))
	})
}
