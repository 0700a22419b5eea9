package api

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"tessera/functions/store"
)

// Through the API Gateway (HTTP API, payload 2.0) adapter the Lambda
// functions use: the gateway's request id names the log line, and the
// answer keeps its status, headers and body.
func TestThroughTheAPIGatewayAdapter(t *testing.T) {
	s := newServer(t, store.NewMemory(), 41)
	proxy := httpadapter.NewV2(s.h)
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RawPath: "/api/games", Headers: map[string]string{"content-type": "application/json"},
		Body: `{"variant":"fiveup","players":2,"name":"Ana"}`,
		RequestContext: events.APIGatewayV2HTTPRequestContext{RequestID: "gw-req-7",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/api/games"}},
	}
	resp, err := proxy.ProxyWithContext(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 201 || resp.Headers["Cache-Control"] != "no-store" || !strings.Contains(resp.Body, `"token"`) {
		t.Fatalf("create through the adapter: %d %v %s", resp.StatusCode, resp.Headers, resp.Body)
	}
	if !strings.Contains(s.logs.String(), `"requestId":"gw-req-7"`) {
		t.Errorf("the gateway's request id is not logged: %s", s.logs.String())
	}
	ev.RawPath, ev.RequestContext.HTTP.Path, ev.RequestContext.HTTP.Method = "/api/games", "/api/games", "DELETE"
	resp, err = proxy.ProxyWithContext(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 405 || resp.Headers["Allow"] != "POST" {
		t.Fatalf("405 through the adapter: %d %v", resp.StatusCode, resp.Headers)
	}
}
