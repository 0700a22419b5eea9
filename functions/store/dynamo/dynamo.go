package dynamo

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"tessera/functions/store"
)

// Store is a store.Store in one DynamoDB table: one item per game (see
// dynamo_item.go for the layout).
type Store struct {
	client *dynamodb.Client
	table  string
}

var _ store.Store = (*Store)(nil)

// New uses client and table as given. Build the client with
// AWSConfig (or NewFromConfig) to get bounded retries and time-outs.
func New(client *dynamodb.Client, table string) *Store {
	return &Store{client: client, table: table}
}

// NewFromConfig builds the client from the environment (see
// AWSConfig); endpoint is empty for AWS itself, or the URL of a local
// DynamoDB-compatible server.
func NewFromConfig(ctx context.Context, table, endpoint string) (*Store, error) {
	cfg, err := AWSConfig(ctx, endpoint)
	if err != nil {
		return nil, err
	}
	return New(dynamodb.NewFromConfig(cfg), table), nil
}

// Create puts the item at version 1 on condition that no item has its id.
func (d *Store) Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error {
	return d.CreateListed(ctx, id, state, now, due, expires, store.Entry{})
}

// CreateListed is Create with the item's entry: its attributes are part of
// the one put.
func (d *Store) CreateListed(ctx context.Context, id string, state []byte, now, due, expires time.Time, e store.Entry) error {
	if err := store.CheckCall(ctx, "create", id); err != nil {
		return err
	}
	if err := store.CheckEntry(id, e); err != nil {
		return err
	}
	item := store.Written(1, state, now, due, expires)
	item.Entry = e
	refused, _, found, err := d.putIf(ctx, "create", id, item,
		"attribute_not_exists(#id)", map[string]string{"#id": KeyAttr}, nil)
	switch {
	case err != nil || !refused:
		return err
	case !found:
		// Deleted (by TTL) between the put and the read: rare enough to
		// report as a race rather than loop.
		return fmt.Errorf("create %q: %w", id, store.ErrConflict)
	}
	return fmt.Errorf("create %q: %w", id, store.ErrExists)
}

// Load reads the item with a strongly consistent read, so a Load after a
// Save always sees it.
func (d *Store) Load(ctx context.Context, id string) (store.Item, error) {
	if err := store.CheckCall(ctx, "load", id); err != nil {
		return store.Item{}, err
	}
	return d.load(ctx, "load", id, true)
}

// LoadEventual is Load with an eventually consistent read (store.Eventual):
// half the read units, and it may miss a Save of the last moment.
func (d *Store) LoadEventual(ctx context.Context, id string) (store.Item, error) {
	if err := store.CheckCall(ctx, "load", id); err != nil {
		return store.Item{}, err
	}
	return d.load(ctx, "load eventual", id, false)
}

func (d *Store) load(ctx context.Context, op, id string, consistent bool) (store.Item, error) {
	item, found, err := d.read(ctx, op, id, consistent)
	if err != nil {
		return store.Item{}, err
	}
	if !found {
		return store.Item{}, fmt.Errorf("%s %q: %w", op, id, store.ErrNotFound)
	}
	return item, nil
}

// Save replaces the item on condition that its version is expected. This is
// the adapter's one optimistic lock: DynamoDB evaluates the condition and
// writes atomically, so of several writers holding the same version exactly
// one succeeds.
func (d *Store) Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error {
	return d.SaveListed(ctx, id, state, expected, now, due, expires, store.Entry{})
}

// SaveListed is Save with the item's entry: its attributes are part of the
// one put (absent ones leave the index).
func (d *Store) SaveListed(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time, e store.Entry) error {
	if err := store.CheckCall(ctx, "save", id); err != nil {
		return err
	}
	if err := store.CheckEntry(id, e); err != nil {
		return err
	}
	item := store.Written(expected+1, state, now, due, expires)
	item.Entry = e
	return d.putAt(ctx, "save", id, expected, item)
}

// List queries the sparse index ListIndex: one Query, highest rank first.
// The index is eventually consistent.
func (d *Store) List(ctx context.Context, list, from string, limit int) ([]store.Listed, error) {
	return d.list(ctx, list, ">=", from, limit)
}

// ListBelow is List below a rank: one Query.
func (d *Store) ListBelow(ctx context.Context, list, below string, limit int) ([]store.Listed, error) {
	return d.list(ctx, list, "<", below, limit)
}

