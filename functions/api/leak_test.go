package api

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Hidden information (API.md "The view"): a view holds no other seat's
// tiles, no boneyard tile, no seed, no token or token hash. checkView walks
// a view's JSON: a tile may appear only where API.md puts one, and no key
// may name a secret.

// tilePlaces are the JSON paths where a tile may appear in a view.
var tilePlaces = regexp.MustCompile(`^(you\.tiles\.\d+|you\.legal\.\d+\.tile|(hand|lastHand)\.board\.(line|up|down)\.\d+|` +
	`hand\.result\.tiles\.\d+\.\d+|log\.\d+\.tile|log\.\d+\.tiles\.\d+\.\d+)$`)

// numberLists are paths holding lists of small numbers that are not tiles.
var numberLists = regexp.MustCompile(`^(scores|hand\.confirming|series\.wins|sheet\.\d+|(hand|lastHand)\.board\.countTerms)$`)

// secretKeys may not appear anywhere in a view.
var secretKeys = []string{"token", "tokenhash", "hash", "seed", "boneyardtiles", "deck", "order", "records", "hands"}

func walkJSON(path string, v any, visit func(path string, v any)) {
	visit(path, v)
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			walkJSON(join(k), e, visit)
		}
	case []any:
		for i, e := range x {
			walkJSON(join(fmt.Sprint(i)), e, visit)
		}
	}
}

// asTile reports whether v looks like a tile: two numbers 0..6.
func asTile(v any) ([2]int, bool) {
	a, ok := v.([]any)
	if !ok || len(a) != 2 {
		return [2]int{}, false
	}
	var t [2]int
	for i, e := range a {
		f, ok := e.(float64)
		if !ok || f < 0 || f > 6 || f != float64(int(f)) {
			return [2]int{}, false
		}
		t[i] = int(f)
	}
	return t, true
}

func norm(t [2]int) [2]int {
	if t[0] > t[1] {
		return [2]int{t[1], t[0]}
	}
	return t
}

// checkView checks one view seen by seat (-1: spectator). hands holds the
// current hand's tiles of the seats the test knows (nil entries unknown).
func checkView(t testing.TB, raw []byte, seat int, hands [][][2]int) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("view is not JSON: %v", err)
	}
	walkJSON("", doc, func(path string, v any) {
		if m, ok := v.(map[string]any); ok {
			for k := range m {
				for _, s := range secretKeys {
					if strings.ToLower(k) == s {
						t.Errorf("view has a secret-looking key %q at %q", k, path)
					}
				}
			}
		}
		if tile, ok := asTile(v); ok && !tilePlaces.MatchString(path) && !numberLists.MatchString(path) {
			t.Errorf("tile-like value %v at %q, where API.md puts no tile", tile, path)
		}
	})
	// The last hand's layout holds exactly the tiles played in that hand,
	// as the log tells them.
	var last struct {
		LastHand *struct {
			Number int                               `json:"number"`
			Board  struct{ Line, Up, Down [][2]int } `json:"board"`
		} `json:"lastHand"`
		Log []struct {
			Hand int     `json:"hand"`
			Type string  `json:"type"`
			Tile *[2]int `json:"tile"`
		} `json:"log"`
	}
	if err := json.Unmarshal(raw, &last); err != nil {
		t.Fatal(err)
	}
	if lh := last.LastHand; lh != nil {
		played := map[[2]int]bool{}
		for _, e := range last.Log {
			if e.Hand == lh.Number && e.Type == "play" && e.Tile != nil {
				played[norm(*e.Tile)] = true
			}
		}
		n := 0
		for _, part := range [][][2]int{lh.Board.Line, lh.Board.Up, lh.Board.Down} {
			for _, tile := range part {
				n++
				if !played[norm(tile)] {
					t.Errorf("lastHand shows %v, which the log has nobody play in hand %d", tile, lh.Number)
				}
			}
		}
		if n != len(played) {
			t.Errorf("lastHand shows %d tiles; the log has %d played in hand %d", n, len(played), lh.Number)
		}
	}
	v := mustView(t, raw)
	if seat < 0 {
		if v.You != nil {
			t.Errorf("spectator view has you = %+v", v.You)
		}
	} else if v.You == nil || v.You.Seat != seat {
		t.Fatalf("view for seat %d has you = %+v", seat, v.You)
	}
	// Tiles that others may see: the board and the plays of this hand.
	public := map[[2]int]bool{}
	if v.Hand != nil {
		for _, arm := range [][][2]int{v.Hand.Board.Line, v.Hand.Board.Up, v.Hand.Board.Down} {
			for _, tl := range arm {
				public[norm(tl)] = true
			}
		}
		for _, e := range v.Log {
			if e.Type == "play" && e.Tile != nil && e.Hand == v.Hand.Number {
				public[norm(*e.Tile)] = true
			}
		}
	}
	own := map[[2]int]bool{}
	if v.You != nil {
		for _, tl := range v.You.Tiles {
			own[norm(tl)] = true
			if public[norm(tl)] {
				t.Errorf("seat %d holds %v, which is also on the table", seat, tl)
			}
		}
		for _, lm := range v.You.Legal {
			if !own[norm(lm.Tile)] {
				t.Errorf("seat %d: legal move with %v, which it does not hold", seat, lm.Tile)
			}
		}
	}
	for o, h := range hands {
		if h == nil {
			continue
		}
		if v.Hand != nil && v.Seats[o].Tiles != len(h) {
			t.Errorf("seats[%d].tiles = %d, want %d", o, v.Seats[o].Tiles, len(h))
		}
		if o == seat {
			if len(h) != len(own) {
				t.Errorf("seat %d sees %d own tiles, holds %d", seat, len(own), len(h))
			}
			continue
		}
		for _, tl := range h {
			if own[norm(tl)] || public[norm(tl)] {
				t.Errorf("view for seat %d shows seat %d's tile %v", seat, o, tl)
			}
		}
	}
}

