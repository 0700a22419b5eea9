//go:build linux

package lambdatest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"tessera/functions/store/dynamo"
	"tessera/internal/testenv"
)

// actionRecorder sits between one function and dynalite and notes every
// DynamoDB operation the function calls (the X-Amz-Target header).
type actionRecorder struct {
	mu      sync.Mutex
	actions map[string]int
}

func recordingProxy(t *testing.T, endpoint string) (*actionRecorder, string) {
	t.Helper()
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	rec := &actionRecorder{actions: map[string]int{}}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if op, ok := strings.CutPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810."); ok {
			rec.mu.Lock()
			rec.actions["dynamodb:"+op]++
			rec.mu.Unlock()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return rec, srv.URL
}

func (r *actionRecorder) used() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for a := range r.actions {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// view is the part of API.md's view the game loop reads.
type view struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	Status  string `json:"status"`
	Hand    *struct {
		Phase      string `json:"phase"`
		Turn       *int   `json:"turn"`
		Confirming []int  `json:"confirming"`
	} `json:"hand"`
	You *struct {
		Seat  int `json:"seat"`
		Legal []struct {
			Tile [2]int `json:"tile"`
			End  string `json:"end"`
		} `json:"legal"`
		Confirm bool `json:"confirm"`
	} `json:"you"`
	Winner *int `json:"winner"`
}

type seated struct {
	Game  view   `json:"game"`
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

type apiError struct {
	Error struct {
		Code string `json:"code"`
	} `json:"error"`
	Game *view `json:"game"`
}

func decode(t *testing.T, what string, resp events.APIGatewayV2HTTPResponse, wantStatus int, out any) {
	t.Helper()
	if resp.StatusCode != wantStatus {
		t.Fatalf("%s: status %d, want %d; body %s", what, resp.StatusCode, wantStatus, resp.Body)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(resp.Body), out); err != nil {
			t.Fatalf("%s: body is not the expected JSON: %v\n%s", what, err, resp.Body)
		}
	}
}

func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

type lastMove struct {
	seat int
	body string
}

// operatorToken is the moderators' token the test's functions get (a
// deployment's comes from the stack parameter OperatorToken).
const operatorToken = "lambdatest-operator-2f9Kq7"

