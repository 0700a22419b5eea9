package api

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/store/memory"
	"tessera/internal/testenv"
)

// unpack undoes a pushed view's packing (gzip, base64), as watch.js does.
func unpack(t *testing.T, b64 string) []byte {
	t.Helper()
	z, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A page that watches its game (PUT /api/games/{id}/watch, docs/watch.md)
// is pushed every move (its own seat's too, for its other devices), each with its seat's view exactly
// as a GET answers it and that answer's ETag; a device that does not
// watch hears only its turns, never a view; DELETE ends the watch with
// the endpoint alone, and a lease not renewed ends after game.WatchLease.
// The watch item lives until its last lease ends. Bad input first.
func TestAWatchedPageHearsEveryMove(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	mem := memory.New()
	s, clock := newClockPushServer(t, mem, 401)
	keyCy := testKey("cy")
	vapid := s.vapidKey()
	subs, hashes := map[string]string{}, map[string]string{}
	for _, k := range []string{keyAna, keyBea, keyCy} {
		subs[k], hashes[k] = svc.subscribe(vapid)
		if r := s.do("PUT", "/api/me/push", subs[k], k); r.status != 204 {
			t.Fatalf("PUT /api/me/push: %d %s", r.status, r.body)
		}
	}
	var sub struct {
		Endpoint string `json:"endpoint"`
	}
	json.Unmarshal([]byte(subs[keyCy]), &sub)
	watchBody := `{"endpoint":"` + sub.Endpoint + `"}`
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":3,"target":250,"name":"Ana","key":"`+keyAna+`"}`, "")
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	id := mustView(t, a.Game).ID
	for i, k := range []string{keyBea, keyCy} {
		if r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"`+[]string{"Bea", "Cy"}[i]+`","key":"`+k+`"}`, ""); r.status != 201 {
			t.Fatalf("join: %d %s", r.status, r.body)
		}
	}
	for _, c := range []struct {
		method, path, body, token string
		status                    int
	}{
		{"PUT", "/api/games/" + id + "/watch", `{}`, keyCy, 400},
		{"PUT", "/api/games/" + id + "/watch", `{"endpoint":"ftp://x"}`, keyCy, 400},
		// Checked as a push device's endpoint is (issue 43).
		{"PUT", "/api/games/" + id + "/watch", `{"endpoint":"http://169.254.169.254/latest"}`, keyCy, 400},
		{"PUT", "/api/games/" + id + "/watch", `{"endpoint":"https://user:pw@push.example/x"}`, keyCy, 400},
		{"PUT", "/api/games/" + id + "/watch", `{"endpoint":"https://10.0.0.7/x"}`, keyCy, 400},
		{"PUT", "/api/games/" + id + "/watch", `{"endpoint":"https://x","more":1}`, keyCy, 400},
		{"PUT", "/api/games/" + id + "/watch", `not json`, keyCy, 400},
		{"PUT", "/api/games/aaaaaaaaaaaaaaaa/watch", watchBody, keyCy, 404},
		{"PUT", "/api/games/" + id + "/watch", watchBody, testKey("nobody"), 401},
		{"PUT", "/api/games/" + id + "/watch", watchBody, "", 401},
		{"GET", "/api/games/" + id + "/watch", "", keyCy, 405},
		{"DELETE", "/api/games/" + id + "/watch", watchBody, "", 204}, // nothing to end
	} {
		if r := s.do(c.method, c.path, c.body, c.token); r.status != c.status {
			t.Errorf("%s %s %s: %d %s, want %d", c.method, c.path, c.body, r.status, r.body, c.status)
		}
	}
	if _, err := mem.Load(t.Context(), game.WatchItemID(id)); err == nil {
		t.Fatal("bad input wrote a watch")
	}
	r = s.do("PUT", "/api/games/"+id+"/watch", watchBody, keyCy)
	var w struct {
		Until string `json:"until"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &w) != nil || w.Until != clock.Now().Add(game.WatchLease).UTC().Format(time.RFC3339) {
		t.Fatalf("PUT watch: %d %s", r.status, r.body)
	}
	if item, err := mem.Load(t.Context(), game.WatchItemID(id)); err != nil || !item.Expires.Equal(clock.Now().Add(game.WatchLease).Truncate(time.Second)) {
		t.Fatalf("the watch item: %+v %v, want it to expire with its lease", item, err)
	}
	keys := []string{keyAna, keyBea, keyCy}
	// play makes n moves, Cy's among them: his watching device hears of
	// every one (his own from another device too).
	played := map[int]bool{} // versions made
	play := func(n int) {
		t.Helper()
		for range n {
			v := s.poll(id, keyAna)
			if v.Status != "playing" {
				t.Fatal("the match ended early")
			}
			actor := *v.Hand.Turn
			you := s.poll(id, keys[actor]).You
			body := `{"version":` + itoa(v.Version) + `,"type":"draw"}`
			if len(you.Legal) > 0 {
				lm := you.Legal[0]
				body = `{"version":` + itoa(v.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` +
					itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
			}
			if r := s.do("POST", "/api/games/"+id+"/moves", body, keys[actor]); r.status != 200 {
				t.Fatalf("move: %d %s", r.status, r.body)
			}
			played[int(v.Version)+1] = true
		}
	}
	play(8)
	got := svc.received(hashes[keyCy])
	views := 0
	for _, m := range got {
		if m.View == "" {
			if m.Kind != "turn" {
				t.Errorf("a push without a view to a watching device: %+v", m)
			}
			continue
		}
		views++
		if !played[int(m.Version)] {
			t.Errorf("version %d pushed to the watching device, not a move made", m.Version)
		}
		// Only its own seat's view: its hand, no one else's (the leak rule).
		var pv struct {
			Version int64 `json:"version"`
			You     *struct {
				Seat  int     `json:"seat"`
				Tiles [][]int `json:"tiles"`
			} `json:"you"`
		}
		if err := json.Unmarshal(unpack(t, m.View), &pv); err != nil || pv.You == nil || pv.You.Seat != 2 || pv.Version != m.Version {
			t.Errorf("a pushed view that is not Cy's seat's at its version: %s", unpack(t, m.View))
		}
		if m.Kind != "move" && m.Kind != "turn" {
			t.Errorf("kind %q", m.Kind)
		}
		if m.Kind == "move" && (m.Title == "" || m.Body != "The game moved on.") {
			t.Errorf("a move push's words (shown only when no page shows the game): %q %q", m.Title, m.Body)
		}
	}
	if views != len(played) {
		t.Fatalf("the watching device got %d views for %d moves: %+v", views, len(played), got)
	}
	// The last view pushed is the GET's, byte for byte, with its ETag.
	last := got[len(got)-1]
	g := s.do("GET", "/api/games/"+id, "", keyCy)
	if mustView(t, g.body).Version != last.Version || !bytes.Equal(bytes.TrimSpace(unpack(t, last.View)), bytes.TrimSpace(g.body)) || last.ETag != g.header.Get("ETag") {
		t.Errorf("the pushed view is not the GET's:\n%s\n%s\n%s %s", unpack(t, last.View), g.body, last.ETag, g.header.Get("ETag"))
	}
	// No one else watches: Ana and Bea hear their turns only, no view.
	for _, k := range []string{keyAna, keyBea} {
		for _, m := range svc.received(hashes[k]) {
			if m.View != "" || m.Kind != "turn" {
				t.Errorf("a device that does not watch got %+v", m)
			}
		}
	}
	// heard is what Cy's device received while n more moves were made.
	heard := func(n int) []game.Message {
		before := len(svc.received(hashes[keyCy]))
		play(n)
		return svc.received(hashes[keyCy])[before:]
	}
	rewatch := func() {
		t.Helper()
		if r := s.do("PUT", "/api/games/"+id+"/watch", watchBody, keyCy); r.status != 200 {
			t.Fatalf("PUT watch again: %d %s", r.status, r.body)
		}
	}
	// DELETE ends the watch: no more views.
	if r := s.do("DELETE", "/api/games/"+id+"/watch", watchBody, ""); r.status != 204 {
		t.Fatalf("DELETE watch: %d %s", r.status, r.body)
	}
	for _, m := range heard(4) {
		if m.View != "" {
			t.Errorf("a view after the watch ended: %+v", m)
		}
	}
	// A lease not renewed ends by itself.
	rewatch()
	clock.Add(game.WatchLease + time.Second)
	for _, m := range heard(4) {
		if m.View != "" {
			t.Errorf("a view after the lease ended: %+v", m)
		}
	}
	// On vacation (no push but the end, API.md), a watching page still
	// gets the views, as kind "move": never a notification.
	rewatch()
	s.vacation("POST", `{"days":2}`, keyCy, 200)
	after := heard(4)
	if len(after) == 0 {
		t.Fatal("no view on vacation")
	}
	for _, m := range after {
		if m.Kind != "move" || m.View == "" {
			t.Errorf("on vacation the watching device got %q (view %v), want views as kind move only", m.Kind, m.View != "")
		}
	}
	for _, k := range keys {
		for _, m := range svc.received(hashes[k]) {
			if strings.Contains(m.Title+m.Body+m.View, k) {
				t.Errorf("a push holds a key")
			}
		}
	}
}

// The page that moves says which device it is ("device", its push
// endpoint): its watch is not pushed the move it has the answer to (issue
// 45: a quarter of a match's pushes went back to their mover), while the
// same player's other watching device still is; without "device" both
// are. A device named by another seat's move skips nothing. A device
// that is not a push endpoint is 400.
func TestTheMoversOwnPageIsNotPushedItsMove(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	s, _ := newClockPushServer(t, memory.New(), 402)
	vapid := s.vapidKey()
	endpoints, hashes := [2]string{}, [2]string{}
	for i := range 2 { // Ana's phone and her laptop
		sub, hash := svc.subscribe(vapid)
		if r := s.do("PUT", "/api/me/push", sub, keyAna); r.status != 204 {
			t.Fatalf("PUT /api/me/push: %d %s", r.status, r.body)
		}
		var e struct {
			Endpoint string `json:"endpoint"`
		}
		json.Unmarshal([]byte(sub), &e)
		endpoints[i], hashes[i] = e.Endpoint, hash
	}
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"target":250,"name":"Ana","key":"`+keyAna+`"}`, "")
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	id := mustView(t, a.Game).ID
	if r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, ""); r.status != 201 {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	for _, e := range endpoints {
		if r := s.do("PUT", "/api/games/"+id+"/watch", `{"endpoint":"`+e+`"}`, keyAna); r.status != 200 {
			t.Fatalf("PUT watch: %d %s", r.status, r.body)
		}
	}
	keys := []string{keyAna, keyBea}
	// move makes the next move, with device when it is Ana's; it answers
	// the version made and whether it was Ana's.
	move := func(device string) (int64, bool) {
		t.Helper()
		v := s.poll(id, keyAna)
		actor := *v.Hand.Turn
		you := s.poll(id, keys[actor]).You
		body := `{"version":` + itoa(v.Version) + `,"type":"draw"`
		if len(you.Legal) > 0 {
			lm := you.Legal[0]
			body = `{"version":` + itoa(v.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` +
				itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"`
		}
		if device != "" { // Bea names Ana's phone too: nothing to skip for her
			body += `,"device":"` + device + `"`
		}
		if r := s.do("POST", "/api/games/"+id+"/moves", body+`}`, keys[actor]); r.status != 200 {
			t.Fatalf("move %s: %d %s", body, r.status, r.body)
		}
		return v.Version + 1, actor == 0
	}
	versions := func(hash string) map[int64]bool {
		got := map[int64]bool{}
		for _, m := range svc.received(hash) {
			if m.View != "" {
				got[m.Version] = true
			}
		}
		return got
	}
	mine, theirs := 0, 0
	for range 12 {
		version, ana := move(endpoints[0])
		phone, laptop := versions(hashes[0]), versions(hashes[1])
		switch {
		case ana && (phone[version] || !laptop[version]):
			t.Errorf("Ana's move %d from her phone: phone pushed %v, laptop %v; want the laptop only", version, phone[version], laptop[version])
		case !ana && (!phone[version] || !laptop[version]):
			t.Errorf("Bea's move %d: phone pushed %v, laptop %v; want both", version, phone[version], laptop[version])
		}
		if ana {
			mine++
		} else {
			theirs++
		}
	}
	if mine == 0 || theirs == 0 {
		t.Fatalf("%d moves of Ana's, %d of Bea's: the test needs both", mine, theirs)
	}
	// Without device, both of Ana's devices hear her move.
	for {
		version, ana := move("")
		if ana {
			if !versions(hashes[0])[version] || !versions(hashes[1])[version] {
				t.Errorf("Ana's move %d without device: not pushed to both her pages", version)
			}
			break
		}
	}
	v := s.poll(id, keyAna)
	for _, bad := range []string{`""`, `"` + strings.Repeat("x", 3000) + `"`, `7`} {
		body := `{"version":` + itoa(v.Version) + `,"type":"away","device":` + bad + `}`
		if r := s.do("POST", "/api/games/"+id+"/moves", body, keys[*v.Hand.Turn]); r.status != 400 {
			t.Errorf("device %.20s: %d %s, want 400", bad, r.status, r.body)
		}
	}
}