// list queries the entries of list whose rank is op bound (no condition
// on the rank when bound is "").
func (d *Store) list(ctx context.Context, list, op, bound string, limit int) ([]store.Listed, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Unavailable("list", list, err)
	}
	limit = min(limit, store.MaxList)
	if list == "" || limit <= 0 {
		return nil, nil
	}
	cond := "#l = :l"
	values := map[string]types.AttributeValue{":l": &types.AttributeValueMemberS{Value: list}}
	names := map[string]string{"#l": ListAttr}
	if bound != "" {
		cond += " AND #r " + op + " :r"
		names["#r"] = RankAttr
		values[":r"] = &types.AttributeValueMemberS{Value: bound}
	}
	out, err := d.client.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(d.table),
		IndexName:                 aws.String(ListIndex),
		KeyConditionExpression:    aws.String(cond),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(int32(limit)),
	})
	if err != nil {
		return nil, dynamoError("list", list, err)
	}
	l := make([]store.Listed, 0, len(out.Items))
	for _, av := range out.Items {
		id, _ := av[KeyAttr].(*types.AttributeValueMemberS)
		e := parseEntry(av)
		if id == nil || e.List == "" {
			return nil, fmt.Errorf("store: dynamo list %q: an entry without %s or %s", list, KeyAttr, RankAttr)
		}
		l = append(l, store.Listed{ID: id.Value, Rank: e.Rank, Card: e.Card})
	}
	// DynamoDB orders equal ranks in no particular way: by id, as every
	// store does.
	store.SortListed(l)
	return l, nil
}

// putAt puts item on condition that the stored version is expected.
func (d *Store) putAt(ctx context.Context, op, id string, expected int64, item store.Item) error {
	refused, stored, found, err := d.putIf(ctx, op, id, item,
		"#v = :expected", map[string]string{"#v": VersionAttr},
		map[string]types.AttributeValue{":expected": &types.AttributeValueMemberN{Value: strconv.FormatInt(expected, 10)}})
	switch {
	case err != nil || !refused:
		return err
	case !found:
		return fmt.Errorf("%s %q: %w", op, id, store.ErrNotFound)
	}
	return fmt.Errorf("%s %q at version %d (stored %d): %w", op, id, expected, stored.Version, store.ErrConflict)
}

