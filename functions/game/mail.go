package game

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"tessera/engine"
	"tessera/functions/mail"
	"tessera/functions/store"
)

// Email (issue 46, docs/email.md): a key may give one address; once it
// is confirmed, the sweep mails a digest of the games waiting for the key
// when push has not reached it. The address lives in the key's record
// (format 5), so forgetting the key forgets it and nothing else holds it:
// the per-address counter of confirmation mails is named by a digest of
// the address, never the address.

// mailKeys lists every catalog key the mails use (a test checks each is
// in every catalog).
var mailKeys = []string{"mail.signature", "mail.confirm.subject", "mail.confirm.body", "mail.digest.subject",
	"mail.digest.intro", "mail.digest.game", "mail.digest.deadline", "mail.digest.why", "mail.digest.stop"}

// DefaultDigestAfter is how long a turn waits before a digest tells of it.
const DefaultDigestAfter = 24 * time.Hour

// MaxConfirmMails is how many confirmation mails a day a key, and an
// address, may be sent.
const MaxConfirmMails = 3

// mailNonce is the length of the secrets in a confirmation or an
// unsubscribe link.
const mailNonce = 16

var (
	// ErrMailOff: this deployment sends no mail (no -smtp / SMTP_ADDR).
	ErrMailOff = errors.New("email is off on this server")
	// ErrBadAddress: not one plain email address.
	ErrBadAddress = errors.New("not an email address")
	// ErrTooManyMails: a key's or an address's confirmation mails for today are spent.
	ErrTooManyMails = errors.New("too many confirmation mails today")
	// ErrBadMailToken: a confirmation or unsubscribe link that names nothing (any more).
	ErrBadMailToken = errors.New("no such link, or one replaced by a newer one")
	// ErrMailNotSent: the mail server did not take the mail.
	ErrMailNotSent = errors.New("the mail server did not take the mail")
	// ErrSuppressed: mail to the address bounced or was marked as spam.
	ErrSuppressed = fmt.Errorf("%w: mail to this address bounced or was reported as spam; give another", ErrNotEligible)
)

// SuppressFor is how long an address that bounced or complained gets no
// mail (the per-address item lives as long).
const SuppressFor = 365 * 24 * time.Hour

// MailState is a key's email, as its record keeps it.
type MailState struct {
	Addr       string // "" none
	Lang       lang   // the mails' language
	Origin     string // the site the links lead to (scheme and host)
	Confirmed  bool
	Digest     bool   // the digest is on (confirmation turns it on; unsubscribing off)
	Confirm    []byte // the confirmation link's secret; kept once used, so a second click confirms again
	Unsub      []byte // the unsubscribe link's secret, drawn on confirmation
	SentDay    int64  // the Unix day of Sent
	Sent       int    // confirmation mails sent to the key that day (kept when the address goes)
	LastPush   int64  // when a device last took a notification for the key (kept while the digest is on)
	LastDigest int64  // when the last digest went
	Check      int64  // when the sweep next looks at the key's games for a digest (0: never)
}

// On reports whether digests go to the address.
func (m *MailState) On() bool { return m.Addr != "" && m.Confirmed && m.Digest }

const (
	mailHasAddr = 1 << iota
	mailConfirmed
	mailDigest
)

// append writes the mail block of format 5.
func (m *MailState) append(b []byte) []byte {
	var flags byte
	if m.Addr != "" {
		flags |= mailHasAddr
	}
	if m.Confirmed {
		flags |= mailConfirmed
	}
	if m.Digest {
		flags |= mailDigest
	}
	b = append(b, flags)
	if m.Addr != "" {
		b = binary.AppendUvarint(b, uint64(len(m.Addr)))
		b = append(b, m.Addr...)
		b = append(b, byte(m.Lang))
		b = binary.AppendUvarint(b, uint64(len(m.Origin)))
		b = append(b, m.Origin...)
		b = append(b, fixed(m.Confirm)...)
		b = append(b, fixed(m.Unsub)...)
	}
	for _, v := range []int64{m.SentDay, int64(m.Sent), m.LastPush, m.LastDigest, m.Check} {
		b = binary.AppendVarint(b, v)
	}
	return b
}

// fixed is a secret as mailNonce bytes (zeros: none).
func fixed(s []byte) []byte {
	out := make([]byte, mailNonce)
	copy(out, s)
	return out
}

