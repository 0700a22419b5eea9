package dynamo

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// tableActiveWait bounds how long CreateTable waits for the table to become
// ACTIVE.
const tableActiveWait = 30 * time.Second

// CreateTable creates the table (on-demand billing, hash key KeyAttr, the
// sparse index DueIndex) if it does not exist, waits until it is ACTIVE and turns on TTL on
// TTLAttr. It is for tests and for the local server pointed at a local
// DynamoDB; on AWS, template.yaml owns the table.
//
// Servers without TTL support (dynalite answers UnknownOperationException)
// are accepted: TTL only cleans up old games.
func (d *Store) CreateTable(ctx context.Context) error {
	_, err := d.client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(d.table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(KeyAttr), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(DueShardAttr), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(DueAttr), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String(ListAttr), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(RankAttr), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(KeyAttr), KeyType: types.KeyTypeHash},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String(DueIndex),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(DueShardAttr), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(DueAttr), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}, {
			IndexName: aws.String(ListIndex),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(ListAttr), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(RankAttr), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{CardAttr}},
		}},
	})
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return dynamoError("create table", d.table, err)
	}
	waiter := dynamodb.NewTableExistsWaiter(d.client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(d.table)}, tableActiveWait); err != nil {
		return dynamoError("wait for table", d.table, err)
	}
	return d.enableTTL(ctx)
}

// enableTTL turns on TTL unless it is already on.
func (d *Store) enableTTL(ctx context.Context) error {
	desc, err := d.client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(d.table)})
	if err != nil {
		return dynamoError("describe TTL", d.table, err)
	}
	if ttl := desc.TimeToLiveDescription; ttl != nil && aws.ToString(ttl.AttributeName) == TTLAttr &&
		(ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabled || ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		return nil
	}
	_, err = d.client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(d.table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(TTLAttr),
			Enabled:       aws.Bool(true),
		},
	})
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode() == "UnknownOperationException" {
		return nil
	}
	if err != nil {
		return dynamoError("enable TTL", d.table, err)
	}
	return nil
}
