package lambdaapp

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"tessera/functions/api"
	"tessera/functions/store/memory"
)

// Through the API Gateway (HTTP API, payload 2.0) adapter the Lambda
// functions use: the gateway's request id names the log line, and the
// answer keeps its status, headers and body.
func TestThroughTheAPIGatewayAdapter(t *testing.T) {
	var logs strings.Builder
	proxy := Proxy(api.New(api.Config{Store: memory.New(), Logger: NewLogger(&logs)}))
	ev := v2("POST", "/api/games", map[string]string{"content-type": "application/json"},
		`{"variant":"fiveup","players":2,"name":"Ana"}`)
	ev.RequestContext.RequestID = "gw-req-7"
	resp, err := proxy(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 201 || resp.Headers["Cache-Control"] != "no-store" || !strings.Contains(resp.Body, `"token"`) {
		t.Fatalf("create through the adapter: %d %v %s", resp.StatusCode, resp.Headers, resp.Body)
	}
	if !strings.Contains(logs.String(), `"requestId":"gw-req-7"`) || resp.Headers["X-Request-Id"] != "gw-req-7" {
		t.Errorf("the gateway's request id is not the request's: header %q, logs %s", resp.Headers["X-Request-Id"], logs.String())
	}
	ev.RequestContext.HTTP.Method = "DELETE"
	resp, err = proxy(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 405 || resp.Headers["Allow"] != "POST" {
		t.Fatalf("405 through the adapter: %d %v", resp.StatusCode, resp.Headers)
	}
}

// Without API Gateway's id, the Lambda invocation's names the request, and
// a client's X-Request-Id does not replace it.
func TestTheLambdaRequestIDNamesTheRequest(t *testing.T) {
	var logs strings.Builder
	h := WithRequestIDs(api.New(api.Config{Store: memory.New(), Logger: NewLogger(&logs)}))
	req := httptest.NewRequest("GET", "/api/games/aaaaaaaaaaaaaaaa", nil)
	req = req.WithContext(lambdacontext.NewContext(req.Context(), &lambdacontext.LambdaContext{AwsRequestID: "lambda-42"}))
	req.Header.Set("X-Request-Id", "ignored")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !strings.Contains(logs.String(), `"requestId":"lambda-42"`) || rec.Header().Get("X-Request-Id") != "lambda-42" {
		t.Errorf("the Lambda request id is not the request's: header %q, logs %s", rec.Header().Get("X-Request-Id"), logs.String())
	}
	// Outside Lambda the middleware changes nothing.
	logs.Reset()
	req = httptest.NewRequest("GET", "/api/games/aaaaaaaaaaaaaaaa", nil)
	req.Header.Set("X-Request-Id", "client-req-1")
	h.ServeHTTP(httptest.NewRecorder(), req)
	if !strings.Contains(logs.String(), `"requestId":"client-req-1"`) {
		t.Errorf("the client's id is not used outside Lambda: %s", logs.String())
	}
}
