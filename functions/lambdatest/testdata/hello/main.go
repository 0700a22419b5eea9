// Command hello is the cold-start baseline for the Tessera functions: the
// smallest aws-lambda-go function answering API Gateway HTTP API events,
// built exactly like them (make lambda-bootstrap). It lives under testdata so
// that ./... patterns leave it alone.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
)

func handle(_ context.Context, _ events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return events.APIGatewayV2HTTPResponse{StatusCode: 200, Body: "hello"}, nil
}

func main() { lambda.Start(handle) }
