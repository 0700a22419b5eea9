package lambdaapp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"tessera/functions/api"
	"tessera/functions/setup"
	"tessera/functions/store/memory"
)

func TestConfigFromEnvironment(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    setup.Config
		wantErr error
	}{
		{"the table alone is AWS's DynamoDB, with push", map[string]string{"TABLE_NAME": "games"}, setup.Config{DynamoTable: "games", Push: true}, nil},
		{"an endpoint points elsewhere", map[string]string{"TABLE_NAME": "games", "DYNAMODB_ENDPOINT": "http://127.0.0.1:4567"},
			setup.Config{DynamoTable: "games", DynamoEndpoint: "http://127.0.0.1:4567", Push: true}, nil},
		{"PUSH=0 turns push off; PUSH_SUBJECT names the contact", map[string]string{"TABLE_NAME": "games", "PUSH": "0", "PUSH_SUBJECT": "mailto:a@b.c"},
			setup.Config{DynamoTable: "games", PushSubject: "mailto:a@b.c"}, nil},
		{"no table is a configuration error", map[string]string{"DYNAMODB_ENDPOINT": "http://x"}, setup.Config{}, ErrNoTable},
		{"an empty table is no table", map[string]string{"TABLE_NAME": ""}, setup.Config{}, ErrNoTable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ConfigFromEnv(func(k string) string { return tc.env[k] })
			if !errors.Is(err, tc.wantErr) || got != tc.want {
				t.Errorf("ConfigFromEnv = %+v, %v; want %+v, %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func v2(method, path string, headers map[string]string, body string) events.APIGatewayV2HTTPRequest {
	return events.APIGatewayV2HTTPRequest{
		Version: "2.0", RawPath: path, Headers: headers, Body: body,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			DomainName: "api.example.test",
			HTTP:       events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: path, SourceIP: "203.0.113.1"},
		},
	}
}

// The adapter must carry what the API depends on both ways: path, method,
// body, Authorization and If-None-Match in; status, ETag and the JSON body
// out.
func TestProxyCarriesAPIRequestsAndAnswers(t *testing.T) {
	var logs strings.Builder
	proxy := Proxy(api.New(api.Config{Store: memory.New(), Logger: NewLogger(&logs)}))
	ctx := context.Background()

	created, err := proxy(ctx, v2("POST", "/api/games", map[string]string{"content-type": "application/json"},
		`{"variant": "fiveup", "players": 2, "name": "Ana"}`))
	if err != nil || created.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v %s, want 201", created.StatusCode, err, created.Body)
	}
	var seat struct {
		Game  struct{ ID string } `json:"game"`
		Token string              `json:"token"`
	}
	if err := json.Unmarshal([]byte(created.Body), &seat); err != nil || seat.Game.ID == "" || seat.Token == "" {
		t.Fatalf("create body %s: %v", created.Body, err)
	}

	auth := map[string]string{"authorization": "Bearer " + seat.Token}
	got, err := proxy(ctx, v2("GET", "/api/games/"+seat.Game.ID, auth, ""))
	if err != nil || got.StatusCode != http.StatusOK {
		t.Fatalf("state: %d %v %s, want 200", got.StatusCode, err, got.Body)
	}
	var view struct {
		You *struct{ Seat int } `json:"you"`
	}
	if err := json.Unmarshal([]byte(got.Body), &view); err != nil || view.You == nil || view.You.Seat != 0 {
		t.Errorf("state with the token: you = %+v (%v), want seat 0: the Authorization header did not arrive", view.You, err)
	}
	etag := got.Headers["Etag"]
	if etag == "" {
		t.Fatalf("state answer headers %v, want an ETag", got.Headers)
	}
	again, err := proxy(ctx, v2("GET", "/api/games/"+seat.Game.ID, map[string]string{
		"authorization": "Bearer " + seat.Token, "if-none-match": etag}, ""))
	if err != nil || again.StatusCode != http.StatusNotModified || again.Body != "" {
		t.Errorf("state with If-None-Match: %d %v %q, want 304 without a body", again.StatusCode, err, again.Body)
	}
	if strings.Contains(logs.String(), seat.Token) {
		t.Errorf("the seat token reached the log: %s", logs.String())
	}
}

func TestNewLoggerWritesJSON(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		NewLogger(w).Info("hello", "n", 1)
		w.Close()
	}()
	line, _ := io.ReadAll(r)
	var rec map[string]any
	if err := json.Unmarshal(line, &rec); err != nil || rec["msg"] != "hello" || rec["n"] != float64(1) {
		t.Errorf("log line %q is not the JSON record {msg: hello, n: 1}: %v", line, err)
	}
}

type suppressed []string

func (s *suppressed) Suppress(_ context.Context, addr string) error {
	*s = append(*s, addr)
	return nil
}

// The clock function hears SES's bounces and complaints through SNS: the
// recipients of a permanent bounce and of a complaint are suppressed; the
// schedule's own invocation is not an SNS one (the sweep runs).
func TestTheClockFunctionSuppressesBouncedAddresses(t *testing.T) {
	bounce := `{"eventType":"Bounce","bounce":{"bounceType":"Permanent","bouncedRecipients":[{"emailAddress":"ana@example.com"}]}}`
	complaint := `{"eventType":"Complaint","complaint":{"complainedRecipients":[{"emailAddress":"bea@example.com"}]}}`
	rec := func(msg string) map[string]any {
		return map[string]any{"EventSource": "aws:sns", "EventVersion": "1.0", "Sns": map[string]any{"Type": "Notification", "Message": msg}}
	}
	raw, _ := json.Marshal(map[string]any{"Records": []any{rec(bounce), rec(complaint), rec("{}")}})
	var s suppressed
	n, ok, err := MailEvents(context.Background(), &s, raw, NewLogger(io.Discard))
	if !ok || err != nil || n != 2 || strings.Join(s, ",") != "ana@example.com,bea@example.com" {
		t.Fatalf("an SNS invocation: %d, %v, %v; suppressed %v", n, ok, err, s)
	}
	schedule := json.RawMessage(`{"version":"0","id":"x","detail-type":"Scheduled Event","source":"aws.events","detail":{}}`)
	if _, ok, _ := MailEvents(context.Background(), &s, schedule, NewLogger(io.Discard)); ok {
		t.Fatal("the schedule's invocation taken for an SNS one")
	}
}