func (m *MailState) read(r *storedReader) {
	flags := r.count("mail flags", mailHasAddr|mailConfirmed|mailDigest)
	if flags&mailHasAddr != 0 {
		m.Addr = string(r.next("mail address", int(r.uvarint("mail address length", mail.MaxAddress))))
		m.Lang = lang(r.count("mail lang", int(numLangs)-1))
		m.Origin = string(r.next("mail origin", int(r.uvarint("mail origin length", maxOrigin))))
		m.Confirm = nonEmpty(r.next("confirm secret", mailNonce))
		m.Unsub = nonEmpty(r.next("unsubscribe secret", mailNonce))
	}
	m.Confirmed, m.Digest = flags&mailConfirmed != 0, flags&mailDigest != 0
	m.SentDay = r.varint("mail day")
	m.Sent = int(r.varint("mails sent"))
	m.LastPush, m.LastDigest, m.Check = r.varint("last push"), r.varint("last digest"), r.varint("digest check")
}

func nonEmpty(b []byte) []byte {
	if b == nil || bytes.Equal(b, make([]byte, len(b))) {
		return nil
	}
	return slices.Clone(b)
}

// maxOrigin bounds a stored origin.
const maxOrigin = 200

// mailToken is a link's secret: the key's hash and the nonce, base64url.
func mailToken(hash, nonce []byte) string {
	return base64.RawURLEncoding.EncodeToString(append(slices.Clone(hash), nonce...))
}

func parseMailToken(token string) (hash, nonce []byte, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) != HashBytes+mailNonce {
		return nil, nil, false
	}
	return b[:HashBytes], b[HashBytes:], true
}

// MailOn reports whether this deployment sends mail.
func (h *Service) MailOn() bool { return h.mail != nil }

// mailAddrID names the counter of an address's confirmation mails: a
// digest of the address, lowercased (it is never stored itself outside
// its key's record).
func mailAddrID(addr string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(addr)))
	return "mailto-" + hex.EncodeToString(sum[:16])
}

// mailAddrFormat is the counter's first byte: then the Unix day and the
// mails sent to the address that day, and until when the address gets no
// mail at all (a bounce or a complaint; 0 none; Unix seconds), as
// varints.
const mailAddrFormat = 1

// mailAddr is an address's item.
type mailAddr struct {
	day, sent, suppressed int64
}

func (h *Service) loadMailAddr(ctx context.Context, addr string) (mailAddr, int64, error) {
	item, err := h.store.Load(ctx, mailAddrID(addr))
	if errors.Is(err, store.ErrNotFound) {
		return mailAddr{}, 0, nil
	}
	if err != nil {
		return mailAddr{}, 0, err
	}
	r := &storedReader{b: item.State}
	var a mailAddr
	if r.count("format", mailAddrFormat) == mailAddrFormat {
		a.day, a.sent, a.suppressed = r.varint("day"), r.varint("sent"), r.varint("suppressed")
	}
	if r.err != nil {
		return mailAddr{}, 0, r.err
	}
	return a, item.Version, nil
}

// saveMailAddr writes a, to live until the day after its day, or as long
// as its suppression.
func (h *Service) saveMailAddr(ctx context.Context, addr string, a mailAddr, version int64) error {
	state := []byte{mailAddrFormat}
	for _, v := range []int64{a.day, a.sent, a.suppressed} {
		state = binary.AppendVarint(state, v)
	}
	expires := time.Unix(max((a.day+2)*86400, a.suppressed), 0)
	return store.CreateOrSave(ctx, h.store, mailAddrID(addr), state, version, h.now(), time.Time{}, expires)
}

// Suppress stops all mail to addr for SuppressFor: SES told of a
// permanent bounce or a complaint (the clock function hears it through
// SNS). The keys whose address it is get no digest from then on.
func (h *Service) Suppress(ctx context.Context, addr string) error {
	until := h.now().Add(SuppressFor).Unix()
	return Retry(ctx, mailWrites, func(int) error {
		a, version, err := h.loadMailAddr(ctx, addr)
		if err != nil {
			return err
		}
		if a.suppressed >= until {
			return nil
		}
		a.suppressed = until
		return h.saveMailAddr(ctx, addr, a, version)
	})
}

// suppressed reports whether addr gets no mail now.
func (h *Service) suppressed(ctx context.Context, addr string) (bool, error) {
	a, _, err := h.loadMailAddr(ctx, addr)
	return a.suppressed > h.now().Unix(), err
}

var mailWrites = WriteKind{name: "mail", attempts: 10, backOff: true}

