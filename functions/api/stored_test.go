package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/functions/store/memory"
)

// format1Game is one game of testdata/stored-format1.json (see its README).
type format1Game struct {
	ID        string            `json:"id"`
	Version   int64             `json:"version"`
	UpdatedAt time.Time         `json:"updatedAt"`
	State     string            `json:"state"`
	Tokens    []string          `json:"tokens"`
	MoveIDs   []string          `json:"moveIds"`
	Views     []json.RawMessage `json:"views"`
}

// laterFields are what views gained after format 1 was written (API.md's
// additions: board.lead; the clocks' moveTime, away and deadline; the
// rematches' next, previous and series; the last hand's layout; the score
// sheet).
var laterFields = regexp.MustCompile(`,"sheet":\[(\[[0-9,]*\],?)*\]|,"countTerms":(null|\[[0-9,]*\])|,"lastHand":(null|\{"number":[0-9]+,"board":\{[^{}]*(\{[^{}]*\}[^{}]*)*\}\})|,"lead":(null|[0-9]+)|,"moveTime":null|,"away":false|,"deadline":null|` +
	`,"next":null,"previous":null,"series":\{"matches":[0-9]+,"wins":\[[0-9,]*\]\}`)

// withoutLead drops the later fields from a view: everything else must be
// byte for byte what was served then.
func withoutLead(b []byte) []byte { return laterFields.ReplaceAll(b, nil) }

// compact undoes the fixture file's indentation of a served view.
func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Games stored before the token hashes left the engine's encoding still
// load: every seat's token is its seat, each view is the one served then,
// a remembered moveId is still remembered, and the next save writes the
// current format.
func TestStoredFormat1(t *testing.T) {
	raw, err := os.ReadFile("testdata/stored-format1.json")
	if err != nil {
		t.Fatal(err)
	}
	var games []format1Game
	if err := json.Unmarshal(raw, &games); err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 {
		t.Fatalf("%d games in the fixture, want 3", len(games))
	}
	for _, g := range games {
		t.Run(g.ID, func(t *testing.T) {
			mem := memory.New()
			state, err := base64.StdEncoding.DecodeString(g.State)
			if err != nil {
				t.Fatal(err)
			}
			if state[0] != storedFormat1 {
				t.Fatalf("fixture format %d, want %d", state[0], storedFormat1)
			}
			if err := mem.Create(context.Background(), g.ID, state, g.UpdatedAt, time.Time{}, time.Time{}); err != nil {
				t.Fatal(err)
			}
			for v := int64(1); v < g.Version; v++ {
				if err := mem.Save(context.Background(), g.ID, state, v, g.UpdatedAt, time.Time{}, time.Time{}); err != nil {
					t.Fatal(err)
				}
			}
			s := newServer(t, mem, 99)
			for i, tok := range append(append([]string{}, g.Tokens...), "") {
				r := s.do("GET", "/api/games/"+g.ID, "", tok)
				if r.status != 200 {
					t.Fatalf("poll as token %d: %d %s", i, r.status, r.body)
				}
				if got, want := withoutLead(bytes.TrimSuffix(r.body, []byte("\n"))), compact(t, g.Views[i]); !bytes.Equal(got, want) {
					t.Errorf("view for token %d differs from the one served before:\n got %s\nwant %s", i, got, want)
				}
			}
			if r := s.do("GET", "/api/games/"+g.ID, "", "AAAAAAAAAAAAAAAAAAAAAA"); r.status != 401 {
				t.Errorf("a token of no seat: %d, want 401", r.status)
			}
			for _, mid := range g.MoveIDs {
				who, id, _ := strings.Cut(mid, ":")
				tok := g.Tokens[who[0]-'0']
				body := `{"version":1,"moveId":"` + id + `","type":"play","tile":[0,0],"end":"left"}`
				if r := s.do("POST", "/api/games/"+g.ID+"/moves", body, tok); r.status != 200 {
					t.Errorf("retried moveId %s: %d %s, want 200", mid, r.status, r.body)
				}
			}
			if got := s.stored(g.ID); got.Version != g.Version || !bytes.Equal(got.State, state) {
				t.Fatal("reading and retrying changed the stored game")
			}
			// A change writes the current format, which serves the same view.
			v := s.poll(g.ID, g.Tokens[0])
			var r response
			switch {
			case v.Status == "open":
				r = s.do("POST", "/api/games/"+g.ID+"/seats", `{"name":"Zed"}`, "")
			case v.You != nil && len(v.You.Legal) > 0:
				lm := v.You.Legal[0]
				r = s.do("POST", "/api/games/"+g.ID+"/moves", `{"version":`+itoa(v.Version)+`,"type":"play","tile":[`+
					itoa(int64(lm.Tile[0]))+`,`+itoa(int64(lm.Tile[1]))+`],"end":"`+lm.End+`"}`, g.Tokens[0])
			default:
				return // finished, or not the first token's turn: nothing to change
			}
			if r.status != 200 && r.status != 201 {
				t.Fatalf("change: %d %s", r.status, r.body)
			}
			if st := s.stored(g.ID); st.State[0] != storedFormat || st.Version != g.Version+1 {
				t.Fatalf("after a change: format %d version %d, want %d and %d", st.State[0], st.Version, storedFormat, g.Version+1)
			}
			for i, tok := range g.Tokens {
				if got := s.poll(g.ID, tok); got.You == nil || got.Version != g.Version+1 {
					t.Errorf("token %d after the upgrade: %+v", i, got.You)
				}
			}
		})
	}
}
