package api

import (
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/functions/mail/smtpmail"
	"tessera/functions/mail/smtptest"
	"tessera/functions/store/memory"
)

// The email routes' transport (issue 46): status codes, JSON shapes, the
// key, the one-click POST. What the digest says is the service's
// (functions/community/mail_test.go).

func TestEmailIsOffWithoutAMailServer(t *testing.T) {
	s := newServer(t, memory.New(), 401)
	r := s.do("PUT", "/api/me/email", `{"email":"ana@example.com"}`, keyAna)
	if r.status != 409 || codeOf(r) != "email_off" || !strings.Contains(mustError(t, r).Error.Message, "SMTP_ADDR") {
		t.Fatalf("PUT with email off: %d %s, want 409 email_off naming SMTP_ADDR", r.status, r.body)
	}
	if r := s.do("DELETE", "/api/me/email", "", keyAna); r.status != 204 {
		t.Fatalf("DELETE with email off: %d %s", r.status, r.body)
	}
}

func TestEmailRoutes(t *testing.T) {
	srv, err := smtptest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	logs := &logBuffer{}
	st := memory.New()
	h := New(Config{Store: st, Logger: slog.New(slog.NewJSONHandler(logs, nil)), Now: func() time.Time { return fixedNow },
		Rand: seededReader(402), Mail: smtpmail.SMTP{Addr: srv.Addr, From: "Tessera <t@example.test>"}})
	s := &server{t: t, h: h, store: st, logs: logs}

	for _, c := range []struct{ name, body, token string }{
		{"no key", `{"email":"ana@example.com"}`, ""},
	} {
		if r := s.do("PUT", "/api/me/email", c.body, c.token); r.status != 401 {
			t.Errorf("%s: %d %s", c.name, r.status, r.body)
		}
	}
	for _, body := range []string{`{`, `{"email":"ana"}`, `{"email":"Ana <ana@example.com>"}`, `{"email":5}`,
		`{}`, `{"email":"ana@example.com","digest":true}`, `{"email":"ana@example.com","x":1}`, `{"email":"ana@example.com","lang":"fr"}`} {
		if r := s.do("PUT", "/api/me/email", body, keyAna); r.status != 400 || codeOf(r) != "bad_request" {
			t.Errorf("PUT %s: %d %s, want 400 bad_request", body, r.status, r.body)
		}
	}
	if r := s.do("PUT", "/api/me/email", `{"digest":true}`, keyAna); r.status != 409 || codeOf(r) != "not_eligible" {
		t.Errorf("the digest on with no address: %d %s", r.status, r.body)
	}
	if r := s.do("PUT", "/api/me/email", `{"email":"ana@example.com"}`, keyAna, "Accept-Language", "it-IT,it;q=0.9"); r.status != 202 {
		t.Fatalf("PUT: %d %s", r.status, r.body)
	}
	msgs := srv.Wait(1, 10*time.Second)
	if len(msgs) != 1 || !strings.Contains(msgs[0].Body, "Per confermare") || !strings.Contains(msgs[0].Body, "http://example.com/?confirm=") {
		t.Fatalf("the confirmation (Italian from Accept-Language, to the request's site): %+v", msgs)
	}
	if strings.Contains(logs.String(), "ana@example.com") {
		t.Error("the address is in a log line")
	}
	me := func() string {
		r := s.do("GET", "/api/me", "", keyAna)
		var out struct {
			Email json.RawMessage `json:"email"`
		}
		if err := json.Unmarshal(r.body, &out); err != nil || r.status != 200 {
			t.Fatalf("GET /api/me: %d %s", r.status, r.body)
		}
		return string(out.Email)
	}
	if got := me(); got != `{"address":"a***@example.com","confirmed":false,"digest":false}` {
		t.Fatalf("/api/me's email before confirming: %s", got)
	}
	if got := string(s.do("GET", "/api/me", "", keyBea).body); !strings.Contains(got, `"email":null`) || strings.Contains(got, "example.com") {
		t.Fatalf("another key's /api/me: %s", got)
	}
	token := regexp.MustCompile(`confirm=([A-Za-z0-9_-]+)`).FindStringSubmatch(msgs[0].Body)[1]
	for _, body := range []string{`{}`, `{"token":5}`} {
		if r := s.do("POST", "/api/me/email/confirm", body, ""); r.status != 400 {
			t.Errorf("confirm %s: %d %s", body, r.status, r.body)
		}
	}
	if r := s.do("POST", "/api/me/email/confirm", `{"token":"AAAA"}`, ""); r.status != 404 || codeOf(r) != "not_found" {
		t.Errorf("confirm with a token naming nothing: %d %s", r.status, r.body)
	}
	for range 2 {
		if r := s.do("POST", "/api/me/email/confirm", `{"token":"`+token+`"}`, ""); r.status != 204 {
			t.Fatalf("confirm: %d %s", r.status, r.body)
		}
	}
	if got := me(); got != `{"address":"a***@example.com","confirmed":true,"digest":true}` {
		t.Fatalf("/api/me's email after confirming: %s", got)
	}
	if r := s.do("GET", "/api/me/email/confirm", "", ""); r.status != 405 {
		t.Errorf("GET confirm: %d", r.status)
	}
	// The one-click POST (RFC 8058) needs no key; its token is in the
	// digest's List-Unsubscribe, the same shape as the confirmation's
	// (the service's test reads it from a digest).
	if r := s.do("POST", "/api/me/email/unsubscribe", "List-Unsubscribe=One-Click", ""); r.status != 400 {
		t.Errorf("unsubscribe without a token: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/me/email/unsubscribe?token="+token, "List-Unsubscribe=One-Click", "", "Content-Type", "application/x-www-form-urlencoded"); r.status != 404 {
		t.Errorf("unsubscribe with the confirmation's token: %d %s, want 404 (each link its own secret)", r.status, r.body)
	}
	if r := s.do("PUT", "/api/me/email", `{"digest":false}`, keyAna); r.status != 204 {
		t.Fatalf("the digest off: %d %s", r.status, r.body)
	}
	if got := me(); got != `{"address":"a***@example.com","confirmed":true,"digest":false}` {
		t.Fatalf("/api/me's email with the digest off: %s", got)
	}
	r := s.do("GET", "/api/me/export", "", keyAna)
	if r.status != 200 || !strings.Contains(string(r.body), `"address":"ana@example.com"`) {
		t.Fatalf("the owner's export: %d %s", r.status, r.body)
	}
	if r := s.do("DELETE", "/api/me/email", "", keyAna); r.status != 204 {
		t.Fatalf("DELETE: %d %s", r.status, r.body)
	}
	if got := me(); got != "null" {
		t.Fatalf("/api/me's email after DELETE: %s", got)
	}
	for i := range 3 {
		want := 202
		if i == 2 {
			want = 429
		}
		if r := s.do("PUT", "/api/me/email", `{"email":"ana@example.com","lang":"en"}`, keyAna); r.status != want || (want == 429 && (codeOf(r) != "rate_limited" || r.header.Get("Retry-After") == "")) {
			t.Fatalf("confirmation mail %d of the day: %d %s %v", i+2, r.status, r.body, r.header)
		}
	}
}
