package api

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

func TestCreateAnswers201WithSeatZeroAndAToken(t *testing.T) {
	s := newServer(t, memory.New(), 1)
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":3,"name":"  Ana  "}`, "")
	if r.status != 201 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q", ct)
	}
	if cc := r.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
	var a seatAnswerJSON
	if err := json.Unmarshal(r.body, &a); err != nil {
		t.Fatal(err)
	}
	if a.Seat != 0 {
		t.Errorf("seat = %d, want 0", a.Seat)
	}
	if raw, err := base64.RawURLEncoding.DecodeString(a.Token); err != nil || len(raw) < 16 {
		t.Errorf("token %q is not base64url of at least 128 bits", a.Token)
	}
	v := mustView(t, a.Game)
	if !regexp.MustCompile(`^[A-Za-z0-9_-]{10,}$`).MatchString(v.ID) {
		t.Errorf("game id %q is not URL-safe with at least 10 characters", v.ID)
	}
	if v.Version != 1 || v.Status != "open" || v.Hand != nil || v.Winner != nil {
		t.Errorf("new game: version %d, status %q, hand %v, winner %v", v.Version, v.Status, v.Hand, v.Winner)
	}
	if v.Seats[0].Name == nil || *v.Seats[0].Name != "Ana" || !v.Seats[0].Taken {
		t.Errorf("seat 0 = %+v, want Ana (trimmed), taken", v.Seats[0])
	}
	if v.Seats[1].Name != nil || v.Seats[1].Taken || v.Seats[1].Tiles != 0 {
		t.Errorf("free seat = %+v, want name null, not taken, 0 tiles", v.Seats[1])
	}
	if v.You == nil || v.You.Seat != 0 {
		t.Errorf("you = %+v, want seat 0", v.You)
	}
	checkView(t, a.Game, 0, nil)
	if strings.Count(string(r.body), a.Token) != 1 {
		t.Errorf("the token appears more than once in the answer")
	}
	item := s.stored(v.ID)
	if item.Version != 1 {
		t.Errorf("stored version %d, want 1", item.Version)
	}
	if strings.Contains(string(item.State), a.Token) {
		t.Errorf("the stored state holds the token itself, not only its hash")
	}
}

func TestCreateFillsDefaults(t *testing.T) {
	tests := []struct {
		name, body      string
		players, target int
		pairs, redeal   bool
	}{
		{"fiveup defaults to 4 players, 250, redeal", `{"variant":"fiveup","name":"A"}`, 4, 250, false, true},
		{"partnership defaults to 4 players in pairs to 50", `{"variant":"partnership","name":"A"}`, 4, 50, true, false},
		{"partnership accepts its fixed options", `{"variant":"partnership","players":4,"pairs":true,"redeal":false,"target":100,"name":"A"}`, 4, 100, true, false},
		{"fiveup pairs with 4 players", `{"variant":"fiveup","players":4,"pairs":true,"redeal":false,"target":1000,"name":"A"}`, 4, 1000, true, false},
		{"fiveup pairs false with 2 players", `{"variant":"fiveup","players":2,"pairs":false,"target":1,"name":"A"}`, 2, 1, false, true},
		{"null fields are absent", `{"variant":"fiveup","players":null,"pairs":null,"target":null,"redeal":null,"bots":null,"name":"A"}`, 4, 250, false, true},
	}
	s := newServer(t, memory.New(), 2)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, v := s.create(tc.body)
			o := v.Options
			if o.Players != tc.players || o.Target != tc.target || o.Pairs != tc.pairs || o.Redeal != tc.redeal {
				t.Errorf("options %+v, want players %d target %d pairs %v redeal %v", o, tc.players, tc.target, tc.pairs, tc.redeal)
			}
		})
	}
}

func TestCreateWithComputersStartsAndWaitsForAPerson(t *testing.T) {
	s := newServer(t, memory.New(), 3)
	for i := 0; i < 20; i++ {
		_, _, v := s.create(`{"variant":"fiveup","players":4,"name":"Ana","bots":[{"seat":3,"level":"easy"},{"seat":1,"level":"easy"},{"seat":2,"level":"easy"}]}`)
		if v.Version != 1 || v.Status != "playing" || v.Hand == nil {
			t.Fatalf("version %d status %q hand %v, want version 1, playing", v.Version, v.Status, v.Hand)
		}
		for seat := 1; seat < 4; seat++ {
			st := v.Seats[seat]
			if st.Bot == nil || *st.Bot != "easy" || st.Name == nil || *st.Name != game.BotName(seat) || !st.Taken {
				t.Fatalf("seat %d = %+v, want the server-named easy bot", seat, st)
			}
		}
		waiting := v.Hand.Turn != nil && *v.Hand.Turn == 0 || v.Hand.Phase == "confirm" && v.You.Confirm
		if !waiting {
			t.Fatalf("the view does not wait for seat 0: phase %s turn %v confirming %v", v.Hand.Phase, v.Hand.Turn, v.Hand.Confirming)
		}
		if v.Hand.Phase == "confirm" && len(v.Hand.Confirming) != 1 {
			t.Fatalf("a computer seat is still asked about the redeal: %v", v.Hand.Confirming)
		}
	}
}

