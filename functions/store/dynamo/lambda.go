package dynamo

import (
	"errors"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// NewForLambda is NewFromConfig for a Lambda function, whose configuration
// is its environment alone: the region (AWS_REGION) and the execution
// role's credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN), which the SDK's default chain would also read from
// there and never refresh. It does not link the SDK's config package and
// its shared-file, SSO, STS and instance-metadata providers: 1.3 MB of
// every bootstrap (docs/deploy.md, "What gets built"). With endpoint set
// (tests: dynalite), calls go there with the local credentials.
func NewForLambda(table, endpoint string) (*Store, error) {
	cfg, err := lambdaConfig(os.Getenv, endpoint)
	if err != nil {
		return nil, err
	}
	return New(dynamodb.NewFromConfig(cfg), table), nil
}

func lambdaConfig(getenv func(string) string, endpoint string) (aws.Config, error) {
	// The same bounds as AWSConfig's.
	cfg := aws.Config{Region: getenv("AWS_REGION"), Retryer: retryer, HTTPClient: httpClient()}
	if endpoint != "" {
		cfg.BaseEndpoint = aws.String(endpoint)
		if cfg.Region == "" {
			cfg.Region = localRegion
		}
		cfg.Credentials = credentials.NewStaticCredentialsProvider(localAccessKey, localSecretKey, "")
		return cfg, nil
	}
	if cfg.Region == "" {
		cfg.Region = getenv("AWS_DEFAULT_REGION")
	}
	key, secret := getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY")
	if cfg.Region == "" || key == "" || secret == "" {
		return aws.Config{}, errors.New("store: a Lambda's environment must name AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	cfg.Credentials = aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(key, secret, getenv("AWS_SESSION_TOKEN")))
	return cfg, nil
}