// tileText finds what could be a tile written in a text: "a-b" between
// non-digits, or "[a,b]".
var tileText = regexp.MustCompile(`(?:^|[^0-9])([0-6])-([0-6])(?:[^0-9]|$)|\[([0-6]),([0-6])\]`)

// checkNoTiles checks that a text (an error body, a log) names none of the
// given tiles, in either order.
func checkNoTiles(t testing.TB, what, text string, tiles [][2]int) {
	t.Helper()
	hidden := map[[2]int]bool{}
	for _, tl := range tiles {
		hidden[norm(tl)] = true
	}
	for _, m := range tileText.FindAllStringSubmatchIndex(text, -1) {
		var tl [2]int
		if m[2] >= 0 {
			tl = [2]int{int(text[m[2]] - '0'), int(text[m[4]] - '0')}
		} else {
			tl = [2]int{int(text[m[6]] - '0'), int(text[m[8]] - '0')}
		}
		if hidden[norm(tl)] {
			t.Errorf("%s names hidden tile %v: ...%s...", what, tl, text[max(0, m[0]-40):min(len(text), m[1]+40)])
		}
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	*testing.T
	failed bool
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(string, ...any)     { r.failed = true }
func (r *recorder) Fatalf(f string, a ...any) { r.failed = true }

func TestLeakCheckersCatchLeaks(t *testing.T) {
	hidden := [][2]int{{2, 5}}
	texts := []struct {
		text string
		leak bool
	}{
		{`{"error":{"message":"Tile 5-2 does not match"}}`, true},
		{`{"tiles":[[2,5]]}`, true},
		{`{"time":"2026-11-30T05:00:00Z","ms":2.5}`, false},
		{`{"message":"it is seat 2's turn"}`, false},
	}
	for _, tc := range texts {
		r := &recorder{T: t}
		checkNoTiles(r, "text", tc.text, hidden)
		if r.failed != tc.leak {
			t.Errorf("checkNoTiles(%s) failed = %v, want %v", tc.text, r.failed, tc.leak)
		}
	}
	views := []struct {
		name, json string
		leak       bool
	}{
		{"a tile under seats", `{"seats":[{"seat":0,"hand":[[1,2]]}],"you":null}`, true},
		{"a token key", `{"seats":[],"token":"x","you":null}`, true},
		{"another seat's tile in you", `{"seats":[{"seat":0,"tiles":1},{"seat":1,"tiles":1}],"hand":{"number":1,"board":{"line":[]}},"you":{"seat":0,"tiles":[[2,5]],"legal":[]}}`, true},
		{"a clean view", `{"seats":[{"seat":0,"tiles":1},{"seat":1,"tiles":1}],"scores":[0,0],"hand":{"number":1,"board":{"line":[]}},"you":{"seat":0,"tiles":[[1,1]],"legal":[]}}`, false},
	}
	for _, tc := range views {
		r := &recorder{T: t}
		checkView(r, []byte(tc.json), 0, [][][2]int{{{1, 1}}, {{2, 5}}})
		if r.failed != tc.leak {
			t.Errorf("checkView(%s) failed = %v, want %v", tc.name, r.failed, tc.leak)
		}
	}
}
