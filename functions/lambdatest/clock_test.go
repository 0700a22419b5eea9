package lambdatest

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/awslabs/goformation/v7/cloudformation/serverless"

	"tessera/functions/api"
	"tessera/functions/store/dynamo"
	"tessera/internal/testenv"
)

// The clock bootstrap, under the emulator with a scheduled event against
// dynalite, times out a seat whose deadline passed while nobody looked,
// through the due index, with only the actions the template grants it.
func TestTheClockBootstrapTimesOutALateSeat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the clock's Lambda binary; skipped with -short")
	}
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
	// A game whose clock started two hours ago, made in process.
	past := time.Now().Add(-2 * time.Hour)
	h := api.New(api.Config{Store: st, Now: func() time.Time { return past }})
	do := func(method, path, body, token string) []byte {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
		}
		return rec.Body.Bytes()
	}
	var created struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
	}
	json.Unmarshal(do("POST", "/api/games", `{"variant":"fiveup","players":2,"redeal":false,"name":"Ana","moveTime":60}`, ""), &created)
	id := created.Game.ID
	do("POST", "/api/games/"+id+"/seats", `{"name":"Bea"}`, "")
	type game struct {
		Version int `json:"version"`
		Seats   []struct {
			Away bool `json:"away"`
		} `json:"seats"`
	}
	var before game
	json.Unmarshal(do("GET", "/api/games/"+id, "", ""), &before)

	rec, proxyURL := recordingProxy(t, endpoint)
	clock := startEmulated(t, "ClockFunction", nativeBootstrap(t, "ClockFunction"),
		"TABLE_NAME="+table, "DYNAMODB_ENDPOINT="+proxyURL, "PUSH_SUBJECT=https://tessera.example")
	event := `{"version":"0","id":"53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa","detail-type":"Scheduled Event","source":"aws.events",` +
		`"account":"123456789012","time":"` + time.Now().UTC().Format(time.RFC3339) + `","region":"us-east-1",` +
		`"resources":["arn:aws:events:us-east-1:123456789012:rule/clock"],"detail":{}}`
	out := clock.invokeRaw(t, []byte(event))
	var result struct {
		Games int `json:"games"`
	}
	if err := json.Unmarshal(out, &result); err != nil || result.Games != 1 {
		t.Fatalf("the clock answered %s, want {\"games\": 1}", out)
	}
	// Read at the old clock, which applies nothing itself.
	var after game
	json.Unmarshal(do("GET", "/api/games/"+id, "", ""), &after)
	away := 0
	for _, s := range after.Seats {
		if s.Away {
			away++
		}
	}
	if after.Version != before.Version+1 || away != 1 {
		t.Fatalf("after the clock: version %d (was %d), %d seats away; want one change, one seat away", after.Version, before.Version, away)
	}
	// A second sweep has nothing to do.
	if out := clock.invokeRaw(t, []byte(event)); !strings.Contains(string(out), `"games":0`) {
		t.Errorf("a second sweep answered %s", out)
	}
	granted := grantedActions(t, "ClockFunction", mustFunction(t, "ClockFunction"))
	used := rec.used()
	if !slices.Contains(used, "dynamodb:Query") {
		t.Errorf("the clock made no Query: %v", used)
	}
	for _, a := range used {
		if !slices.Contains(granted, a) {
			t.Errorf("the clock called %s, which template.yaml does not grant it (%v)", a, granted)
		}
	}
}

func mustFunction(t *testing.T, name string) *serverless.Function {
	t.Helper()
	fn, err := loadTemplate(t).GetServerlessFunctionWithName(name)
	if err != nil {
		t.Fatal(err)
	}
	return fn
}
