package smtpmail

import (
	"bytes"
	"context"
	"mime"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"tessera/functions/mail"
	"tessera/functions/mail/smtptest"
)

// A message sent through SMTP arrives as its headers and body say, with
// the one-click unsubscribe headers, an encoded subject and a body of
// non-ASCII text and long lines intact.
func TestSMTPDeliversTheMessage(t *testing.T) {
	srv, err := smtptest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	body := "Tocca a te — «Cinque» con Bea.\n" + strings.Repeat("lungo ", 30) + "\n.\nfine"
	s := SMTP{Addr: srv.Addr, From: "Tessera <tessera@example.org>", Now: func() time.Time { return now }}
	err = s.Send(context.Background(), mail.Message{To: "ana@example.com", Subject: "Tessera: è il tuo turno", Body: body,
		Unsubscribe: "https://example.org/api/me/email/unsubscribe?token=abc", Lang: "it"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := srv.Wait(1, 10*time.Second)
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.From != "tessera@example.org" || len(m.To) != 1 || m.To[0] != "ana@example.com" {
		t.Errorf("envelope from %q to %v", m.From, m.To)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil || subject != "Tessera: è il tuo turno" {
		t.Errorf("subject %q (%v)", subject, err)
	}
	if d, err := netmail.ParseDate(m.Header.Get("Date")); err != nil || !d.Equal(now) {
		t.Errorf("date %q", m.Header.Get("Date"))
	}
	want := map[string]string{"From": `"Tessera" <tessera@example.org>`, "To": "<ana@example.com>",
		"List-Unsubscribe": "<https://example.org/api/me/email/unsubscribe?token=abc>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
		"Content-Type": "text/plain; charset=utf-8", "Content-Language": "it"}
	for k, v := range want {
		if got := m.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if id := m.Header.Get("Message-Id"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@example.org>") {
		t.Errorf("Message-ID %q", id)
	}
	if strings.TrimRight(m.Body, "\n") != body {
		t.Errorf("body %q, want %q", m.Body, body)
	}
	for _, line := range bytes.Split(m.Raw, []byte("\r\n")) {
		if len(line) > 78 {
			t.Errorf("a line of %d bytes: %q", len(line), line)
		}
	}
}