// deployFunctions starts the five bootstraps, each under its own emulator,
// against a fresh table on dynalite, each through its own recording proxy.
func deployFunctions(t *testing.T) (map[string]*emulated, map[string]*actionRecorder) {
	t.Helper()
	endpoint := testenv.Dynalite(t)
	table := testenv.TableName(t)
	ctx := context.Background()
	st, err := dynamo.NewFromConfig(ctx, table, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(ctx); err != nil {
		t.Fatal(err)
	}
	fns := map[string]*emulated{}
	recorders := map[string]*actionRecorder{}
	for _, name := range []string{"CreateFunction", "JoinFunction", "StateFunction", "MoveFunction", "PlayerFunction"} {
		bootstrap := nativeBootstrap(t, name)
		rec, proxyURL := recordingProxy(t, endpoint)
		recorders[name] = rec
		fns[name] = startEmulated(t, name, bootstrap, "TABLE_NAME="+table, "DYNAMODB_ENDPOINT="+proxyURL, "OPERATOR_TOKEN="+operatorToken)
	}
	return fns, recorders
}

// playToTheEnd makes the moves the humans holding tokens must make until the
// match is finished: the first legal play, or keeping the hand when asked
// about a redeal. Computer seats must never be the ones to act. It returns
// the final view, the number of moves and the last move made.
func playToTheEnd(t *testing.T, state, move *emulated, start view, tokens map[int]string) (final view, moves int, last lastMove) {
	t.Helper()
	id := start.ID
	current := start
	for current.Status != "finished" {
		if moves++; moves > 400 {
			t.Fatalf("match not finished after 400 moves; last view %+v", current)
		}
		if current.Hand == nil {
			t.Fatalf("playing game without a hand: %+v", current)
		}
		var seat int
		var body string
		moveID := fmt.Sprintf("m%d", moves)
		switch current.Hand.Phase {
		case "confirm":
			if len(current.Hand.Confirming) == 0 {
				t.Fatalf("phase confirm with nobody confirming: %+v", current.Hand)
			}
			seat = current.Hand.Confirming[0]
			if _, ok := tokens[seat]; !ok {
				t.Fatalf("seat %d (no human's) is asked about a redeal: the server should have answered", seat)
			}
			body = fmt.Sprintf(`{"version": %d, "moveId": %q, "type": "keep"}`, current.Version, moveID)
		case "play":
			if current.Hand.Turn == nil {
				t.Fatalf("phase play without a turn: %+v", current.Hand)
			}
			seat = *current.Hand.Turn
			if _, ok := tokens[seat]; !ok {
				t.Fatalf("seat %d (no human's) is to play: the server should have played it", seat)
			}
			var mine view
			decode(t, "state before a move", state.invoke(t, apiEvent("GET /api/games/{id}", "GET", "/api/games/"+id, bearer(tokens[seat]), "")), http.StatusOK, &mine)
			if mine.You == nil || len(mine.You.Legal) == 0 {
				t.Fatalf("seat %d to play but no legal moves: %+v", seat, mine.You)
			}
			l := mine.You.Legal[0]
			body = fmt.Sprintf(`{"version": %d, "moveId": %q, "type": "play", "tile": [%d, %d], "end": %q}`,
				mine.Version, moveID, l.Tile[0], l.Tile[1], l.End)
		default:
			t.Fatalf("phase %q while the match is %s", current.Hand.Phase, current.Status)
		}
		var next view
		decode(t, "move "+moveID, move.invoke(t, apiEvent("POST /api/games/{id}/moves", "POST", "/api/games/"+id+"/moves", bearer(tokens[seat]), body)), http.StatusOK, &next)
		if next.Version != current.Version+1 {
			t.Fatalf("move %s: version %d -> %d, want +1", moveID, current.Version, next.Version)
		}
		current = next
		last = lastMove{seat, body}
	}
	return current, moves, last
}

// TestAGameThroughTheBootstraps plays a two-player Five Up match to the
// end through the real bootstrap binaries, each under its own emulator,
// against dynalite, with API Gateway HTTP API v2 events; then a player's
// routes (their games, a push device, the VAPID key).
func TestAGameThroughTheBootstraps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs five Lambda binaries; skipped with -short")
	}
	fns, recorders := deployFunctions(t)
	create, join, state, move := fns["CreateFunction"], fns["JoinFunction"], fns["StateFunction"], fns["MoveFunction"]
	player := fns["PlayerFunction"]

	// Create, then take the other seat: the match starts.
	var ana seated
	decode(t, "create", create.invoke(t, apiEvent("POST /api/games", "POST", "/api/games", nil,
		`{"variant": "fiveup", "players": 2, "target": 50, "name": "Ana"}`)), http.StatusCreated, &ana)
	id := ana.Game.ID
	if id == "" || ana.Token == "" || ana.Seat != 0 || ana.Game.Version != 1 || ana.Game.Status != "open" {
		t.Fatalf("create answer = %+v, want seat 0 of an open game at version 1 with a token", ana)
	}
	var bea seated
	decode(t, "join", join.invoke(t, apiEvent("POST /api/games/{id}/seats", "POST", "/api/games/"+id+"/seats", nil,
		`{"name": "Bea"}`)), http.StatusCreated, &bea)
	if bea.Seat != 1 || bea.Token == "" || bea.Game.Version != 2 || bea.Game.Status != "playing" {
		t.Fatalf("join answer = seat %d version %d status %s, want seat 1, version 2, playing", bea.Seat, bea.Game.Version, bea.Game.Status)
	}
	tokens := []string{ana.Token, bea.Token}

	// The poll: 200 with an ETag, then 304 without a body.
	stateRoute := "GET /api/games/{id}"
	first := state.invoke(t, apiEvent(stateRoute, "GET", "/api/games/"+id, bearer(ana.Token), ""))
	var polled view
	decode(t, "state", first, http.StatusOK, &polled)
	etag := header(first, "ETag")
	if etag == "" || polled.You == nil || polled.You.Seat != 0 {
		t.Fatalf("state: ETag %q, you %+v; want an ETag and seat 0's view", etag, polled.You)
	}
	if cc := header(first, "Cache-Control"); cc != "no-store" {
		t.Errorf("state Cache-Control = %q, want no-store", cc)
	}
	notModified := state.invoke(t, apiEvent(stateRoute, "GET", "/api/games/"+id,
		map[string]string{"Authorization": "Bearer " + ana.Token, "If-None-Match": etag}, ""))
	if notModified.StatusCode != http.StatusNotModified || notModified.Body != "" {
		t.Errorf("state with If-None-Match: %d %q, want 304 without a body", notModified.StatusCode, notModified.Body)
	}
	var spectator view
	decode(t, "spectator state", state.invoke(t, apiEvent(stateRoute, "GET", "/api/games/"+id, nil, "")), http.StatusOK, &spectator)
	if spectator.You != nil {
		t.Errorf("spectator view has you = %+v, want null", spectator.You)
	}
	decode(t, "state with a wrong token", state.invoke(t, apiEvent(stateRoute, "GET", "/api/games/"+id, bearer("not-a-token"), "")), http.StatusUnauthorized, nil)

	current, moves, last := playToTheEnd(t, state, move, polled, map[int]string{0: ana.Token, 1: bea.Token})
	if current.Winner == nil {
		t.Errorf("finished match without a winner: %+v", current)
	}
	t.Logf("match finished after %d moves at version %d, winner team %d", moves, current.Version, *current.Winner)

	moveRoute := "POST /api/games/{id}/moves"
	// A retried move (same moveId) is answered 200 and applied only once.
	var retried view
	decode(t, "retried move", move.invoke(t, apiEvent(moveRoute, "POST", "/api/games/"+id+"/moves", bearer(tokens[last.seat]), last.body)), http.StatusOK, &retried)
	if retried.Version != current.Version {
		t.Errorf("retried move changed the version %d -> %d", current.Version, retried.Version)
	}
	// A move on an old version is 409 stale_version with the current view.
	var stale apiError
	decode(t, "stale move", move.invoke(t, apiEvent(moveRoute, "POST", "/api/games/"+id+"/moves", bearer(tokens[0]),
		`{"version": 1, "type": "keep"}`)), http.StatusConflict, &stale)
	if stale.Error.Code != "stale_version" || stale.Game == nil || stale.Game.Version != current.Version {
		t.Errorf("stale move: %+v, want stale_version with the current view", stale)
	}
	// The fallback route: the handler itself answers unknown paths and
	// wrong methods, as API.md says.
	var notFound apiError
	decode(t, "unknown path", state.invoke(t, apiEvent("ANY /api/{proxy+}", "GET", "/api/nothing/here", nil, "")), http.StatusNotFound, &notFound)
	if notFound.Error.Code != "not_found" {
		t.Errorf("unknown path: code %q, want not_found", notFound.Error.Code)
	}
	var wrongMethod apiError
	decode(t, "wrong method", state.invoke(t, apiEvent("ANY /api/{proxy+}", "DELETE", "/api/games/"+id, nil, "")), http.StatusMethodNotAllowed, &wrongMethod)
	if wrongMethod.Error.Code != "method_not_allowed" {
		t.Errorf("wrong method: code %q, want method_not_allowed", wrongMethod.Error.Code)
	}

	// A player's routes: a game made with a key is in its list; a device
	// is registered and removed; the VAPID key is the same twice.
	const key = "lambdatest-player-key-0123456789abcdef"
	var keyed seated
	decode(t, "create with a key", create.invoke(t, apiEvent("POST /api/games", "POST", "/api/games", nil,
		`{"variant": "fiveup", "players": 2, "name": "Cleo", "key": "`+key+`"}`)), http.StatusCreated, &keyed)
	if keyed.Token != key {
		t.Errorf("create with a key answered token %q, want the key", keyed.Token)
	}
	var mine struct {
		Games []struct {
			ID   string `json:"id"`
			Seat int    `json:"seat"`
		} `json:"games"`
	}
	decode(t, "my games", player.invoke(t, apiEvent("GET /api/me", "GET", "/api/me", bearer(key), "")), http.StatusOK, &mine)
	if len(mine.Games) != 1 || mine.Games[0].ID != keyed.Game.ID || mine.Games[0].Seat != 0 {
		t.Errorf("my games = %+v, want the one game created with the key", mine)
	}
	var pk, pk2 struct {
		PublicKey string `json:"publicKey"`
	}
	decode(t, "push key", player.invoke(t, apiEvent("GET /api/push", "GET", "/api/push", nil, "")), http.StatusOK, &pk)
	decode(t, "push key again", player.invoke(t, apiEvent("GET /api/push", "GET", "/api/push", nil, "")), http.StatusOK, &pk2)
	if len(pk.PublicKey) != 87 || pk.PublicKey != pk2.PublicKey {
		t.Errorf("push keys %q, %q: want one 65-byte key in base64url", pk.PublicKey, pk2.PublicKey)
	}
	device := `{"endpoint": "https://push.example/send/lambdatest", "expirationTime": null, "keys": {"p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", "auth": "BTBZMqHH6r4Tts7J_aSIgg"}}`
	decode(t, "put device", player.invoke(t, apiEvent("PUT /api/me/push", "PUT", "/api/me/push", bearer(key), device)), http.StatusNoContent, nil)
	decode(t, "delete device", player.invoke(t, apiEvent("DELETE /api/me/push", "DELETE", "/api/me/push", bearer(key),
		`{"endpoint": "https://push.example/send/lambdatest"}`)), http.StatusNoContent, nil)
	decode(t, "my games without a key", player.invoke(t, apiEvent("GET /api/me", "GET", "/api/me", nil, "")), http.StatusUnauthorized, nil)

	// The room's routes: an open game is listed in the lobby (one Query of
	// the lists index), the key's profile is public, a leaderboard reads.
	var open seated
	decode(t, "create an open game", create.invoke(t, apiEvent("POST /api/games", "POST", "/api/games", nil,
		`{"variant": "fiveup", "players": 2, "name": "Cleo", "key": "`+key+`", "open": true, "moveTime": 3600}`)), http.StatusCreated, &open)
	var lobby struct {
		Games []struct {
			ID string `json:"id"`
		} `json:"games"`
	}
	decode(t, "lobby", state.invoke(t, apiEvent("GET /api/lobby", "GET", "/api/lobby", nil, "")), http.StatusOK, &lobby)
	if len(lobby.Games) != 1 || lobby.Games[0].ID != open.Game.ID {
		t.Errorf("lobby = %+v, want the open game %s", lobby, open.Game.ID)
	}
	var profile struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	decode(t, "set a name", player.invoke(t, apiEvent("PUT /api/me/profile", "PUT", "/api/me/profile", bearer(key), `{"name": "Cleo"}`)), http.StatusOK, &profile)
	var public struct {
		Name string `json:"name"`
	}
	decode(t, "a profile", state.invoke(t, apiEvent("GET /api/players/{id}", "GET", "/api/players/"+profile.ID, nil, "")), http.StatusOK, &public)
	if public.Name != "Cleo" {
		t.Errorf("profile name %q, want Cleo", public.Name)
	}
	decode(t, "a leaderboard", state.invoke(t, apiEvent("GET /api/leaderboard/{pool}", "GET", "/api/leaderboard/partnership", nil, "")), http.StatusOK, nil)

	// The moderation queue (a Query of the lists index) and a forgetting
	// (DeleteItem) on the player's function, with the stack's token.
	var queue struct {
		Reports []json.RawMessage `json:"reports"`
	}
	decode(t, "the moderation queue", player.invoke(t, apiEvent("GET /api/reports", "GET", "/api/reports", bearer(operatorToken), "")), http.StatusOK, &queue)
	decode(t, "a queue without the token", player.invoke(t, apiEvent("GET /api/reports", "GET", "/api/reports", bearer(key), "")), http.StatusUnauthorized, nil)
	decode(t, "forget me", player.invoke(t, apiEvent("DELETE /api/me", "DELETE", "/api/me", bearer(key), "")), http.StatusNoContent, nil)
	decode(t, "the forgotten profile", state.invoke(t, apiEvent("GET /api/players/{id}", "GET", "/api/players/"+profile.ID, nil, "")), http.StatusNotFound, nil)

	// Secrets never reach a log line.
	for name, fn := range fns {
		if strings.Contains(fn.out.String(), key) {
			t.Errorf("%s's log contains the player key", name)
		}
		if strings.Contains(fn.out.String(), operatorToken) {
			t.Errorf("%s's log contains the operator token", name)
		}
		for i, token := range tokens {
			if strings.Contains(fn.out.String(), token) {
				t.Errorf("%s's log contains seat %d's token", name, i)
			}
		}
	}

	// Least privilege, checked against what the functions really did: every
	// operation a function called is granted to it by template.yaml, and
	// every granted operation was used by some function.
	tmpl := loadTemplate(t)
	usedAnywhere := map[string]bool{}
	grantedAnywhere := map[string]bool{}
	for name, fn := range tmpl.GetAllServerlessFunctionResources() {
		if name == "ClockFunction" || name == "PublishFunction" {
			// Not HTTP functions: TestTheClockBootstrapTimesOutALateSeat and
			// TestThePageFunctionPublishesInvalidatesAndEmpties run them.
			continue
		}
		granted := grantedActions(t, name, fn)
		for _, a := range granted {
			grantedAnywhere[a] = true
		}
		for _, a := range recorders[name].used() {
			usedAnywhere[a] = true
			if !slices.Contains(granted, a) {
				t.Errorf("%s called %s, which template.yaml does not grant it (grants %v)", name, a, granted)
			}
		}
	}
	for a := range grantedAnywhere {
		// A game sends no mail (the stack's MailFrom is empty here): SES's
		// request is checked in functions/mail (TestSESSendsTheRawMessage
		// ThroughTheSDK), not through the bootstraps.
		if !usedAnywhere[a] && !strings.HasPrefix(a, "ses:") {
			t.Errorf("template.yaml grants %s, which no function used during a whole game", a)
		}
	}

	// Cold starts are measured by BenchmarkColdStart; here, only what the
	// emulator reported for each bootstrap's init, and the calls it made.
	for _, name := range []string{"CreateFunction", "JoinFunction", "StateFunction", "MoveFunction", "PlayerFunction"} {
		initMs, _ := fns[name].initMillis()
		t.Logf("%s: bootstrap init %.1f ms; DynamoDB calls %v", name, initMs, recorders[name].used())
	}
}

