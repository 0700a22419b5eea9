package dynamo

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// Limits of one DynamoDB call, so that a Lambda answers 503 in time instead
// of hanging: at most MaxAttempts attempts of at most
// AttemptTimeout each, with at most MaxBackoff between them.
const (
	MaxAttempts       = 3
	AttemptTimeout    = 2 * time.Second
	MaxBackoff        = 300 * time.Millisecond
	dynamoDialTimeout = time.Second
)

// Credentials and default region used when an endpoint is given: local
// servers (dynalite, DynamoDB Local) accept any credentials.
const (
	localRegion    = "us-east-1"
	localAccessKey = "tessera-local"
	localSecretKey = "tessera-local"
)

// AWSConfig loads the AWS configuration from the environment (as a Lambda
// has it) with bounded retries and time-outs. If endpoint is not empty, calls
// go there instead of AWS, signed with static local credentials, and the
// region defaults to us-east-1. optFns come last and may override anything,
// e.g. config.WithHTTPClient in tests.
func AWSConfig(ctx context.Context, endpoint string, optFns ...func(*config.LoadOptions) error) (aws.Config, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithRetryer(retryer),
		config.WithHTTPClient(httpClient()),
	}
	if endpoint != "" {
		opts = append(opts,
			config.WithBaseEndpoint(endpoint),
			config.WithDefaultRegion(localRegion),
			config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(localAccessKey, localSecretKey, "")),
		)
	}
	opts = append(opts, optFns...)
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("store: load AWS config: %w", err)
	}
	return cfg, nil
}

// retryer bounds a call's attempts and the back-off between them.
func retryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = MaxAttempts
		o.MaxBackoff = MaxBackoff
	})
}

// httpClient bounds each attempt: dialling, the answer's headers, the whole.
func httpClient() *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().
		WithTimeout(AttemptTimeout).
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = dynamoDialTimeout }).
		WithTransportOptions(func(t *http.Transport) { t.ResponseHeaderTimeout = AttemptTimeout })
}
