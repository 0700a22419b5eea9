package store

import (
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Names of the DynamoDB table's attributes. template.yaml must agree with
// DynamoKeyAttr (the hash key, type S) and DynamoTTLAttr (the TTL attribute).
const (
	DynamoKeyAttr       = "id"        // S, hash key: the game id
	DynamoVersionAttr   = "version"   // N: 1 when created, +1 per save
	DynamoStateAttr     = "state"     // B: the opaque state
	DynamoUpdatedAtAttr = "updatedAt" // S: RFC 3339 (with nanoseconds), UTC
	DynamoTTLAttr       = "expiresAt" // N: epoch seconds; DynamoDB's TTL deletes the item after it
)

// DynamoTTL is how long a game lives after its last write.
const DynamoTTL = 180 * 24 * time.Hour

// dynamoItem lays out one game as a DynamoDB item. An empty state is left
// out rather than sent as an empty binary value, which some servers
// (dynalite) reject.
func dynamoItem(id string, item Item) map[string]types.AttributeValue {
	av := map[string]types.AttributeValue{
		DynamoKeyAttr:       &types.AttributeValueMemberS{Value: id},
		DynamoVersionAttr:   &types.AttributeValueMemberN{Value: strconv.FormatInt(item.Version, 10)},
		DynamoUpdatedAtAttr: &types.AttributeValueMemberS{Value: item.UpdatedAt.Format(time.RFC3339Nano)},
		DynamoTTLAttr:       &types.AttributeValueMemberN{Value: strconv.FormatInt(item.UpdatedAt.Add(DynamoTTL).Unix(), 10)},
	}
	if len(item.State) > 0 {
		av[DynamoStateAttr] = &types.AttributeValueMemberB{Value: item.State}
	}
	return av
}

// dynamoKey is the key of one game.
func dynamoKey(id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{DynamoKeyAttr: &types.AttributeValueMemberS{Value: id}}
}

// parseDynamoItem reads an item written by dynamoItem.
func parseDynamoItem(av map[string]types.AttributeValue) (Item, error) {
	versionAttr, ok := av[DynamoVersionAttr].(*types.AttributeValueMemberN)
	if !ok {
		return Item{}, fmt.Errorf("store: dynamo item: %s missing or not a number", DynamoVersionAttr)
	}
	version, err := strconv.ParseInt(versionAttr.Value, 10, 64)
	if err != nil || version < 1 {
		return Item{}, fmt.Errorf("store: dynamo item: bad %s %q", DynamoVersionAttr, versionAttr.Value)
	}
	var state []byte // absent means empty
	if raw, present := av[DynamoStateAttr]; present {
		stateAttr, ok := raw.(*types.AttributeValueMemberB)
		if !ok {
			return Item{}, fmt.Errorf("store: dynamo item: %s not binary", DynamoStateAttr)
		}
		state = stateAttr.Value
	}
	updatedAttr, ok := av[DynamoUpdatedAtAttr].(*types.AttributeValueMemberS)
	if !ok {
		return Item{}, fmt.Errorf("store: dynamo item: %s missing or not a string", DynamoUpdatedAtAttr)
	}
	updatedAt, err := time.Parse(time.RFC3339Nano, updatedAttr.Value)
	if err != nil {
		return Item{}, fmt.Errorf("store: dynamo item: bad %s: %w", DynamoUpdatedAtAttr, err)
	}
	return Item{Version: version, State: cloneBytes(state), UpdatedAt: updatedAt.UTC()}, nil
}