// countAddressMail counts one confirmation mail to addr today, or answers
// ErrTooManyMails. The counter lives until the day after.
func (h *Service) countAddressMail(ctx context.Context, addr string) error {
	now := h.now()
	day := now.Unix() / 86400
	return Retry(ctx, mailWrites, func(int) error {
		a, version, err := h.loadMailAddr(ctx, addr)
		if err != nil {
			return err
		}
		if a.suppressed > now.Unix() {
			return ErrSuppressed
		}
		if a.day != day {
			a.day, a.sent = day, 0
		}
		if a.sent >= MaxConfirmMails {
			return ErrTooManyMails
		}
		a.sent++
		return h.saveMailAddr(ctx, addr, a, version)
	})
}

// SetEmail gives the key whose hash is hash the address addr, unconfirmed,
// and mails it a confirmation link in l to origin's page (the site's own
// origin when the deployment has one). A second call replaces the
// address and its link.
func (h *Service) SetEmail(ctx context.Context, hash []byte, addr string, l lang, origin string) error {
	if h.mail == nil {
		return ErrMailOff
	}
	addr, err := mail.Valid(addr)
	if err != nil {
		return fmt.Errorf("%w: %q is not one plain address like ana@example.com", engine.ErrBadInput, addr)
	}
	if site := h.siteOrigin(ctx); site != "" {
		origin = site
	}
	if u, err := url.Parse(origin); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(origin) > maxOrigin {
		return fmt.Errorf("%w: the site's address %q", ErrInternal, origin)
	}
	nonce, err := readRandom(h.rand, mailNonce)
	if err != nil {
		return err
	}
	now := h.now()
	day := now.Unix() / 86400
	// The key's count first (a spent key writes nothing), then the
	// address's, then the record: a mail the server refuses still counts.
	rec, _, err := h.LoadPlayer(ctx, hash)
	if err != nil {
		return err
	}
	if rec.Mail.SentDay == day && rec.Mail.Sent >= MaxConfirmMails {
		return ErrTooManyMails
	}
	if err := h.countAddressMail(ctx, addr); err != nil {
		return err
	}
	given := false // by the attempt that wrote: a retry decides again
	err = h.UpdatePlayer(ctx, hash, func(p *Record) bool {
		m := &p.Mail
		if m.SentDay != day {
			m.SentDay, m.Sent = day, 0
		}
		if given = m.Sent < MaxConfirmMails; !given {
			return false
		}
		*m = MailState{Addr: addr, Lang: l, Origin: origin, Confirm: nonce, SentDay: m.SentDay, Sent: m.Sent + 1}
		return true
	})
	if err != nil {
		return err
	}
	if !given {
		return ErrTooManyMails // the key's count was spent by a request beside this one
	}
	link := origin + "/?confirm=" + mailToken(hash, nonce)
	msg := mail.Message{To: addr, Lang: l.String(), Subject: say(l, "mail.confirm.subject"),
		Body: say(l, "mail.confirm.body", "link", link) + "\n\n" + say(l, "mail.signature") + "\n"}
	if err := h.mail.Send(ctx, msg); err != nil {
		h.log.Warn("mail: a confirmation not sent", "cause", mailCause(err, addr))
		return ErrMailNotSent
	}
	return nil
}

// ConfirmEmail confirms the address whose link carried token and turns
// its digest on. The link of an address since replaced or removed names
// nothing (ErrBadMailToken).
func (h *Service) ConfirmEmail(ctx context.Context, token string) error {
	hash, nonce, ok := parseMailToken(token)
	if !ok {
		return ErrBadMailToken
	}
	unsub, err := readRandom(h.rand, mailNonce)
	if err != nil {
		return err
	}
	return h.byMailToken(ctx, hash, nonce, func(m *MailState) []byte { return m.Confirm }, func(m *MailState) bool {
		if m.Confirmed {
			return false
		}
		m.Confirmed, m.Digest, m.Unsub = true, true, unsub
		m.Check = h.now().Add(h.digestAfter).Unix()
		return true
	})
}

// byMailToken applies change to the email of the key whose hash is hash
// when its secret (the confirmation's or the unsubscribe link's) is
// nonce; ErrBadMailToken when it is not (replaced, removed, forged).
func (h *Service) byMailToken(ctx context.Context, hash, nonce []byte, secret func(*MailState) []byte, change func(*MailState) bool) error {
	found := false
	err := h.UpdatePlayer(ctx, hash, func(p *Record) bool {
		s := secret(&p.Mail)
		found = p.Mail.Addr != "" && s != nil && subtle.ConstantTimeCompare(s, nonce) == 1
		return found && change(&p.Mail)
	})
	if err == nil && !found {
		return ErrBadMailToken
	}
	return err
}

