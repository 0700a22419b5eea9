package workertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"tessera/internal/testenv"
)

// pushService is a web-push-testing server (a push service stand-in that
// decrypts RFC 8291 messages and checks their VAPID token).
type pushService struct {
	t    *testing.T
	base string
}

func (p pushService) post(path string, body any, out any) {
	p.t.Helper()
	raw, _ := json.Marshal(body)
	resp, err := http.Post(p.base+path, "application/json", bytes.NewReader(raw))
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || json.Unmarshal(data, out) != nil {
		p.t.Fatalf("%s: %d %s", path, resp.StatusCode, data)
	}
}

// subscribe makes a device for vapidKey: its PushSubscription JSON and its
// clientHash.
func (p pushService) subscribe(vapidKey string) (string, string) {
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
	p.post("/subscribe", map[string]string{"userVisibleOnly": "true", "applicationServerKey": vapidKey}, &out)
	sub, _ := json.Marshal(map[string]any{"endpoint": out.Data.Endpoint, "expirationTime": nil,
		"keys": map[string]string{"p256dh": out.Data.Keys.P256dh, "auth": out.Data.Keys.Auth}})
	return string(sub), out.Data.ClientHash
}

type pushMessage struct {
	Game    string `json:"game"`
	Version int    `json:"version"`
	Kind    string `json:"kind"`
	Title   string `json:"title"`
}

func (p pushService) received(clientHash string) []pushMessage {
	var out struct {
		Data struct {
			Messages []string `json:"messages"`
		} `json:"data"`
	}
	p.post("/get-notifications", map[string]string{"clientHash": clientHash}, &out)
	var msgs []pushMessage
	for _, m := range out.Data.Messages {
		var msg pushMessage
		if err := json.Unmarshal([]byte(m), &msg); err != nil {
			p.t.Fatalf("a push that is not API.md's payload: %q", m)
		}
		msgs = append(msgs, msg)
	}
	return msgs
}

// TestPushesThroughTheWorker: two players with a device each play a few
// moves; each device gets, encrypted and signed by the Worker (Go's push
// code sending through fetch), one turn message per turn that became its
// player's, with the game's version.
func TestPushesThroughTheWorker(t *testing.T) {
	svc := pushService{t, testenv.WebPush(t)}
	base := testenv.Worker(t, "PUSH_ALLOW_INSECURE=1", "PUSH_SUBJECT=mailto:tests@tessera.invalid")
	var k struct {
		PublicKey string `json:"publicKey"`
	}
	do(t, "GET", base+"/api/push", "", "").decode(t, "GET /api/push", http.StatusOK, &k)
	keys := []string{"workerPushTestKeyAna-0123456789", "workerPushTestKeyBea-0123456789"}
	hashes := make([]string, 2)
	for i, key := range keys {
		sub, hash := svc.subscribe(k.PublicKey)
		hashes[i] = hash
		if a := do(t, "PUT", base+"/api/me/push", key, sub); a.status != http.StatusNoContent {
			t.Fatalf("PUT /api/me/push: %d %s", a.status, a.body)
		}
	}
	ana := create(t, base, `{"variant": "fiveup", "players": 2, "redeal": false, "target": 250, "name": "Ana", "key": "`+keys[0]+`"}`)
	games := base + "/api/games/" + ana.Game.ID
	do(t, "POST", games+"/seats", "", `{"name": "Bea", "key": "`+keys[1]+`"}`).decode(t, "join", http.StatusCreated, nil)
	want := [2][]int{}
	var v view
	do(t, "GET", games, "", "").decode(t, "poll", http.StatusOK, &v)
	if s := actor(t, v); s == 0 {
		want[0] = append(want[0], v.Version) // Bea's join made it Ana's turn
	}
	for moves := 0; moves < 6 && v.Status == "playing"; moves++ {
		s := actor(t, v)
		var mine view
		do(t, "GET", games, keys[s], "").decode(t, "poll", http.StatusOK, &mine)
		do(t, "POST", games+"/moves", keys[s], nextMove(t, mine, "")).decode(t, "move", http.StatusOK, &v)
		if v.Status != "playing" {
			break
		}
		if next := actor(t, v); next != s {
			want[next] = append(want[next], v.Version)
		}
	}
	if len(want[0])+len(want[1]) == 0 {
		t.Fatal("no push was expected: the test proves nothing")
	}
	// The move answers after its pushes were sent, but the push service
	// may file them a moment later.
	deadline := time.Now().Add(5 * time.Second)
	for seat, hash := range hashes {
		var got []pushMessage
		for {
			got = svc.received(hash)
			if len(got) >= len(want[seat]) || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		var versions []int
		for _, m := range got {
			versions = append(versions, m.Version)
			if m.Game != ana.Game.ID || m.Kind != "turn" || !strings.HasPrefix(m.Title, "Your turn") {
				t.Errorf("seat %d got %+v", seat, m)
			}
		}
		if fmt.Sprint(versions) != fmt.Sprint(want[seat]) {
			t.Errorf("seat %d got turn pushes at versions %v, want %v", seat, versions, want[seat])
		}
	}
}