func TestTakeSeat(t *testing.T) {
	s := newServer(t, memory.New(), 4)
	id, _, _ := s.create(`{"variant":"fiveup","players":4,"name":"Ana"}`)
	t.Run("the named seat", func(t *testing.T) {
		seat, tok, v := s.join(id, `{"name":"Cy","seat":2}`)
		if seat != 2 || v.Version != 2 || v.You.Seat != 2 || tok == "" {
			t.Fatalf("seat %d version %d you %+v", seat, v.Version, v.You)
		}
	})
	t.Run("the lowest free seat without a number", func(t *testing.T) {
		seat, _, v := s.join(id, `{"name":"Bea"}`)
		if seat != 1 || v.Version != 3 || v.Status != "open" {
			t.Fatalf("seat %d version %d status %s, want 1, 3, open", seat, v.Version, v.Status)
		}
	})
	t.Run("the last seat deals the first hand", func(t *testing.T) {
		seat, _, v := s.join(id, `{"name":"Dan"}`)
		if seat != 3 || v.Version != 4 || v.Status != "playing" || v.Hand == nil || len(v.You.Tiles) != 7 {
			t.Fatalf("seat %d version %d status %s, want 3, 4, playing with 7 tiles", seat, v.Version, v.Status)
		}
	})
}