// DeleteEmail removes the key's address (its count of today's mails
// stays, so removing and giving it again sends no more).
func (h *Service) DeleteEmail(ctx context.Context, hash []byte) error {
	return h.UpdatePlayer(ctx, hash, func(p *Record) bool {
		if p.Mail.Addr == "" {
			return false
		}
		p.Mail = MailState{SentDay: p.Mail.SentDay, Sent: p.Mail.Sent}
		return true
	})
}

// Unsubscribe turns the digest off for the key whose digest carried
// token (RFC 8058's one click: no key needed, the link is the proof).
// Unsubscribing twice is not an error.
func (h *Service) Unsubscribe(ctx context.Context, token string) error {
	hash, nonce, ok := parseMailToken(token)
	if !ok {
		return ErrBadMailToken
	}
	return h.byMailToken(ctx, hash, nonce, func(m *MailState) []byte { return m.Unsub }, func(m *MailState) bool {
		if !m.Digest {
			return false
		}
		m.Digest, m.Check = false, 0
		return true
	})
}

// SetDigest turns the key's digest on or off (its settings; on needs a
// confirmed address).
func (h *Service) SetDigest(ctx context.Context, hash []byte, on bool) error {
	ok := true
	err := h.UpdatePlayer(ctx, hash, func(p *Record) bool {
		m := &p.Mail
		if on && (m.Addr == "" || !m.Confirmed) {
			ok = false
			return false
		}
		if m.Digest == on {
			return false
		}
		m.Digest, m.Check = on, 0
		if on {
			m.Check = h.now().Add(h.digestAfter).Unix()
		}
		return true
	})
	if err == nil && !ok {
		return fmt.Errorf("%w: confirm an address first", ErrNotEligible)
	}
	return err
}

// EmailStatus is what GET /api/me shows of the key's address: masked.
type EmailStatus struct {
	Address   string `json:"address"` // "a***@example.com"
	Confirmed bool   `json:"confirmed"`
	Digest    bool   `json:"digest"`
}

// EmailOf is the key's address as its owner sees it; nil none.
func EmailOf(r *Record) *EmailStatus {
	if r == nil || r.Mail.Addr == "" {
		return nil
	}
	return &EmailStatus{Address: mail.Mask(r.Mail.Addr), Confirmed: r.Mail.Confirmed, Digest: r.Mail.On()}
}

// notePushes keeps, in the records of keys whose digest is on, that a
// device took a notification for them now (the digest then waits for
// turns that began later).
func (h *Service) notePushes(ctx context.Context, hashes [][]byte) {
	now := h.now().Unix()
	for _, hash := range hashes {
		if err := h.UpdatePlayer(ctx, hash, func(p *Record) bool {
			if !p.Mail.On() || p.Mail.LastPush >= now {
				return false
			}
			p.Mail.LastPush = now
			return true
		}); err != nil {
			h.log.Warn("mail: a push not noted", "cause", err.Error())
		}
	}
}

// mailCause is err for a log line, without the address (a mail server's
// refusal often repeats it; no log line holds one).
func mailCause(err error, addr string) string {
	return strings.ReplaceAll(err.Error(), addr, "<address>")
}

// waiting is one game of a digest.
type waiting struct {
	id       string
	seat     int
	since    time.Time // the turn's start (the clock's), else the game's last change
	variant  engine.Variant
	others   []string
	deadline time.Time // zero: no clock
}

