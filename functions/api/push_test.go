package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
	"tessera/internal/testenv"
)

// newPushServer is a server with push on (insecure endpoints allowed) and
// a real clock: a push service checks the VAPID token's expiry.
func newPushServer(t *testing.T, st store.Store, seed uint64) *server {
	t.Helper()
	s := newServer(t, st, seed)
	s.h = New(Config{Store: st, Rand: seededReader(seed), Logger: s.h.(*Handler).log,
		Push: &PushConfig{Insecure: true, Subject: "mailto:tests@tessera.invalid"}})
	return s
}

// pushService is a web-push-testing server.
type pushService struct {
	t    *testing.T
	base string
}

// subscribe makes a device there for the server's VAPID key and returns
// its PushSubscription JSON and its clientHash.
func (p pushService) subscribe(vapidKey string) (string, string) {
	p.t.Helper()
	body, _ := json.Marshal(map[string]string{"userVisibleOnly": "true", "applicationServerKey": vapidKey})
	resp, err := http.Post(p.base+"/subscribe", "application/json", bytes.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Endpoint string `json:"endpoint"`
			Keys     struct {
				P256dh string `json:"p256dh"`
				Auth   string `json:"auth"`
			} `json:"keys"`
			ClientHash string `json:"clientHash"`
		} `json:"data"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || json.Unmarshal(raw, &out) != nil || out.Data.ClientHash == "" {
		p.t.Fatalf("subscribe: %d %s", resp.StatusCode, raw)
	}
	sub, _ := json.Marshal(map[string]any{"endpoint": out.Data.Endpoint, "expirationTime": nil,
		"keys": map[string]string{"p256dh": out.Data.Keys.P256dh, "auth": out.Data.Keys.Auth}})
	return string(sub), out.Data.ClientHash
}

// received is every message the device got, decrypted.
func (p pushService) received(clientHash string) []game.Message {
	p.t.Helper()
	body, _ := json.Marshal(map[string]string{"clientHash": clientHash})
	resp, err := http.Post(p.base+"/get-notifications", "application/json", bytes.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Messages []string `json:"messages"`
		} `json:"data"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || json.Unmarshal(raw, &out) != nil {
		p.t.Fatalf("get-notifications: %d %s", resp.StatusCode, raw)
	}
	var msgs []game.Message
	for _, m := range out.Data.Messages {
		var msg game.Message
		if err := json.Unmarshal([]byte(m), &msg); err != nil {
			p.t.Fatalf("a push that is not API.md's payload: %q", m)
		}
		msgs = append(msgs, msg)
	}
	return msgs
}

func (p pushService) expire(clientHash string) {
	p.t.Helper()
	resp, err := http.Post(p.base+"/expire-subscription/"+clientHash, "application/json", nil)
	if err != nil || resp.StatusCode != 200 {
		p.t.Fatalf("expire: %v %v", resp, err)
	}
	resp.Body.Close()
}

// devices registers a device of the push service for each key with the
// server and returns their clientHashes by key.
func (p pushService) devices(s *server, keys ...string) map[string]string {
	p.t.Helper()
	vapid := s.vapidKey()
	out := map[string]string{}
	for _, k := range keys {
		sub, hash := p.subscribe(vapid)
		out[k] = hash
		if r := s.do("PUT", "/api/me/push", sub, k); r.status != 204 {
			p.t.Fatalf("PUT /api/me/push: %d %s", r.status, r.body)
		}
	}
	return out
}

// person is a key with a name and its device's language ("" English).
type person struct{ key, name, lang string }

// named registers a device of the push service for each person, in its
// language, and sets its profile's name; it returns the devices'
// clientHashes by key.
func (p pushService) named(s *server, people ...person) map[string]string {
	p.t.Helper()
	vapid := s.vapidKey()
	out := map[string]string{}
	for _, d := range people {
		sub, hash := p.subscribe(vapid)
		if d.lang != "" {
			sub = strings.TrimSuffix(sub, "}") + `,"lang":"` + d.lang + `"}`
		}
		out[d.key] = hash
		if r := s.do("PUT", "/api/me/push", sub, d.key); r.status != 204 {
			p.t.Fatalf("PUT /api/me/push: %d", r.status)
		}
		if r := s.do("PUT", "/api/me/profile", `{"name":"`+d.name+`"}`, d.key); r.status != 200 {
			p.t.Fatalf("PUT /api/me/profile: %d", r.status)
		}
	}
	return out
}