func TestPollETags(t *testing.T) {
	s := newServer(t, memory.New(), 5)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"redeal":false,"name":"Ana"}`)
	get := func(token string, headers ...string) response {
		return s.do("GET", "/api/games/"+id, "", token, headers...)
	}
	seat0, seat1, spec := get(tokens[0]), get(tokens[1]), get("")
	tags := map[string]bool{}
	for _, r := range []response{seat0, seat1, spec} {
		if r.status != 200 || r.header.Get("ETag") == "" || r.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("poll: %d ETag %q Cache-Control %q", r.status, r.header.Get("ETag"), r.header.Get("Cache-Control"))
		}
		tags[r.header.Get("ETag")] = true
	}
	if len(tags) != 3 {
		t.Errorf("ETags %v: each seat and the spectator need their own", tags)
	}
	tag := seat0.header.Get("ETag")
	for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
		r := get(tokens[0], "If-None-Match", inm)
		if r.status != 304 || len(r.body) != 0 || r.header.Get("ETag") != tag || r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("If-None-Match %s: %d body %q ETag %q", inm, r.status, r.body, r.header.Get("ETag"))
		}
	}
	if r := get(tokens[1], "If-None-Match", tag); r.status != 200 {
		t.Errorf("another seat's ETag gave %d, want 200", r.status)
	}
	if r := get("", "If-None-Match", tag); r.status != 200 {
		t.Errorf("a seat's ETag for a spectator gave %d, want 200", r.status)
	}
	// A move changes the version, so the old ETag no longer matches.
	v := mustView(t, seat0.body)
	actor := *v.Hand.Turn
	me := s.poll(id, tokens[actor])
	lm := me.You.Legal[0]
	body := `{"version":` + itoa(v.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` + itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
	if r := s.do("POST", "/api/games/"+id+"/moves", body, tokens[actor]); r.status != 200 {
		t.Fatalf("move: %d %s", r.status, r.body)
	}
	r := get(tokens[0], "If-None-Match", tag)
	if r.status != 200 || r.header.Get("ETag") == tag {
		t.Errorf("after a move: %d with ETag %q, want 200 and a new ETag", r.status, r.header.Get("ETag"))
	}
	if r := get("Bearer-less", "If-None-Match", tag); r.status != 401 {
		t.Errorf("an invalid token with a matching ETag gave %d, want 401", r.status)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// corruptRecords keeps the stored game (seats and tokens) and the engine's
// checksum valid but makes the match impossible to replay.
func corruptRecords(t *testing.T, id string, item store.Item) []byte {
	t.Helper()
	st, err := game.OpenStored(id, item)
	if err != nil {
		t.Fatal(err)
	}
	body := append([]byte(nil), st.Match[:len(st.Match)-4]...)
	body = append(body, 0xff) // trailing data after the records
	st.Match = binary.LittleEndian.AppendUint32(body, crc32.ChecksumIEEE(body))
	if _, err := game.DecodeStored(game.EncodeStored(st)); err != nil {
		t.Fatalf("the stored game should still decode: %v", err)
	}
	if _, err := engine.Decode(st.Match); err == nil {
		t.Fatal("the match should not decode")
	}
	return game.SealStored(id, item.Version+1, st)
}

func TestPoll304DoesNotReplayTheMatch(t *testing.T) {
	mem := memory.New()
	s := newServer(t, mem, 6)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	tag := s.do("GET", "/api/games/"+id, "", tokens[1]).header.Get("ETag")
	item := s.stored(id)
	if err := mem.Save(context.Background(), id, corruptRecords(t, id, item), item.Version, fixedNow, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	// The save wrote the store's next version with the game's version in
	// the state as it was (as a note does); the poll compares that.
	tag = etag(item.Version, 1, &game.Meta{})
	if r := s.do("GET", "/api/games/"+id, "", tokens[1], "If-None-Match", tag); r.status != 304 {
		t.Errorf("304 path: %d %s, want 304 without replaying", r.status, r.body)
	}
	if r := s.do("GET", "/api/games/"+id, "", "AAAAAAAAAAAAAAAAAAAAAA", "If-None-Match", tag); r.status != 401 {
		t.Errorf("304 path with a wrong token: %d, want 401", r.status)
	}
	r := s.do("GET", "/api/games/"+id, "", tokens[1])
	e := mustError(t, r)
	if r.status != 500 || e.Error.Code != "internal" {
		t.Errorf("full poll of a corrupt state: %d %s, want 500 internal", r.status, r.body)
	}
	if strings.Contains(string(r.body), "corrupt") || strings.Contains(string(r.body), "trailing") {
		t.Errorf("the 500 body tells internals: %s", r.body)
	}
	if !strings.Contains(s.logs.String(), "stored state does not decode") {
		t.Errorf("the corrupt state is not logged")
	}
}

func TestRetriedMoveID(t *testing.T) {
	s := newServer(t, memory.New(), 8)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"redeal":false,"name":"Ana"}`)
	_, actor, body := s.firstPlay(id, tokens, "abc")
	first := s.do("POST", "/api/games/"+id+"/moves", body, tokens[actor])
	if first.status != 200 {
		t.Fatalf("move: %d %s", first.status, first.body)
	}
	after := s.stored(id)
	t.Run("same body again is 200, nothing applied", func(t *testing.T) {
		r := s.do("POST", "/api/games/"+id+"/moves", body, tokens[actor])
		if r.status != 200 || mustView(t, r.body).Version != after.Version {
			t.Fatalf("retry: %d %s", r.status, r.body)
		}
	})
	t.Run("another body with the same moveId is 200, nothing applied", func(t *testing.T) {
		r := s.do("POST", "/api/games/"+id+"/moves", `{"version":999,"moveId":"abc","type":"redeal"}`, tokens[actor])
		if r.status != 200 || mustView(t, r.body).Version != after.Version {
			t.Fatalf("retry: %d %s", r.status, r.body)
		}
	})
	t.Run("the same moveId by the other seat is not a retry", func(t *testing.T) {
		r := s.do("POST", "/api/games/"+id+"/moves", `{"version":1,"moveId":"abc","type":"keep"}`, tokens[1-actor])
		if e := mustError(t, r); r.status != 409 || e.Error.Code != "stale_version" {
			t.Fatalf("other seat: %d %s, want 409 stale_version", r.status, r.body)
		}
	})
	if got := s.stored(id); got.Version != after.Version || string(got.State) != string(after.State) {
		t.Errorf("retries changed the game")
	}
}

func TestRememberKeepsSixteenMoveIDsPerSeat(t *testing.T) {
	st := &game.Stored{Seats: make([]game.SeatAuth, 2)}
	for i := 0; i < 40; i++ {
		st.Remember(1, "id-"+itoa(int64(i)))
	}
	st2, err := game.DecodeStored(game.EncodeStored(st))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		want := i >= 40-game.KeptMoveIDs
		if got := st2.Applied(1, "id-"+itoa(int64(i))); got != want {
			t.Errorf("applied(id-%d) = %v, want %v", i, got, want)
		}
		if st2.Applied(0, "id-"+itoa(int64(i))) {
			t.Errorf("seat 0 remembers seat 1's move id-%d", i)
		}
	}
}

func TestRequestIDsInLogs(t *testing.T) {
	s := newServer(t, memory.New(), 11)
	r := s.do("GET", "/api/games/aaaaaaaaaaaaaaaa", "", "", "X-Request-Id", "client-req-1")
	if r.header.Get("X-Request-Id") != "client-req-1" || !strings.Contains(s.logs.String(), `"requestId":"client-req-1"`) {
		t.Errorf("X-Request-Id not used: header %q, logs %s", r.header.Get("X-Request-Id"), s.logs.String())
	}
	req := httptest.NewRequest("GET", "/api/games/aaaaaaaaaaaaaaaa", nil)
	req = req.WithContext(WithRequestID(req.Context(), "deploy-42"))
	req.Header.Set("X-Request-Id", "ignored")
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	if !strings.Contains(s.logs.String(), `"requestId":"deploy-42"`) || rec.Header().Get("X-Request-Id") != "deploy-42" {
		t.Errorf("the deployment's request id (WithRequestID) is not used")
	}
	r = s.do("GET", "/api/games/aaaaaaaaaaaaaaaa", "", "", "X-Request-Id", "evil\"\nline")
	if r.header.Get("X-Request-Id") == "evil\"\nline" || r.header.Get("X-Request-Id") == "" {
		t.Errorf("a malformed X-Request-Id was used or none generated: %q", r.header.Get("X-Request-Id"))
	}
	if !strings.Contains(s.logs.String(), `"gameId":"aaaaaaaaaaaaaaaa"`) {
		t.Errorf("the game id is not logged")
	}
}