// Due queries the sparse index, every shard at once (DueKeys): the
// items due by before, earliest first (by id at the same second). Each
// shard gives at most limit, so the earliest limit of all are among them.
// The index is eventually consistent; a caller reloads what it acts on.
func (d *Store) Due(ctx context.Context, before time.Time, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Unavailable("due", "", err)
	}
	if limit <= 0 {
		return nil, nil
	}
	type due struct {
		id string
		at int64
	}
	shards := DueKeys()
	found := make([][]due, len(shards))
	errs := make([]error, len(shards))
	var wg sync.WaitGroup
	for i, shard := range shards {
		wg.Go(func() {
			out, err := d.client.Query(ctx, &dynamodb.QueryInput{
				TableName:                aws.String(d.table),
				IndexName:                aws.String(DueIndex),
				KeyConditionExpression:   aws.String("#s = :s AND #d <= :t"),
				ExpressionAttributeNames: map[string]string{"#s": DueShardAttr, "#d": DueAttr},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":s": &types.AttributeValueMemberS{Value: shard},
					":t": &types.AttributeValueMemberN{Value: strconv.FormatInt(before.Unix(), 10)},
				},
				Limit: aws.Int32(int32(min(limit, 1000))),
			})
			if err != nil {
				errs[i] = err
				return
			}
			for _, av := range out.Items {
				id, ok := av[KeyAttr].(*types.AttributeValueMemberS)
				n, ok2 := av[DueAttr].(*types.AttributeValueMemberN)
				if !ok || !ok2 {
					continue
				}
				at, err := strconv.ParseInt(n.Value, 10, 64)
				if err != nil {
					continue
				}
				found[i] = append(found[i], due{id.Value, at})
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, dynamoError("due", "", err)
	}
	all := slices.Concat(found...)
	slices.SortFunc(all, func(a, b due) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	ids := make([]string, 0, min(limit, len(all)))
	for _, x := range all[:min(limit, len(all))] {
		ids = append(ids, x.id)
	}
	return ids, nil
}

// putIf puts item on condition cond (with its attribute names and values).
// refused reports that the condition failed, with what blocked it: the
// stored item, or found false when there is none any more. A stored item
// holding this call's write token is not a refusal: it is this call's own
// write, repeated by the SDK's retry after a lost response.
func (d *Store) putIf(ctx context.Context, op, id string, item store.Item, cond string,
	names map[string]string, values map[string]types.AttributeValue) (refused bool, stored store.Item, found bool, err error) {
	av := dynamoItem(id, item)
	token, err := writeToken()
	if err != nil {
		return false, store.Item{}, false, err
	}
	av[WriteAttr] = &types.AttributeValueMemberS{Value: token}
	_, err = d.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                           aws.String(d.table),
		Item:                                av,
		ConditionExpression:                 aws.String(cond),
		ExpressionAttributeNames:            names,
		ExpressionAttributeValues:           values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var failed *types.ConditionalCheckFailedException
	if !errors.As(err, &failed) {
		if err != nil {
			return false, store.Item{}, false, dynamoError(op, id, err)
		}
		return false, store.Item{}, false, nil
	}
	raw, err := d.storedAfterFailedCheck(ctx, id, failed)
	if err != nil || raw == nil {
		return err == nil, store.Item{}, false, err
	}
	if w, ok := raw[WriteAttr].(*types.AttributeValueMemberS); ok && w.Value == token {
		return false, store.Item{}, false, nil // our own first attempt
	}
	if stored, err = parseDynamoItem(raw); err != nil {
		return false, store.Item{}, false, fmt.Errorf("store: dynamo %q: %w", id, err)
	}
	return true, stored, true, nil
}

// writeToken is a put's own mark (WriteAttr): 12 random bytes, so that
// only this put's retry takes the stored item for its own write. Another
// writer that wrote the same bytes at the same version and time (two
// reports counted in one second on a frozen clock did) is a conflict.
func writeToken() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("store: dynamo write token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// storedAfterFailedCheck tells what blocked a conditional put: the stored
// item's attributes, nil when there is none. DynamoDB returns them in the
// exception (ReturnValuesOnConditionCheckFailure ALL_OLD), which costs
// nothing; servers that ignore that option (dynalite) return none, and
// then one consistent read decides.
func (d *Store) storedAfterFailedCheck(ctx context.Context, id string, failed *types.ConditionalCheckFailedException) (map[string]types.AttributeValue, error) {
	if len(failed.Item) > 0 {
		return failed.Item, nil
	}
	return d.attributes(ctx, "check", id, true)
}

// attributes reads one item's attributes (consistently or not); nil when
// there is none.
func (d *Store) attributes(ctx context.Context, op, id string, consistent bool) (map[string]types.AttributeValue, error) {
	out, err := d.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(d.table),
		Key:            dynamoKey(id),
		ConsistentRead: aws.Bool(consistent),
	})
	if err != nil {
		return nil, dynamoError(op, id, err)
	}
	if len(out.Item) == 0 {
		return nil, nil
	}
	return out.Item, nil
}

// read reads one item; found is false if there is none.
func (d *Store) read(ctx context.Context, op, id string, consistent bool) (store.Item, bool, error) {
	av, err := d.attributes(ctx, op, id, consistent)
	if err != nil || av == nil {
		return store.Item{}, false, err
	}
	item, err := parseDynamoItem(av)
	if err != nil {
		return store.Item{}, false, fmt.Errorf("store: dynamo %s %q: %w", op, id, err)
	}
	return item, true, nil
}

// batchAttempts bounds the BatchGetItem calls of one LoadMany: DynamoDB
// may leave keys unprocessed under load, and they are asked again.
const batchAttempts = 4

// LoadMany reads the items present among ids with BatchGetItem, strongly
// consistent like Load.
func (d *Store) LoadMany(ctx context.Context, ids []string) (map[string]store.Item, error) {
	if err := store.CheckMany(ctx, ids); err != nil {
		return nil, err
	}
	out := make(map[string]store.Item, len(ids))
	seen := make(map[string]bool, len(ids))
	keys := make([]map[string]types.AttributeValue, 0, len(ids))
	for _, id := range ids {
		if !seen[id] { // BatchGetItem refuses duplicate keys
			seen[id] = true
			keys = append(keys, dynamoKey(id))
		}
	}
	for attempt := 0; len(keys) > 0; attempt++ {
		if attempt == batchAttempts {
			return nil, store.Unavailable("load many", fmt.Sprint(len(keys), " ids"), errors.New("keys left unprocessed"))
		}
		res, err := d.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems: map[string]types.KeysAndAttributes{d.table: {Keys: keys, ConsistentRead: aws.Bool(true)}},
		})
		if err != nil {
			return nil, dynamoError("load many", fmt.Sprint(len(keys), " ids"), err)
		}
		for _, av := range res.Responses[d.table] {
			item, err := parseDynamoItem(av)
			if err != nil {
				return nil, fmt.Errorf("store: dynamo load many: %w", err)
			}
			id, _ := av[KeyAttr].(*types.AttributeValueMemberS)
			if id == nil {
				return nil, fmt.Errorf("store: dynamo load many: an item without %s", KeyAttr)
			}
			out[id.Value] = item
		}
		keys = res.UnprocessedKeys[d.table].Keys
		if len(keys) > 0 {
			select {
			case <-ctx.Done():
				return nil, store.Unavailable("load many", fmt.Sprint(len(keys), " ids"), ctx.Err())
			case <-time.After(time.Duration(25<<attempt) * time.Millisecond):
			}
		}
	}
	return out, nil
}

// Delete removes the item (DeleteItem: its index entries go with it).
func (d *Store) Delete(ctx context.Context, id string) error {
	if err := store.CheckCall(ctx, "delete", id); err != nil {
		return err
	}
	_, err := d.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(d.table), Key: dynamoKey(id)})
	if err != nil {
		return dynamoError("delete", id, err)
	}
	return nil
}
