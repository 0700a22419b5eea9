//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAKillBetweenAMatchEndAndItsSettlingCountsItOnce: the local server
// (its test build) is killed with SIGKILL between the save that ends a
// rated match and the match's settling (API.md "Ratings": exactly once).
// The next server on the same data settles it with its sweep: both
// profiles count the match once, and another restart changes nothing.
func TestAKillBetweenAMatchEndAndItsSettlingCountsItOnce(t *testing.T) {
	trackBuilds(t)
	bin, err := buildTestBuild()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args := []string{"-data", dir, "-rate-limit", "0"}
	// Three unrated matches make both keys eligible; the fourth end (the
	// rated match's) kills the server.
	p := startBinary(t, bin, []string{"TESSERA_TEST_KILL_AT_END=4"}, args...)
	c := &client{t: t, base: "http://" + p.addr}
	ana, bea := "ana-key-"+strings.Repeat("a", 24), "bea-key-"+strings.Repeat("b", 24)
	for range 3 {
		id, toks := c.duel(ana, bea, false)
		c.awayAll(id, toks)
	}
	id, toks := c.duel(ana, bea, true)
	c.away(id, toks[0])
	// Bea's away ends the match in its request: the server dies in it.
	if _, err := c.try("POST", "/api/games/"+id+"/moves", fmt.Sprintf(`{"version":%d,"type":"away"}`, c.version(id)), toks[1]); err == nil {
		t.Fatal("the request that ended the match was answered; the server should have died in it")
	}
	if err := p.wait(t, 10*time.Second); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the server exited with %v, want killed (SIGKILL)", err)
	}
	// A new server: the game is finished; its sweep settles it.
	p2 := startBinary(t, bin, nil, args...)
	c.base = "http://" + p2.addr
	var v struct {
		Status string `json:"status"`
		Seats  []struct {
			RatingAfter *int `json:"ratingAfter"`
		} `json:"seats"`
	}
	c.get("/api/games/"+id, &v)
	if v.Status != "finished" || v.Seats[0].RatingAfter == nil {
		t.Fatalf("after the kill the game is %+v; want finished with its ratings", v)
	}
	c.do("POST", "/api/__test/clock", `{"advance":1}`, "") // sweeps
	check := func() {
		t.Helper()
		for i, key := range []string{ana, bea} {
			var me struct {
				Player struct{ ID string } `json:"player"`
			}
			c.get("/api/me", &me, key)
			var prof struct {
				Finished int `json:"finished"`
				Ratings  map[string]struct {
					Rating int `json:"rating"`
					Games  int `json:"games"`
				} `json:"ratings"`
				Recent []json.RawMessage `json:"recent"`
			}
			c.get("/api/players/"+me.Player.ID, &prof)
			r := prof.Ratings["fiveup-duel"]
			if prof.Finished != 4 || r.Games != 1 || r.Rating != *v.Seats[i].RatingAfter || len(prof.Recent) != 1 {
				t.Errorf("seat %d: finished %d, %+v, %d recent; want 4, one rated game at %d", i, prof.Finished, r, len(prof.Recent), *v.Seats[i].RatingAfter)
			}
		}
	}
	check()
	p2.cmd.Process.Signal(syscall.SIGTERM)
	p2.wait(t, 10*time.Second)
	p3 := startBinary(t, bin, nil, args...)
	c.base = "http://" + p3.addr
	c.do("POST", "/api/__test/clock", `{"advance":120}`, "")
	check()
}

// client speaks to a server under test.
type client struct {
	t    *testing.T
	base string
}

func (c *client) try(method, path, body, token string) ([]byte, error) {
	req, err := http.NewRequest(method, c.base+path, bytes.NewBufferString(body))
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode >= 300 {
		err = fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	return b, err
}

func (c *client) do(method, path, body, token string) []byte {
	c.t.Helper()
	b, err := c.try(method, path, body, token)
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}

func (c *client) get(path string, v any, token ...string) {
	c.t.Helper()
	tok := ""
	if len(token) > 0 {
		tok = token[0]
	}
	if err := json.Unmarshal(c.do("GET", path, "", tok), v); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) version(id string) int64 {
	c.t.Helper()
	var v struct {
		Version int64  `json:"version"`
		Status  string `json:"status"`
	}
	c.get("/api/games/"+id, &v)
	return v.Version
}

// duel creates an open game of two by key a (rated or not) and seats b.
func (c *client) duel(a, b string, rated bool) (string, []string) {
	c.t.Helper()
	var created, joined struct {
		Game  struct{ ID string } `json:"game"`
		Token string              `json:"token"`
	}
	if err := json.Unmarshal(c.do("POST", "/api/games", fmt.Sprintf(`{"variant":"fiveup","players":2,"target":100,"name":"A","key":%q,"open":true,"rated":%t,"moveTime":3600}`, a, rated), ""), &created); err != nil {
		c.t.Fatal(err)
	}
	if err := json.Unmarshal(c.do("POST", "/api/games/"+created.Game.ID+"/seats", fmt.Sprintf(`{"name":"B","key":%q}`, b), ""), &joined); err != nil {
		c.t.Fatal(err)
	}
	return created.Game.ID, []string{created.Token, joined.Token}
}

func (c *client) away(id, token string) {
	c.t.Helper()
	c.do("POST", "/api/games/"+id+"/moves", fmt.Sprintf(`{"version":%d,"type":"away"}`, c.version(id)), token)
}

// awayAll sends every seat away: the computer plays the open game to its end.
func (c *client) awayAll(id string, toks []string) {
	c.t.Helper()
	for _, tok := range toks {
		c.away(id, tok)
	}
}