// sweepDigest is the sweep's visit of a key's record rec (as the sweep
// read it) when its digest check is due: one mail listing every game where it is the key's turn,
// if one has waited DigestAfter since its turn began, no device took a
// notification since then and no page of the key shows it; then the
// next check. A digest sets the next check a period later, so at most
// one goes a period.
func (h *Service) sweepDigest(ctx context.Context, hash []byte, rec *Record) error {
	var err error
	now := h.now()
	m := rec.Mail
	if !m.On() || m.Check == 0 || m.Check > now.Unix() {
		return nil
	}
	next := now.Add(h.digestAfter)
	send := false
	var games []waiting
	switch {
	case h.mail == nil:
	case rec.Vac.Active(now):
		next = time.Unix(rec.Vac.Until, 0).Add(h.digestAfter) // none on vacation
	default:
		mine, err := h.myGamesOf(ctx, hash, rec)
		if err != nil {
			return err
		}
		games = h.waitingIn(mine, now)
		open, err := h.pagesOpen(ctx, games, now)
		if err != nil {
			return err
		}
		for _, g := range games {
			due := g.since.Add(h.digestAfter)
			switch {
			case !due.After(now) && g.since.Unix() > m.LastPush && !open[g.id]:
				send = true
			case due.After(now) && due.Before(next):
				next = due
			}
		}
	}
	off := false
	if send {
		if off, err = h.suppressed(ctx, m.Addr); err != nil {
			return err
		}
		send = !off
	}
	if send {
		if err := h.mail.Send(ctx, h.digest(hash, &m, games, now)); err != nil {
			h.log.Warn("mail: a digest not sent", "cause", mailCause(err, m.Addr))
			next = now.Add(time.Hour) // the server may take it later
			send = false
		}
	}
	return h.UpdatePlayer(ctx, hash, func(p *Record) bool {
		if !p.Mail.On() || p.Mail.Addr != m.Addr {
			return false
		}
		if send {
			p.Mail.LastDigest = now.Unix()
		}
		p.Mail.Check = next.Unix()
		if off { // bounced or complained: the digest stops (its owner sees it off)
			p.Mail.Digest, p.Mail.Check = false, 0
		}
		return true
	})
}

// waitingIn are the games of mine where it is the key's turn, oldest first.
func (h *Service) waitingIn(mine *MyGames, now time.Time) []waiting {
	var out []waiting
	for _, g := range mine.Games {
		if !g.YourTurn || g.AllAway || g.View.Status != engine.StatusPlaying {
			continue
		}
		w := waiting{id: g.ID, seat: g.Seat, since: g.UpdatedAt, variant: g.View.Variant, deadline: g.State.DeadlineOf(g.Seat)}
		if s := g.State.Seats[g.Seat].Since; s != 0 {
			w.since = time.Unix(s, 0)
		}
		for i, s := range g.View.Seats {
			if i != g.Seat && s.Name != nil {
				w.others = append(w.others, *s.Name)
			}
		}
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b waiting) int { return a.since.Compare(b.since) })
	return out
}

// pagesOpen tells which of games a page of the key watches now (a live
// lease of its seat: watch.go's watchers).
func (h *Service) pagesOpen(ctx context.Context, games []waiting, now time.Time) (map[string]bool, error) {
	if len(games) == 0 {
		return nil, nil
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = WatchItemID(g.id)
	}
	items, err := h.store.LoadMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	open := map[string]bool{}
	for _, g := range games {
		item, ok := items[WatchItemID(g.id)]
		open[g.id] = len(watchers(item, ok, now)[g.seat]) > 0
	}
	return open, nil
}

// digest is the mail listing games, in the key's language.
func (h *Service) digest(hash []byte, m *MailState, games []waiting, now time.Time) mail.Message {
	l := m.Lang
	var b strings.Builder
	b.WriteString(say(l, "mail.digest.intro", "n", fmt.Sprint(len(games))) + "\n\n")
	for _, g := range games {
		others := strings.Join(g.others, ", ")
		if others == "" {
			others = "—"
		}
		b.WriteString("• " + say(l, "mail.digest.game", "rules", ruleTitle(g.variant, l), "others", others,
			"since", inWords(now.Sub(g.since), l)) + "\n")
		if !g.deadline.IsZero() {
			b.WriteString("  " + say(l, "mail.digest.deadline", "left", inWords(g.deadline.Sub(now), l),
				"at", g.deadline.UTC().Format("2006-01-02 15:04")+" UTC") + "\n")
		}
		b.WriteString("  " + m.Origin + "/game.html#" + g.id + "\n\n")
	}
	unsub := m.Origin + "/api/me/email/unsubscribe?token=" + mailToken(hash, m.Unsub)
	b.WriteString(say(l, "mail.digest.why", "after", inWords(h.digestAfter, l)) + "\n")
	b.WriteString(say(l, "mail.digest.stop", "link", m.Origin+"/?unsubscribe="+mailToken(hash, m.Unsub)) + "\n\n")
	b.WriteString(say(l, "mail.signature") + "\n")
	return mail.Message{To: m.Addr, Lang: l.String(), Subject: say(l, "mail.digest.subject", "n", fmt.Sprint(len(games))),
		Body: b.String(), Unsubscribe: unsub}
}