func (s *server) vapidKey() string {
	s.t.Helper()
	r := s.do("GET", "/api/push", "", "")
	var k struct {
		PublicKey string `json:"publicKey"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &k) != nil {
		s.t.Fatalf("GET /api/push: %d %s", r.status, r.body)
	}
	return k.PublicKey
}

// Two keys play through the API with a real push service stand-in (it
// decrypts RFC 8291 and checks the VAPID token against GET /api/push):
// each move sends exactly one turn message, with the new version, to the
// seat whose turn it became, in its device's language, and none to the
// mover; a 410 removes the
// device; a push service that hangs does not hold a move past 1 s.
func TestPushesReachTheRightDevice(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	mem := memory.New()
	s := newPushServer(t, mem, 201)
	key := s.vapidKey()
	if again := newPushServer(t, mem, 202).vapidKey(); again != key {
		t.Fatalf("a second server over the same store has another VAPID key")
	}
	subA, hashA := svc.subscribe(key)
	subB, hashB := svc.subscribe(key)
	// Bea's device reads Italian (API.md: "lang", default en).
	subB = strings.TrimSuffix(subB, "}") + `,"lang":"it"}`
	for _, d := range []struct{ key, sub string }{{keyAna, subA}, {keyBea, subB}} {
		if r := s.do("PUT", "/api/me/push", d.sub, d.key); r.status != 204 {
			t.Fatalf("PUT /api/me/push: %d %s", r.status, r.body)
		}
	}
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"target":50,"name":"Ana","key":"`+keyAna+`"}`, "")
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	id := mustView(t, a.Game).ID
	r = s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, "")
	if r.status != 201 {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	keys := []string{keyAna, keyBea}
	hashes := []string{hashA, hashB}
	want := [2][]game.Message{}
	v := s.poll(id, keyAna)
	if turn := v.Hand.Turn; turn != nil && *turn == 0 {
		// Bea's join made it Ana's turn.
		want[0] = append(want[0], game.Message{Game: id, Version: v.Version, Kind: "turn"})
	}
	for moves := 0; moves < 6 && v.Status == "playing"; moves++ {
		actor := 0
		if v.Hand.Turn == nil {
			t.Fatalf("no turn: %+v", v.Hand)
		}
		actor = *v.Hand.Turn
		lm := s.poll(id, keys[actor]).You.Legal[0]
		body := `{"version":` + itoa(v.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` +
			itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
		if r := s.do("POST", "/api/games/"+id+"/moves", body, keys[actor]); r.status != 200 {
			t.Fatalf("move: %d %s", r.status, r.body)
		}
		v = s.poll(id, keyAna)
		if v.Status == "finished" {
			break
		}
		if next := *v.Hand.Turn; next != actor {
			want[next] = append(want[next], game.Message{Game: id, Version: v.Version, Kind: "turn"})
		}
	}
	prefixes := []string{"Your turn — Five Up with Bea", "Tocca a te — Five Up con Ana"}
	for seat, hash := range hashes {
		got := svc.received(hash)
		if len(got) != len(want[seat]) {
			t.Fatalf("seat %d received %d messages, want %d: %+v", seat, len(got), len(want[seat]), got)
		}
		for i, m := range got {
			if m.Game != want[seat][i].Game || m.Version != want[seat][i].Version || m.Kind != "turn" ||
				!strings.HasPrefix(m.Title, prefixes[seat]) || m.Body == "" {
				t.Errorf("seat %d message %d = %+v, want %+v", seat, i, m, want[seat][i])
			}
			for _, k := range keys {
				if strings.Contains(m.Title+m.Body, k) {
					t.Errorf("a push holds a key")
				}
			}
		}
	}
	if len(want[0])+len(want[1]) == 0 {
		t.Fatal("no push was expected: the test proves nothing")
	}

	// 410: the push service forgets Bea's device; the next push to her
	// removes it from her record.
	svc.expire(hashB)
	for v.Status == "playing" && *v.Hand.Turn != 1 || v.Status == "playing" && len(devicesOf(t, mem, keyBea)) > 0 {
		actor := *v.Hand.Turn
		lm := s.poll(id, keys[actor]).You.Legal[0]
		body := `{"version":` + itoa(v.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` +
			itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
		s.do("POST", "/api/games/"+id+"/moves", body, keys[actor])
		v = s.poll(id, keyAna)
	}
	if n := len(devicesOf(t, mem, keyBea)); n != 0 {
		t.Fatalf("Bea's expired device is still registered (%d devices)", n)
	}
	if n := len(devicesOf(t, mem, keyAna)); n != 1 {
		t.Fatalf("Ana has %d devices, want her 1", n)
	}
}

// devicesOf reads a key's record straight from the store.
func devicesOf(t *testing.T, st store.Store, key string) []game.Device {
	t.Helper()
	item, err := st.Load(context.Background(), game.PlayerID(game.HashToken(key)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := game.DecodePlayer(item.State)
	if err != nil {
		t.Fatal(err)
	}
	return p.Devices
}

// A push service that never answers costs a move at most the push budget.
func TestAHangingPushServiceDoesNotHoldAMove(t *testing.T) {
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer hung.Close()
	defer close(release)
	s := newPushServer(t, memory.New(), 203)
	s.vapidKey()
	dev := `{"endpoint":"` + hung.URL + `/push/1","keys":{"p256dh":"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4","auth":"BTBZMqHH6r4Tts7J_aSIgg"}}`
	for _, k := range []string{keyAna, keyBea} {
		if r := s.do("PUT", "/api/me/push", dev, k); r.status != 204 {
			t.Fatalf("PUT: %d %s", r.status, r.body)
		}
	}
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Ana","key":"`+keyAna+`"}`, "")
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	id := mustView(t, a.Game).ID
	start := time.Now()
	if r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, ""); r.status != 201 {
		t.Fatalf("join: %d", r.status)
	}
	took := time.Since(start)
	v := s.poll(id, keyAna)
	actor := *v.Hand.Turn
	keys := []string{keyAna, keyBea}
	lm := s.poll(id, keys[actor]).You.Legal[0]
	body := `{"version":` + itoa(v.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` +
		itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
	start = time.Now()
	if r := s.do("POST", "/api/games/"+id+"/moves", body, keys[actor]); r.status != 200 {
		t.Fatalf("move: %d %s", r.status, r.body)
	}
	took = max(took, time.Since(start))
	if took > time.Second {
		t.Errorf("a hanging push service held a request %v, want under 1 s", took)
	}
	if took < game.PushBudget/2 {
		t.Errorf("the request took %v: the hanging service was not even tried", took)
	}
}

// TestPushTextsIsolateRightToLeftNames: a name with Hebrew or Arabic letters
// is bidi-isolated in a push's title, so it cannot reorder "Your turn —
// Five Up with ..."; a left-to-right name is left as it is.
func TestPushTextsIsolateRightToLeftNames(t *testing.T) {
	name := func(s string) *string { return &s }
	v := &engine.View{Variant: engine.FiveUp, Seats: []engine.ViewSeat{{Name: name("Ana")}, {Name: name("דנה")}, {Name: name("سارا")}, {Name: nil}}}
	if got, want := game.TableName(v, 0, game.LangEN), "Five Up with \u2068דנה\u2069 and \u2068سارا\u2069"; got != want {
		t.Errorf("tableName = %q, want %q", got, want)
	}
	if got, want := game.TableName(v, 1, game.LangEN), "Five Up with Ana and \u2068سارا\u2069"; got != want {
		t.Errorf("tableName = %q, want %q", got, want)
	}
}

// When a tournament's round begins, each entrant's devices get a push of
// kind "round" naming their new game, in the device's language; the key
// whose request began it too (API.md "Tournaments").
func TestARoundBeginsWithAPush(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	s := newPushServer(t, memory.New(), 340)
	keyCy := testKey("cy")
	hashes := svc.named(s, person{keyAna, "Ana", ""}, person{keyBea, "Bea", "it"}, person{keyCy, "Cy", ""})
	hashA, hashB, hashC := hashes[keyAna], hashes[keyBea], hashes[keyCy]
	r := s.do("POST", "/api/tournaments", `{"name":"Coppa","format":"roundrobin","variant":"fiveup","players":2,"moveTime":86400,"roundTime":86400,"listed":true}`, keyAna)
	var made struct {
		Tournament struct {
			ID string `json:"id"`
		} `json:"tournament"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &made) != nil {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	id := made.Tournament.ID
	for _, k := range []string{keyAna, keyBea, keyCy} {
		if r := s.do("POST", "/api/tournaments/"+id+"/entries", `{}`, k); r.status != 201 {
			t.Fatalf("enter: %d", r.status)
		}
	}
	if r := s.do("POST", "/api/tournaments/"+id+"/start", `{}`, keyAna); r.status != 200 {
		t.Fatalf("start: %d %s", r.status, r.body)
	}
	// A round robin of three: two games each, one push each, naming one
	// of their games.
	tr := s.tour(id)
	games := map[string][]string{}
	for _, tb := range tr.Pairings[0].Tables {
		for _, p := range tb.Players {
			games[p] = append(games[p], *tb.Game)
		}
	}
	for i, want := range []struct{ key, hash, title string }{{keyAna, hashA, "Round 1 — Coppa"}, {keyBea, hashB, "Turno 1 — Coppa"}, {keyCy, hashC, "Round 1 — Coppa"}} {
		var got []game.Message
		for try := 0; try < 50 && len(got) == 0; try++ {
			got = svc.received(want.hash)
			if len(got) == 0 {
				time.Sleep(20 * time.Millisecond)
			}
		}
		time.Sleep(50 * time.Millisecond) // a second push, if one came, is there by now
		got = svc.received(want.hash)
		mine := games[s.playerOf(want.key)]
		if len(got) != 1 || got[0].Kind != "round" || !slices.Contains(mine, got[0].Game) || got[0].Title != want.title {
			t.Errorf("device %d received %+v, want one round push for one of %v titled %q", i, got, mine, want.title)
		}
	}
}

// newClockPushServer is newPushServer on a clock the test moves, started
// at the real time (a push service checks the VAPID token's expiry, which
// the server signs from its clock).
func newClockPushServer(t *testing.T, st store.Store, seed uint64) (*server, *testClock) {
	t.Helper()
	s := newServer(t, st, seed)
	clock := &testClock{now: time.Now().Truncate(time.Second)}
	s.h = New(Config{Store: st, Rand: seededReader(seed), Logger: s.h.(*Handler).log, Now: clock.Now,
		Push: &PushConfig{Insecure: true, Subject: "mailto:tests@tessera.invalid"}})
	return s, clock
}

// kinds counts a device's messages by kind.
func kinds(msgs []game.Message) map[string]int {
	out := map[string]int{}
	for _, m := range msgs {
		out[m.Kind]++
	}
	return out
}

// The reminder reaches the device of the seat that must act when a
// quarter of its moveTime is left, and again at a tenth when that is more
// than an hour before the deadline (11 h: 66 minutes); with one hour to
// move, only once (API.md "Push").
func TestRemindersReachTheDevice(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	for _, c := range []struct {
		moveTime int
		want     int
	}{{11 * 3600, 2}, {3600, 1}} {
		s, clock := newClockPushServer(t, memory.New(), 350)
		subs := svc.devices(s, keyAna, keyBea)
		id, keys := s.twoPlayers(c.moveTime)
		turn := *s.vacationView(id, "").Hand.Turn
		hash := subs[keys[turn]]
		before := kinds(svc.received(hash))["reminder"]
		mt := time.Duration(c.moveTime) * time.Second
		clock.Add(mt - mt/4)
		h := s.h.(*Handler)
		if _, err := h.svc.Sweep(t.Context(), "test"); err != nil {
			t.Fatal(err)
		}
		clock.Add(mt/4 - mt/10)
		if _, err := h.svc.Sweep(t.Context(), "test"); err != nil {
			t.Fatal(err)
		}
		got := svc.received(hash)
		if n := kinds(got)["reminder"] - before; n != c.want {
			t.Errorf("moveTime %d: %d reminders, want %d (%+v)", c.moveTime, n, c.want, got)
		}
		for _, m := range got {
			if m.Kind == "reminder" && (m.Game != id || m.Title == "" || m.Body == "") {
				t.Errorf("a reminder %+v", m)
			}
		}
		if n := kinds(svc.received(subs[keys[1-turn]]))["reminder"]; n != 0 {
			t.Errorf("the seat that need not act got %d reminders", n)
		}
	}
}

// A key on vacation gets no push but the match's end (API.md "Vacation").
func TestNoPushButTheEndWhileOnVacation(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	s, _ := newClockPushServer(t, memory.New(), 351)
	hashes := svc.devices(s, keyAna, keyBea)
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"target":5,"name":"Ana","key":"`+keyAna+`","moveTime":3600}`, "")
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	id := mustView(t, a.Game).ID
	if r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, ""); r.status != 201 {
		t.Fatalf("join: %d", r.status)
	}
	v := s.poll(id, keyAna)
	if *v.Hand.Turn != 0 {
		t.Fatalf("Bea leads with this seed: Ana must")
	}
	svc.received(hashes[keyBea]) // what came before is not the test's
	play := func(key string) {
		t.Helper()
		lm := s.poll(id, key).You.Legal[0]
		if r := s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(v.Version)+`,"type":"play","tile":[`+itoa(int64(lm.Tile[0]))+`,`+itoa(int64(lm.Tile[1]))+`],"end":"`+lm.End+`"}`, key); r.status != 200 {
			t.Fatalf("move: %d %s", r.status, r.body)
		}
		v = s.poll(id, keyAna)
	}
	// On vacation, Bea's turn comes without a push.
	s.vacation("POST", `{"days":2}`, keyBea, 200)
	v = s.poll(id, keyAna)
	play(keyAna)
	if v.Status != "playing" || *v.Hand.Turn != 1 {
		t.Fatalf("after Ana's move: %s, turn %v; want Bea's turn (another seed?)", v.Status, v.Hand.Turn)
	}
	if got := svc.received(hashes[keyBea]); len(got) != 0 {
		t.Fatalf("Bea on vacation received %+v", got)
	}
	// She lets the computer play for her (a move: her vacation ends),
	// goes on vacation again, and Ana plays to the end.
	if r := s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(v.Version)+`,"type":"away"}`, keyBea); r.status != 200 {
		t.Fatalf("away: %d %s", r.status, r.body)
	}
	s.vacation("POST", `{"days":2}`, keyBea, 200)
	start := len(svc.received(hashes[keyBea]))
	for moves := 0; moves < 200; moves++ {
		if v = s.poll(id, keyAna); v.Status != "playing" {
			break
		}
		play(keyAna)
	}
	if v.Status != "finished" {
		t.Fatalf("the match did not end: %s", v.Status)
	}
	got := svc.received(hashes[keyBea])[start:]
	if k := kinds(got); k["end"] != 1 || len(got) != 1 {
		t.Errorf("Bea on vacation received %+v, want the end only", got)
	}
	if k := kinds(svc.received(hashes[keyAna])); k["end"] != 0 {
		t.Errorf("Ana's own move ended it: no end push to her, got %d", k["end"])
	}
}

// A message pushes kind chat to the other seats' devices, at most once per
// device per game in 10 minutes, never to the sender nor to a key on
// vacation (API.md "Chat").
func TestTableTalkPushes(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	s, clock := newClockPushServer(t, memory.New(), 352)
	hashes := svc.devices(s, keyAna, keyBea)
	id, _ := s.twoPlayers(0)
	svc.received(hashes[keyAna])
	svc.received(hashes[keyBea])
	seen := map[string]int{} // the device's messages already looked at
	chats := func(k string) []game.Message {
		var out []game.Message
		all := svc.received(hashes[k])
		for _, m := range all[seen[k]:] {
			if m.Kind == "chat" {
				out = append(out, m)
			}
		}
		seen[k] = len(all)
		return out
	}
	s.sendChat(id, `{"text":"Bella mossa!"}`, keyAna, 201)
	got := chats(keyBea)
	if len(got) != 1 || got[0].Game != id || got[0].Body != "Ana: Bella mossa!" || got[0].Title != "Five Up with Ana" {
		t.Fatalf("Bea's devices got %+v", got)
	}
	if mine := chats(keyAna); len(mine) != 0 {
		t.Fatalf("the sender's devices got %+v", mine)
	}
	s.sendChat(id, `{"reaction":"well-played"}`, keyAna, 201)
	clock.Add(9 * time.Minute)
	s.sendChat(id, `{"text":"again"}`, keyAna, 201)
	if got := chats(keyBea); len(got) != 0 {
		t.Fatalf("within 10 minutes Bea's devices got %+v", got)
	}
	clock.Add(time.Minute)
	s.sendChat(id, `{"reaction":"well-played"}`, keyAna, 201)
	if got := chats(keyBea); len(got) != 1 || got[0].Body != "Ana: Well played!" {
		t.Fatalf("10 minutes on Bea's devices got %+v", got)
	}
	s.do("PUT", "/api/me/profile", `{"name":"Bea"}`, keyBea)
	s.vacation("POST", `{"days":1}`, keyBea, 200)
	clock.Add(11 * time.Minute)
	s.sendChat(id, `{"text":"are you there?"}`, keyAna, 201)
	if got := chats(keyBea); len(got) != 0 {
		t.Fatalf("on vacation Bea's devices got %+v", got)
	}
}

// A new league game with a free seat is an invitation: each other member's
// devices hear of it (kind "league", in their language), its maker's do
// not; a league game with no free seat tells nobody (issue 33).
func TestALeagueGameInvitesTheMembers(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	s := newPushServer(t, memory.New(), 341)
	hashes := svc.named(s, person{keyAna, "Ana", ""}, person{keyBea, "Bea", "it"})
	hashA, hashB := hashes[keyAna], hashes[keyBea]
	r := s.do("POST", "/api/leagues", `{"name":"Il giovedì","variant":"fiveup"}`, keyAna)
	var made struct {
		League struct {
			ID string `json:"id"`
		} `json:"league"`
		Invite string `json:"invite"`
	}
	if r.status != 201 || json.Unmarshal(r.body, &made) != nil {
		t.Fatalf("league: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/leagues/"+made.League.ID+"/members", `{"invite":"`+made.Invite+`"}`, keyBea); r.status != 201 {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	g, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `","league":"` + made.League.ID + `"}`)
	var got []game.Message
	for try := 0; try < 50 && len(got) == 0; try++ {
		if got = svc.received(hashB); len(got) == 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if len(got) != 1 || got[0].Kind != "league" || got[0].Game != g || got[0].Title != "Una nuova partita di Il giovedì" || got[0].Body != "Ana ha aperto una partita della lega: prendi posto." {
		t.Fatalf("Bea's device received %+v, want one league push for %s in Italian", got, g)
	}
	// A league game with no free seat (a computer in it) tells nobody.
	s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `","league":"` + made.League.ID + `","bots":[{"seat":1,"level":"easy"}]}`)
	time.Sleep(100 * time.Millisecond)
	if got := svc.received(hashB); len(got) != 1 {
		t.Errorf("Bea's device received %d pushes after a full league game, want still 1", len(got))
	}
	if got := svc.received(hashA); len(got) != 0 {
		t.Errorf("the maker's device received %+v", got)
	}
}
