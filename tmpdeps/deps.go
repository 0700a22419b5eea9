package tmpdeps

import (
	_ "github.com/aws/aws-lambda-go/lambda"
	_ "github.com/aws/aws-lambda-go/events"
	_ "github.com/aws/aws-sdk-go-v2/aws"
	_ "github.com/aws/aws-sdk-go-v2/config"
	_ "github.com/aws/aws-sdk-go-v2/credentials"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	_ "github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	_ "github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	_ "go.etcd.io/bbolt"
	_ "github.com/awslabs/goformation/v7"
)
