package api

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"tessera/internal/testenv"

	"tessera/functions/community"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// Forget me and take my data (docs/forgetting.md): a person with a
// profile, a device, games (one played on after), table talk, a league
// it runs, a tournament, a report it filed and one about it, a place on a
// leaderboard's list of mutes. The export holds all of it; after DELETE
// /api/me, a read of every stored item finds nothing that identifies it
// (its key, the key's hash, its name, its words, its device, its note),
// no item is named by its player id and no seat holds it; the other
// players' game goes on with the seat under an anonymous name, played by
// the computer, its talk shown as deleted; the same DELETE again is 204.
func TestForgetMe(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	mem := memory.New()
	s, _ := newClockPushServer(t, mem, 390)
	zel, bea := testKey("zelinda"), testKey("bea")
	for k, name := range map[string]string{zel: "Zelinda", bea: "Bea"} {
		if r := s.do("PUT", "/api/me/profile", `{"name":"`+name+`"}`, k); r.status != 200 {
			t.Fatal(r.status)
		}
	}
	sub, _ := svc.subscribe(s.vapidKey())
	var device struct {
		Endpoint string `json:"endpoint"`
	}
	json.Unmarshal([]byte(sub), &device)
	if r := s.do("PUT", "/api/me/push", sub, zel); r.status != 204 {
		t.Fatalf("device: %d %s", r.status, r.body)
	}
	pz, pb := s.playerOf(zel), s.playerOf(bea)
	// A game with Bea, talk, a second game.
	id, _, _ := s.create(`{"variant":"fiveup","players":2,"redeal":false,"name":"Zelinda","key":"` + zel + `"}`)
	s.join(id, `{"name":"Bea","key":"`+bea+`"}`)
	s.do("POST", "/api/games/"+id+"/chat", `{"text":"zelinda-secret-words"}`, zel)
	s.do("POST", "/api/games/"+id+"/chat", `{"text":"ciao"}`, bea)
	s.create(`{"variant":"block","players":2,"name":"Zelinda","key":"` + zel + `","bots":[{"seat":1,"level":"easy"}]}`)
	// A league she runs, Bea in it; a tournament she made and entered.
	r := s.do("POST", "/api/leagues", `{"name":"Lega del venerdì","variant":"fiveup"}`, zel)
	var league struct {
		League struct{ ID string } `json:"league"`
		Invite string              `json:"invite"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &league) != nil {
		t.Fatalf("league: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/leagues/"+league.League.ID+"/members", `{"invite":"`+league.Invite+`"}`, bea); r.status != 201 && r.status != 200 {
		t.Fatalf("join the league: %d %s", r.status, r.body)
	}
	r = s.do("POST", "/api/tournaments", `{"name":"Coppa","format":"swiss","rounds":2,"variant":"fiveup","players":2,"target":10,"moveTime":86400,"roundTime":604800,"size":8,"listed":true}`, zel)
	var tour struct {
		Tournament struct{ ID string } `json:"tournament"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &tour) != nil {
		t.Fatalf("tournament: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/tournaments/"+tour.Tournament.ID+"/entries", `{}`, zel); r.status != 201 {
		t.Fatalf("enter: %d %s", r.status, r.body)
	}
	// Reports both ways; Bea mutes her.
	if r := s.do("POST", "/api/reports", `{"player":"`+pb+`","what":"player","note":"zelinda-note"}`, zel); r.status != 201 {
		t.Fatalf("her report: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/reports", `{"player":"`+pz+`","what":"message","game":"`+id+`","seq":1,"note":"Zelinda was rude"}`, bea); r.status != 201 {
		t.Fatalf("a report about her: %d %s", r.status, r.body)
	}
	s.do("PUT", "/api/me/mutes/"+pz, "", bea)

	// The export.
	r = s.do("GET", "/api/me/export", "", zel)
	if r.status != 200 {
		t.Fatalf("export: %d %s", r.status, r.body)
	}
	for _, want := range []string{"Zelinda", device.Endpoint, "zelinda-secret-words", "Lega del venerdì", `"name":"Coppa"`, "zelinda-note", id} {
		if !strings.Contains(string(r.body), want) {
			t.Errorf("the export lacks %q: %s", want, r.body)
		}
	}
	if strings.Contains(string(r.body), "ciao") {
		t.Error("the export holds another player's words")
	}
	// Described exactly (issue 43): one key style, dates in ISO 8601.
	conformsTo(t, "Export", r.body)
	for _, goKey := range []string{`"Budget"`, `"ID"`, `"Lines"`, `"Member"`} {
		if strings.Contains(string(r.body), goKey) {
			t.Errorf("the export has Go's key %s", goKey)
		}
	}
	var spoiled any
	_ = json.Unmarshal([]byte(strings.Replace(string(r.body), `"exportedAt"`, `"ExportedAt"`, 1)), &spoiled)
	if doc := loadOpenAPI(t); doc.ValidateSchemaJSON(doc.Components.Schemas["Export"].Value, spoiled) == nil {
		t.Error("an export with a Go key still validates: the check proves nothing")
	}
	if r := s.do("GET", "/api/me/export", "", ""); r.status != 401 {
		t.Fatalf("export without a key: %d", r.status)
	}

	// Forgotten.
	for range 2 {
		if r := s.do("DELETE", "/api/me", "", zel); r.status != 204 {
			t.Fatalf("forget: %d %s", r.status, r.body)
		}
	}
	if r := s.do("DELETE", "/api/me", "", ""); r.status != 401 {
		t.Fatalf("forget without a key: %d", r.status)
	}
	hash := game.HashToken(zel)
	secrets := [][]byte{[]byte(zel), []byte(hex.EncodeToString(hash)), hash, []byte("Zelinda"), []byte("zelinda"),
		[]byte(device.Endpoint), []byte("zelinda-secret-words"), []byte("zelinda-note")}
	for itemID, it := range mem.Dump() {
		// Her profile's place holds a tombstone for a week (no revival
		// by a request that raced the forgetting): her id and nothing
		// else, and it reads as no profile.
		tomb := itemID == community.ProfileItemID(pz)
		if tomb {
			if _, err := community.DecodeProfile(it.State); !errors.Is(err, store.ErrNotFound) || len(it.State) > 160 {
				t.Errorf("her profile's item after forgetting: %q, %v; want a tombstone", it.State, err)
			}
			if it.Expires.IsZero() || it.Expires.After(time.Now().Add(8*24*time.Hour)) {
				t.Errorf("her tombstone expires %v, want within a week", it.Expires)
			}
		}
		if !tomb && (strings.Contains(itemID, pz) || strings.Contains(itemID, hex.EncodeToString(hash))) {
			t.Errorf("item %s is hers", itemID)
		}
		for _, sec := range secrets {
			if bytes.Contains(it.State, sec) || bytes.Contains(it.Entry.Card, sec) || strings.Contains(itemID, string(sec)) {
				t.Errorf("item %s still holds %q", itemID, sec)
			}
		}
		if st, err := game.OpenStored(itemID, it); err == nil {
			for s, a := range st.Seats {
				if a.Player == pz || bytes.Equal(a.TokenHash, hash) {
					t.Errorf("game %s seat %d is still hers", itemID, s)
				}
			}
		}
	}
	// The game goes on: her seat anonymous, played by the computer.
	v := s.room(id, bea)
	w := s.poll(id, bea)
	if w.Seats[0].Name == nil || *w.Seats[0].Name != game.ForgottenName || v.Seats[0].Player != nil || w.Status != "playing" {
		t.Fatalf("her seat after: %+v %+v", w.Seats[0], v.Seats[0])
	}
	var seats struct {
		Seats []struct {
			Away bool `json:"away"`
		} `json:"seats"`
	}
	if json.Unmarshal(s.do("GET", "/api/games/"+id, "", bea).body, &seats) != nil || !seats.Seats[0].Away {
		t.Fatalf("her seat is not played by the computer: %+v", seats)
	}
	r = s.do("GET", "/api/games/"+id+"/chat", "", bea)
	if !strings.Contains(string(r.body), `"deleted":true`) || !strings.Contains(string(r.body), "ciao") {
		t.Fatalf("the talk after: %s", r.body)
	}
	if r := s.do("GET", "/api/me", "", zel); r.status != 200 || !strings.Contains(string(r.body), `"games":[]`) {
		t.Fatalf("her key after: %d %s", r.status, r.body)
	}
	if r := s.do("GET", "/api/players/"+pz, "", ""); r.status != 404 {
		t.Fatalf("her profile after: %d", r.status)
	}
	// Bea's league runs on, now hers.
	if r := s.do("GET", "/api/leagues/"+league.League.ID, "", bea); r.status != 200 || !strings.Contains(string(r.body), `"admin":"`+pb+`"`) {
		t.Fatalf("the league after: %d %s", r.status, r.body)
	}
}
