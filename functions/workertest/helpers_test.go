package workertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// answer is one HTTP answer, read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) code() string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(a.body, &e)
	return e.Error.Code
}

func do(t testing.TB, method, url, token, body string, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, data}
}

// decode checks the status and decodes the body into out.
func (a answer) decode(t testing.TB, what string, status int, out any) {
	t.Helper()
	if a.status != status {
		t.Fatalf("%s: status %d, want %d: %s", what, a.status, status, a.body)
	}
	if out != nil {
		if err := json.Unmarshal(a.body, out); err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", what, err, a.body)
		}
	}
}

type legal struct {
	Tile [2]int `json:"tile"`
	End  string `json:"end"`
}

type view struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	Status  string `json:"status"`
	Seats   []struct {
		Name  *string `json:"name"`
		Bot   *string `json:"bot"`
		Taken bool    `json:"taken"`
		Tiles int     `json:"tiles"`
		Away  bool    `json:"away"`
	} `json:"seats"`
	Scores []int `json:"scores"`
	Hand   *struct {
		Number     int    `json:"number"`
		Phase      string `json:"phase"`
		Turn       *int   `json:"turn"`
		Confirming []int  `json:"confirming"`
	} `json:"hand"`
	You *struct {
		Seat  int      `json:"seat"`
		Tiles [][2]int `json:"tiles"`
		Legal []legal  `json:"legal"`
	} `json:"you"`
	Winner *int `json:"winner"`
}

type seatAnswer struct {
	Game  view   `json:"game"`
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// create makes a game with body and returns the creator's answer.
func create(t testing.TB, base, body string) seatAnswer {
	t.Helper()
	var a seatAnswer
	do(t, "POST", base+"/api/games", "", body).decode(t, "create", http.StatusCreated, &a)
	return a
}

// nextMove is the body seat must send now (the first legal play, or keep
// when asked about a redeal), from that seat's own view.
// An empty moveID sends none.
func nextMove(t testing.TB, mine view, moveID string) string {
	t.Helper()
	id := ""
	if moveID != "" {
		id = fmt.Sprintf(`, "moveId": %q`, moveID)
	}
	if mine.Hand != nil && mine.Hand.Phase == "confirm" {
		return fmt.Sprintf(`{"version": %d%s, "type": "keep"}`, mine.Version, id)
	}
	if mine.You == nil || len(mine.You.Legal) == 0 {
		t.Fatalf("no legal move in %+v", mine.You)
	}
	l := mine.You.Legal[0]
	return fmt.Sprintf(`{"version": %d%s, "type": "play", "tile": [%d, %d], "end": %q}`,
		mine.Version, id, l.Tile[0], l.Tile[1], l.End)
}

// actor is the seat that must act in v: the first asked about a redeal,
// or the seat to play.
func actor(t testing.TB, v view) int {
	t.Helper()
	switch {
	case v.Hand != nil && v.Hand.Phase == "confirm" && len(v.Hand.Confirming) > 0:
		return v.Hand.Confirming[0]
	case v.Hand != nil && v.Hand.Turn != nil:
		return *v.Hand.Turn
	}
	t.Fatalf("nobody is to act in %+v", v.Hand)
	return -1
}