// TestAPartnershipAgainstComputerPlayersThroughTheBootstraps: a create whose
// other seats are all computer players starts at once, and the Move
// function plays the computers' turns inside the human's requests.
func TestAPartnershipAgainstComputerPlayersThroughTheBootstraps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the Lambda binaries; skipped with -short")
	}
	fns, _ := deployFunctions(t)
	var ana seated
	decode(t, "create", fns["CreateFunction"].invoke(t, apiEvent("POST /api/games", "POST", "/api/games", nil,
		`{"variant": "partnership", "target": 20, "name": "Ana",
		  "bots": [{"seat": 1, "level": "easy"}, {"seat": 2, "level": "easy"}, {"seat": 3, "level": "easy"}]}`)),
		http.StatusCreated, &ana)
	if ana.Game.Status != "playing" || ana.Seat != 0 {
		t.Fatalf("create with three computer players: status %q seat %d, want playing, seat 0", ana.Game.Status, ana.Seat)
	}
	final, moves, _ := playToTheEnd(t, fns["StateFunction"], fns["MoveFunction"], ana.Game, map[int]string{0: ana.Token})
	if final.Winner == nil {
		t.Fatalf("finished match without a winner: %+v", final)
	}
	t.Logf("partnership finished after %d human moves at version %d, winner team %d", moves, final.Version, *final.Winner)
}
