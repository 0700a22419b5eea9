package community

import (
	"errors"
	"mime"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/mail"
	"tessera/functions/mail/smtpmail"
	"tessera/functions/mail/smtptest"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// The email digest (issue 46) below HTTP, through a real SMTP server on
// loopback: what arrives is parsed as MIME.

// mailService is a world whose service sends mail to an SMTP server.
func (w *pathWorld) mailService(t *testing.T) (*world, *smtptest.Server) {
	t.Helper()
	srv, err := smtptest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return w.serviceWith(game.Config{Mail: smtpmail.SMTP{Addr: srv.Addr, From: "Tessera <tessera@example.test>", Now: w.clock.Now}}), srv
}

var linkToken = regexp.MustCompile(`[?&](confirm|unsubscribe|token)=([A-Za-z0-9_-]+)`)

// tokenIn is the token of the first link of kind ("confirm", "unsubscribe", "token") in s.
func tokenIn(t *testing.T, s, kind string) string {
	t.Helper()
	for _, m := range linkToken.FindAllStringSubmatch(s, -1) {
		if m[1] == kind {
			return m[2]
		}
	}
	t.Fatalf("no %s link in %q", kind, s)
	return ""
}

// untilTurnOf plays the others' first legal moves in game id until seat
// must act.
func untilTurnOf(t *testing.T, svc *world, id string, seat int, tokens map[int]string) {
	t.Helper()
	for range 50 {
		s, mv, version, ok := toAct(t, svc, id)
		if !ok {
			t.Fatal("the game ended before seat", seat, "had to act")
		}
		if s == seat {
			return
		}
		if _, err := svc.Move(t.Context(), pathOp, id, tokens[s], game.MoveRequest{Version: version, Move: mv}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("seat", seat, "never had to act")
}

func (w *pathWorld) sweep(svc *world, d time.Duration) {
	w.t.Helper()
	w.clock.Add(d)
	if _, err := svc.Sweep(w.t.Context(), "example.test"); err != nil {
		w.t.Fatal(err)
	}
}

// confirmAddress gives key the address, reads the confirmation mail
// (the mail number n on srv) and confirms it through its link.
func confirmAddress(t *testing.T, svc *world, srv *smtptest.Server, key, addr string, l game.Lang, n int) smtptest.Message {
	t.Helper()
	ctx := t.Context()
	if err := svc.SetEmail(ctx, game.HashToken(key), addr, l, "http://example.test"); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Wait(n, 10*time.Second)
	if len(msgs) != n {
		t.Fatalf("%d mails, want %d", len(msgs), n)
	}
	m := msgs[n-1]
	if m.To[0] != addr || m.Header.Get("To") != "<"+addr+">" || !strings.Contains(m.Body, "http://example.test/?confirm=") {
		t.Fatalf("the confirmation: to %v (%s), body %q", m.To, m.Header.Get("To"), m.Body)
	}
	mine, err := svc.MyGames(ctx, game.HashToken(key))
	if err != nil || mine.Email == nil || mine.Email.Confirmed || mine.Email.Digest || mine.Email.Address != mail.Mask(addr) {
		t.Fatalf("before confirming, /api/me's email: %+v, %v", mine.Email, err)
	}
	if err := svc.ConfirmEmail(ctx, tokenIn(t, m.Body, "confirm")); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestADigestTellsOfTheGamesWaiting: a confirmed address gets, once its
// turn has waited a day with no notification and no page open, one mail
// in its language listing the game (rule set, opponent, link) with the
// one-click unsubscribe headers; one a day at most; none after the
// one-click POST; none before it was confirmed.
func TestADigestTellsOfTheGamesWaiting(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc, srv := w.mailService(t)
		ctx := t.Context()
		id, tokens := seatTwo(t, svc, false, 0, 250)
		untilTurnOf(t, svc, id, 0, tokens)
		ana := game.HashToken(tokens[0])

		// Unconfirmed: the confirmation only.
		if err := svc.SetEmail(ctx, ana, "ana@example.com", game.LangIT, "http://example.test"); err != nil {
			t.Fatal(err)
		}
		conf := srv.Wait(1, 10*time.Second)[0]
		if got := conf.Header.Get("Subject"); !strings.Contains(decodeSubject(t, got), "Conferma") {
			t.Fatalf("the confirmation's subject %q is not Italian", got)
		}
		w.sweep(svc, 25*time.Hour)
		if n := len(srv.Messages()); n != 1 {
			t.Fatalf("%d mails before the address was confirmed, want the confirmation alone", n)
		}
		if err := svc.ConfirmEmail(ctx, tokenIn(t, conf.Body, "confirm")); err != nil {
			t.Fatal(err)
		}
		if err := svc.ConfirmEmail(ctx, tokenIn(t, conf.Body, "confirm")); err != nil {
			t.Fatalf("a second click on the link: %v, want it confirmed again", err)
		}
		if err := svc.ConfirmEmail(ctx, "x"+tokenIn(t, conf.Body, "confirm")[1:]); !errors.Is(err, game.ErrBadMailToken) {
			t.Fatalf("a forged token: %v", err)
		}
		w.sweep(svc, 24*time.Hour+time.Minute)
		msgs := srv.Wait(2, 10*time.Second)
		if len(msgs) != 2 {
			t.Fatalf("%d mails a day after confirming with the turn waiting, want the digest", len(msgs))
		}
		d := msgs[1]
		for _, h := range []string{"From", "To", "Subject", "Date", "Message-Id", "List-Unsubscribe", "List-Unsubscribe-Post"} {
			if d.Header.Get(h) == "" {
				t.Errorf("the digest has no %s", h)
			}
		}
		if got := d.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
			t.Errorf("List-Unsubscribe-Post %q", got)
		}
		if subj := decodeSubject(t, d.Header.Get("Subject")); !strings.Contains(subj, "aspetta la tua mossa") {
			t.Errorf("the digest's subject %q", subj)
		}
		for _, want := range []string{"Five Up con Bea", "http://example.test/game.html#" + id, "tocca a te da"} {
			if !strings.Contains(d.Body, want) {
				t.Errorf("the digest does not say %q:\n%s", want, d.Body)
			}
		}
		w.sweep(svc, 2*time.Hour)
		if n := len(srv.Messages()); n != 2 {
			t.Fatalf("%d mails two hours after the digest, want no second one", n)
		}
		w.sweep(svc, 23*time.Hour)
		if n := len(srv.Wait(3, 10*time.Second)); n != 3 {
			t.Fatalf("%d mails a day after the digest with the turn still waiting, want the next", n)
		}
		// One click (RFC 8058): the URL of List-Unsubscribe, no key.
		u, err := url.Parse(strings.Trim(d.Header.Get("List-Unsubscribe"), "<>"))
		if err != nil || u.Path != "/api/me/email/unsubscribe" {
			t.Fatalf("List-Unsubscribe %q", d.Header.Get("List-Unsubscribe"))
		}
		if err := svc.Unsubscribe(ctx, u.Query().Get("token")); err != nil {
			t.Fatal(err)
		}
		if mine, err := svc.MyGames(ctx, ana); err != nil || mine.Email == nil || mine.Email.Digest || !mine.Email.Confirmed {
			t.Fatalf("after unsubscribing: %+v, %v", mine.Email, err)
		}
		w.sweep(svc, 50*time.Hour)
		if n := len(srv.Messages()); n != 3 {
			t.Fatalf("%d mails after unsubscribing, want none more", n)
		}
		// The mail's own link (the page's) carries the same token.
		if tokenIn(t, d.Body, "unsubscribe") != u.Query().Get("token") {
			t.Error("the body's link and the header's carry different tokens")
		}
	})
}

func decodeSubject(t *testing.T, s string) string {
	t.Helper()
	out, err := new(mime.WordDecoder).DecodeHeader(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNoDigestWhenPushOrAPageOrAVacationReachedThem: a notification
// taken since the turn began, or the game's page open (a watch lease), or
// a vacation holds the digest back; an English key's digest is English
// and tells the clock's deadline.
func TestNoDigestWhenPushOrAPageOrAVacationReachedThem(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc, srv := w.mailService(t)
	ctx := t.Context()
	id, tokens := seatTwo(t, svc, false, 3*24*3600, 250)
	untilTurnOf(t, svc, id, 1, tokens)
	bea := game.HashToken(tokens[1])
	confirmAddress(t, svc, srv, tokens[1], "bea@example.com", game.LangEN, 1)

	// A device took a notification after the turn began: no digest.
	if err := svc.UpdatePlayer(ctx, bea, func(p *game.Record) bool { p.Mail.LastPush = w.clock.Now().Unix(); return true }); err != nil {
		t.Fatal(err)
	}
	w.sweep(svc, 24*time.Hour+time.Minute)
	if n := len(srv.Messages()); n != 1 {
		t.Fatalf("%d mails though a device took the turn's notification", n)
	}
	// Ana moves (Bea's turn again, later than the push) and Bea takes a
	// vacation: still none.
	untilTurnOf(t, svc, id, 0, tokens)
	untilTurnOf(t, svc, id, 1, tokens)
	if _, err := svc.com.TakeVacation(ctx, bea, 3); err != nil {
		t.Fatal(err)
	}
	w.sweep(svc, 25*time.Hour)
	w.sweep(svc, 25*time.Hour)
	if n := len(srv.Messages()); n != 1 {
		t.Fatalf("%d mails during a vacation", n)
	}
	if _, err := svc.com.EndVacation(ctx, bea); err != nil {
		t.Fatal(err)
	}
	w.sweep(svc, 25*time.Hour)
	w.sweep(svc, 25*time.Hour)
	msgs := srv.Wait(2, 10*time.Second)
	if len(msgs) != 2 {
		t.Fatalf("%d mails after the vacation with the turn waiting two days", len(msgs))
	}
	d := msgs[1]
	for _, want := range []string{"A game is waiting for your move", "Five Up with Ana", "left (until", "http://example.test/game.html#" + id} {
		if !strings.Contains(d.Body, want) {
			t.Errorf("the English digest does not say %q:\n%s", want, d.Body)
		}
	}
	// The game's page open on Bea's device (its watch lease) when the
	// next digest falls due: none.
	untilTurnOf(t, svc, id, 0, tokens)
	untilTurnOf(t, svc, id, 1, tokens)
	w.clock.Add(23 * time.Hour)
	if _, err := svc.Watch(ctx, id, tokens[1], "https://push.example.test/bea"); err != nil {
		t.Fatal(err)
	}
	w.sweep(svc, time.Hour+time.Minute)
	if n := len(srv.Messages()); n != 2 {
		t.Fatalf("%d mails with the game's page open", n)
	}
}

// TestConfirmationMailsAreLimited: three a day per key and per address;
// a malformed address is refused; removing the address keeps the count.
func TestConfirmationMailsAreLimited(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc, srv := w.mailService(t)
	ctx := t.Context()
	ana, bea := game.HashToken(pathKey("ana")), game.HashToken(pathKey("bea"))
	for _, bad := range []string{"", "ana", "ana@", "@example.com", "Ana <ana@example.com>", "ana@example", "a b@example.com", strings.Repeat("a", 250) + "@example.com"} {
		if err := svc.SetEmail(ctx, ana, bad, game.LangEN, "http://example.test"); err == nil || errors.Is(err, game.ErrTooManyMails) {
			t.Errorf("address %q: %v, want refused as malformed", bad, err)
		}
	}
	for i := range 3 {
		if err := svc.SetEmail(ctx, ana, "ana@example.com", game.LangEN, "http://example.test"); err != nil {
			t.Fatalf("mail %d: %v", i+1, err)
		}
	}
	// The first links were replaced by the third: they confirm nothing.
	first := srv.Wait(3, 10*time.Second)[0]
	if err := svc.ConfirmEmail(ctx, tokenIn(t, first.Body, "confirm")); !errors.Is(err, game.ErrBadMailToken) {
		t.Fatalf("a replaced link: %v", err)
	}
	if mine, err := svc.MyGames(ctx, ana); err != nil || mine.Email == nil || mine.Email.Confirmed {
		t.Fatalf("a replaced link confirmed %+v (%v)", mine.Email, err)
	}
	if err := svc.DeleteEmail(ctx, ana); err != nil {
		t.Fatal(err)
	}
	if err := svc.SetEmail(ctx, ana, "other@example.com", game.LangEN, "http://example.test"); !errors.Is(err, game.ErrTooManyMails) {
		t.Fatalf("a key's fourth mail of the day: %v", err)
	}
	if err := svc.SetEmail(ctx, bea, "ANA@example.com", game.LangEN, "http://example.test"); !errors.Is(err, game.ErrTooManyMails) {
		t.Fatalf("an address's fourth mail of the day from another key: %v", err)
	}
	if n := len(srv.Wait(3, 10*time.Second)); n != 3 {
		t.Fatalf("%d confirmation mails, want 3", n)
	}
	w.clock.Add(24 * time.Hour)
	if err := svc.SetEmail(ctx, bea, "ana@example.com", game.LangEN, "http://example.test"); err != nil {
		t.Fatalf("the next day: %v", err)
	}

}

// TestForgettingAKeyForgetsItsAddress: no digest when nothing waits; the
// export shows the address to its owner; forgetting the key removes it.
func TestForgettingAKeyForgetsItsAddress(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc, srv := w.mailService(t)
	ctx := t.Context()
	key := pathKey("ana")
	confirmAddress(t, svc, srv, key, "ana@example.com", game.LangEN, 1)
	w.sweep(svc, 25*time.Hour)
	if n := len(srv.Messages()); n != 1 {
		t.Fatalf("%d mails to a key with no game waiting, want the confirmation alone", n)
	}
	out, err := svc.com.Export(ctx, game.HashToken(key))
	if err != nil || out.Record.Email == nil || out.Record.Email.Address != "ana@example.com" || !out.Record.Email.Digest {
		t.Fatalf("the export's email: %+v, %v", out.Record.Email, err)
	}
	if err := svc.com.Forget(ctx, pathOp, game.HashToken(key)); err != nil {
		t.Fatal(err)
	}
	mine, err := svc.MyGames(ctx, game.HashToken(key))
	if err != nil || mine.Email != nil {
		t.Fatalf("after forgetting: %+v, %v", mine.Email, err)
	}
	rec, _, err := svc.LoadPlayer(ctx, game.HashToken(key))
	if err != nil || rec.Mail.Addr != "" {
		t.Fatalf("the record after forgetting still holds %q (%v)", rec.Mail.Addr, err)
	}
}

// TestABouncedAddressGetsNoMore: SES's bounce or complaint (Suppress)
// stops the digest of a confirmed address, which its owner then sees off,
// and no key may give the address again for a year.
func TestABouncedAddressGetsNoMore(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc, srv := w.mailService(t)
	ctx := t.Context()
	id, tokens := seatTwo(t, svc, false, 0, 250)
	untilTurnOf(t, svc, id, 0, tokens)
	confirmAddress(t, svc, srv, tokens[0], "ana@example.com", game.LangEN, 1)
	if err := svc.Suppress(ctx, "Ana@Example.com"); err != nil {
		t.Fatal(err)
	}
	w.sweep(svc, 25*time.Hour)
	if n := len(srv.Messages()); n != 1 {
		t.Fatalf("%d mails to a bounced address", n)
	}
	if mine, err := svc.MyGames(ctx, game.HashToken(tokens[0])); err != nil || mine.Email == nil || mine.Email.Digest {
		t.Fatalf("after the bounce: %+v, %v; want the digest off", mine.Email, err)
	}
	if err := svc.SetEmail(ctx, game.HashToken(tokens[1]), "ana@example.com", game.LangEN, "http://example.test"); !errors.Is(err, game.ErrSuppressed) {
		t.Fatalf("giving a bounced address: %v", err)
	}
	w.clock.Add(game.SuppressFor)
	if err := svc.SetEmail(ctx, game.HashToken(tokens[1]), "ana@example.com", game.LangEN, "http://example.test"); err != nil {
		t.Fatalf("a year on: %v", err)
	}
}

// TestATurnIsToldAPeriodAfterItBegan: a check that finds nothing waiting
// looks again a period later; a turn that began meanwhile, not yet a
// period old then, is told when it is (not a whole period later).
func TestATurnIsToldAPeriodAfterItBegan(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc, srv := w.mailService(t)
	id, tokens := seatTwo(t, svc, false, 0, 250)
	untilTurnOf(t, svc, id, 1, tokens) // Bea's turn: nothing waits for Ana
	confirmAddress(t, svc, srv, tokens[0], "ana@example.com", game.LangEN, 1)
	w.sweep(svc, 24*time.Hour+time.Minute) // the first check: nothing waits
	w.clock.Add(3 * time.Hour)
	untilTurnOf(t, svc, id, 0, tokens)     // Ana's turn begins
	w.sweep(svc, 21*time.Hour+time.Minute) // the second check, a period after the first: the turn is 21 h old
	if n := len(srv.Messages()); n != 1 {
		t.Fatalf("%d mails at the check after the turn began (21 h old), want none yet", n)
	}
	w.sweep(svc, 3*time.Hour) // the turn is a day old
	if n := len(srv.Wait(2, 10*time.Second)); n != 2 {
		t.Fatalf("%d mails once the turn is a day old, want the digest", n)
	}
}
