package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/functions/store"
	"tessera/functions/store/memory"
	"tessera/internal/testenv"
)

// seededReader is the tests' source of secrets (testenv.Seeded).
func seededReader(seed uint64) io.Reader { return testenv.Seeded(seed) }

// fixedNow is the clock of the tests.
var fixedNow = time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)

// logBuffer collects the handler's log lines (JSON) for leak checks.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// server is a handler under test with its store and logs.
type server struct {
	t     testing.TB
	h     http.Handler
	store store.Store
	logs  *logBuffer
}

func newServer(t testing.TB, st store.Store, seed uint64) *server {
	t.Helper()
	logs := &logBuffer{}
	h := New(Config{Store: st, Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Now: func() time.Time { return fixedNow }, Rand: seededReader(seed)})
	return &server{t: t, h: h, store: st, logs: logs}
}

// response is a recorded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request; token "" sends no Authorization header.
func (s *server) do(method, path, body, token string, headers ...string) response {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// view is the test's reading of API.md's view.
type view struct {
	ID      string `json:"id"`
	Version int64  `json:"version"`
	Variant string `json:"variant"`
	Options struct {
		Players int  `json:"players"`
		Pairs   bool `json:"pairs"`
		Target  int  `json:"target"`
		Redeal  bool `json:"redeal"`
	} `json:"options"`
	Status string `json:"status"`
	Seats  []struct {
		Seat  int     `json:"seat"`
		Name  *string `json:"name"`
		Team  int     `json:"team"`
		Bot   *string `json:"bot"`
		Taken bool    `json:"taken"`
		Tiles int     `json:"tiles"`
	} `json:"seats"`
	Scores []int `json:"scores"`
	Hand   *struct {
		Number     int    `json:"number"`
		Phase      string `json:"phase"`
		Turn       *int   `json:"turn"`
		Boneyard   int    `json:"boneyard"`
		Confirming []int  `json:"confirming"`
		Board      struct {
			Line [][2]int `json:"line"`
			Up   [][2]int `json:"up"`
			Down [][2]int `json:"down"`
			Ends []struct {
				End  string `json:"end"`
				Pips int    `json:"pips"`
			} `json:"ends"`
		} `json:"board"`
	} `json:"hand"`
	You *struct {
		Seat  int      `json:"seat"`
		Tiles [][2]int `json:"tiles"`
		Legal []struct {
			Tile [2]int `json:"tile"`
			End  string `json:"end"`
		} `json:"legal"`
		Confirm bool `json:"confirm"`
	} `json:"you"`
	Log []struct {
		Seq  int     `json:"seq"`
		Hand int     `json:"hand"`
		Type string  `json:"type"`
		Tile *[2]int `json:"tile"`
	} `json:"log"`
	Winner *int    `json:"winner"`
	Next   *string `json:"next"`
}

// seatAnswerJSON is a 201 of a create or a seat taken.
type seatAnswerJSON struct {
	Game  json.RawMessage `json:"game"`
	Seat  int             `json:"seat"`
	Token string          `json:"token"`
}

// errorJSON is an error body.
type errorJSON struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Game json.RawMessage `json:"game"`
}

func mustView(t testing.TB, b []byte) *view {
	t.Helper()
	var v view
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("view does not decode: %v\n%s", err, b)
	}
	return &v
}

func mustError(t testing.TB, r response) errorJSON {
	t.Helper()
	var e errorJSON
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("error body does not decode: %v\n%s", err, r.body)
	}
	return e
}

// create makes a game and returns its id, the creator's token and view.
func (s *server) create(body string) (string, string, *view) {
	s.t.Helper()
	r := s.do("POST", "/api/games", body, "")
	if r.status != 201 {
		s.t.Fatalf("create %s: status %d, want 201: %s", body, r.status, r.body)
	}
	var a seatAnswerJSON
	if err := json.Unmarshal(r.body, &a); err != nil {
		s.t.Fatal(err)
	}
	v := mustView(s.t, a.Game)
	return v.ID, a.Token, v
}

// join takes a seat and returns its number and token.
func (s *server) join(id, body string) (int, string, *view) {
	s.t.Helper()
	r := s.do("POST", "/api/games/"+id+"/seats", body, "")
	if r.status != 201 {
		s.t.Fatalf("join %s: status %d, want 201: %s", body, r.status, r.body)
	}
	var a seatAnswerJSON
	if err := json.Unmarshal(r.body, &a); err != nil {
		s.t.Fatal(err)
	}
	return a.Seat, a.Token, mustView(s.t, a.Game)
}

// poll reads the game as token's seat ("" for a spectator).
func (s *server) poll(id, token string) *view {
	s.t.Helper()
	r := s.do("GET", "/api/games/"+id, "", token)
	if r.status != 200 {
		s.t.Fatalf("poll: status %d: %s", r.status, r.body)
	}
	return mustView(s.t, r.body)
}

// firstPlay polls game id and returns its version, the seat to play and
// the body of that seat's first legal play at that version, with moveID.
func (s *server) firstPlay(id string, tokens []string, moveID string) (version int64, actor int, body string) {
	s.t.Helper()
	v := s.poll(id, tokens[0])
	actor = *v.Hand.Turn
	lm := s.poll(id, tokens[actor]).You.Legal[0]
	body = `{"version":` + itoa(v.Version) + `,"moveId":"` + moveID + `","type":"play","tile":[` +
		itoa(int64(lm.Tile[0])) + `,` + itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
	return v.Version, actor, body
}

// stored returns the game's item as the store holds it.
func (s *server) stored(id string) store.Item {
	s.t.Helper()
	item, err := s.store.Load(context.Background(), id)
	if err != nil {
		s.t.Fatalf("load %s: %v", id, err)
	}
	return item
}

// fullGame creates a game with body's options and fills every free seat
// with a person; it returns the id and every seat's token ("" for a bot).
func (s *server) fullGame(body string) (string, []string) {
	s.t.Helper()
	id, tok, v := s.create(body)
	tokens := make([]string, v.Options.Players)
	tokens[0] = tok
	for _, st := range v.Seats {
		if !st.Taken {
			seat, tok, _ := s.join(id, `{"name":"P`+string(rune('0'+st.Seat))+`"}`)
			tokens[seat] = tok
		}
	}
	return id, tokens
}

func newMemoryStore() store.Store { return memory.New() }

func (s *server) nowFunc() func() time.Time { return func() time.Time { return fixedNow } }
