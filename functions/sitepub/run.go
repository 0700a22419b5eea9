package sitepub

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/cfn"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"tessera/frontend"
	"tessera/functions/game"
	"tessera/functions/store/dynamo"
)

// Environment of the function. S3_ENDPOINT and CLOUDFRONT_ENDPOINT are for
// tests (a gofakes3 server, a recording server); on AWS they are unset.
const (
	envTable      = "TABLE_NAME"
	envS3         = "S3_ENDPOINT"
	envCloudFront = "CLOUDFRONT_ENDPOINT"
	envDynamo     = "DYNAMODB_ENDPOINT"
)

// answerBefore is how long before the function's own timeout it gives up
// and answers FAILED: CloudFormation waits an hour for an answer that a
// timed-out function never sends.
const answerBefore = 15 * time.Second

// Run is the function's main.
func Run() {
	logger := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		logger.Error("aws configuration", "err", err)
		os.Exit(1)
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if e := os.Getenv(envS3); e != "" {
			o.BaseEndpoint = aws.String(e)
			o.UsePathStyle = true
		}
	})
	cf := &CloudFront{Endpoint: DefaultCloudFront, Credentials: cfg.Credentials}
	if e := os.Getenv(envCloudFront); e != "" {
		cf.Endpoint = e
	}
	p := &Publisher{S3: client, Files: frontend.Static(), ContentType: frontend.ContentType,
		CacheControl: frontend.CacheControl, Invalidate: cf.Invalidate}
	if table := os.Getenv(envTable); table != "" {
		p.SaveSite = func(ctx context.Context, origin string) error {
			st, err := dynamo.NewFromConfig(ctx, table, os.Getenv(envDynamo))
			if err != nil {
				return err
			}
			return game.SaveSite(ctx, st, origin, time.Now())
		}
	}
	handle := func(ctx context.Context, ev cfn.Event) (string, map[string]any, error) {
		if d, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, d.Add(-answerBefore))
			defer cancel()
		}
		id, data, err := p.Handle(ctx, ev)
		logger.Info("page", "request", ev.RequestType, "physicalId", id, "data", data, "err", err)
		return id, data, err
	}
	lambda.Start(cfn.LambdaWrap(handle))
}
