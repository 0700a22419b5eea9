package dynamo

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"tessera/functions/store"
)

// Names of the DynamoDB table's attributes. template.yaml must agree with
// KeyAttr (the hash key, type S) and TTLAttr (the TTL attribute).
const (
	KeyAttr       = "id"        // S, hash key: the game id
	VersionAttr   = "version"   // N: 1 when created, +1 per save
	StateAttr     = "state"     // B: the opaque state
	UpdatedAtAttr = "updatedAt" // S: RFC 3339 (with nanoseconds), UTC
	TTLAttr       = "expiresAt" // N: epoch seconds; DynamoDB's TTL deletes the item after it
	// DueAttr and DueShardAttr are set only while an item is due (a sparse
	// index): DueIndex has DueShardAttr (DueShardOf the item's id) as its
	// hash key and DueAttr as its range key, so the due items are one
	// Query per shard (docs/scale.md: one key for all would take every
	// due write of the site on one index partition).
	DueAttr      = "dueAt"    // N: epoch seconds
	DueShardAttr = "dueShard" // S: DueShardOf(id)
	DueIndex     = "due"
	// ListAttr and RankAttr are set only while an item is in a list (a
	// sparse index): ListIndex has ListAttr as its hash key and RankAttr
	// as its range key, and projects CardAttr, so a list is one Query.
	ListAttr = "lst"  // S: store.Entry.List
	RankAttr = "rnk"  // S: store.Entry.Rank
	CardAttr = "card" // B: store.Entry.Card (absent when empty)
	// WriteAttr marks the put that wrote the item (S: 12 random bytes,
	// base64url), so that an SDK retry of that put, failing its own
	// condition against its first attempt, knows the write for its own,
	// and no other writer's identical bytes do (dynamo.go putIf).
	WriteAttr = "w"
	ListIndex = "lists"
)

// DueShards is how many partition keys the due index spreads its items
// over: a game's key is fixed by its id (DueShardOf), so each shard takes
// about 1/DueShards of the site's due writes; the sweep reads them all
// (Store.Due). 32 keeps a shard under half of a partition's 1,000 write
// units a second at ten million players (docs/scale.md).
const DueShards = 32

// legacyDueShard is the one key every due item had before the shards: an
// item written then keeps it until its next write, so Due reads it too.
// It can go once no item holds it (docs/scale.md).
const legacyDueShard = "due"

// DueShardOf is the due index's partition key of item id: "due-" and a
// shard number from an FNV-1a hash of the id.
func DueShardOf(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	return fmt.Sprintf("due-%02d", h.Sum32()%DueShards)
}

// DueKeys lists every key Due reads: the shards and the legacy one.
func DueKeys() []string {
	keys := make([]string, 0, DueShards+1)
	for i := range DueShards {
		keys = append(keys, fmt.Sprintf("due-%02d", i))
	}
	return append(keys, legacyDueShard)
}

// TTL is how long a game lives after its last write (store.TTL).
const TTL = store.TTL

// dynamoItem lays out one game as a DynamoDB item. An empty state is left
// out rather than sent as an empty binary value, which some servers
// (dynalite) reject.
func dynamoItem(id string, item store.Item) map[string]types.AttributeValue {
	av := map[string]types.AttributeValue{
		KeyAttr:       &types.AttributeValueMemberS{Value: id},
		VersionAttr:   &types.AttributeValueMemberN{Value: strconv.FormatInt(item.Version, 10)},
		UpdatedAtAttr: &types.AttributeValueMemberS{Value: item.UpdatedAt.Format(time.RFC3339Nano)},
	}
	if !item.Expires.IsZero() {
		av[TTLAttr] = &types.AttributeValueMemberN{Value: strconv.FormatInt(item.Expires.Unix(), 10)}
	}
	if len(item.State) > 0 {
		av[StateAttr] = &types.AttributeValueMemberB{Value: item.State}
	}
	if !item.Due.IsZero() {
		av[DueAttr] = &types.AttributeValueMemberN{Value: strconv.FormatInt(item.Due.Unix(), 10)}
		av[DueShardAttr] = &types.AttributeValueMemberS{Value: DueShardOf(id)}
	}
	if e := item.Entry; e.List != "" {
		av[ListAttr] = &types.AttributeValueMemberS{Value: e.List}
		av[RankAttr] = &types.AttributeValueMemberS{Value: e.Rank}
		if len(e.Card) > 0 {
			av[CardAttr] = &types.AttributeValueMemberB{Value: e.Card}
		}
	}
	return av
}

// parseEntry reads the entry attributes (zero when absent).
func parseEntry(av map[string]types.AttributeValue) store.Entry {
	list, _ := av[ListAttr].(*types.AttributeValueMemberS)
	rank, _ := av[RankAttr].(*types.AttributeValueMemberS)
	if list == nil || rank == nil {
		return store.Entry{}
	}
	e := store.Entry{List: list.Value, Rank: rank.Value}
	if card, ok := av[CardAttr].(*types.AttributeValueMemberB); ok && len(card.Value) > 0 {
		e.Card = store.CloneBytes(card.Value)
	}
	return e
}

// dynamoKey is the key of one game.
func dynamoKey(id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{KeyAttr: &types.AttributeValueMemberS{Value: id}}
}

// parseDynamoItem reads an item written by dynamoItem.
func parseDynamoItem(av map[string]types.AttributeValue) (store.Item, error) {
	versionAttr, ok := av[VersionAttr].(*types.AttributeValueMemberN)
	if !ok {
		return store.Item{}, fmt.Errorf("store: dynamo item: %s missing or not a number", VersionAttr)
	}
	version, err := strconv.ParseInt(versionAttr.Value, 10, 64)
	if err != nil || version < 1 {
		return store.Item{}, fmt.Errorf("store: dynamo item: bad %s %q", VersionAttr, versionAttr.Value)
	}
	var state []byte // absent means empty
	if raw, present := av[StateAttr]; present {
		stateAttr, ok := raw.(*types.AttributeValueMemberB)
		if !ok {
			return store.Item{}, fmt.Errorf("store: dynamo item: %s not binary", StateAttr)
		}
		state = stateAttr.Value
	}
	updatedAttr, ok := av[UpdatedAtAttr].(*types.AttributeValueMemberS)
	if !ok {
		return store.Item{}, fmt.Errorf("store: dynamo item: %s missing or not a string", UpdatedAtAttr)
	}
	updatedAt, err := time.Parse(time.RFC3339Nano, updatedAttr.Value)
	if err != nil {
		return store.Item{}, fmt.Errorf("store: dynamo item: bad %s: %w", UpdatedAtAttr, err)
	}
	item := store.Item{Version: version, State: store.CloneBytes(state), UpdatedAt: updatedAt.UTC(), Entry: parseEntry(av)}
	for _, f := range []struct {
		attr string
		t    *time.Time
	}{{DueAttr, &item.Due}, {TTLAttr, &item.Expires}} {
		raw, present := av[f.attr]
		if !present {
			continue
		}
		n, ok := raw.(*types.AttributeValueMemberN)
		if !ok {
			return store.Item{}, fmt.Errorf("store: dynamo item: bad %s", f.attr)
		}
		secs, err := strconv.ParseInt(n.Value, 10, 64)
		if err != nil {
			return store.Item{}, fmt.Errorf("store: dynamo item: bad %s", f.attr)
		}
		*f.t = time.Unix(secs, 0).UTC()
	}
	return item, nil
}

// ItemSize is DynamoDB's size of item id as a put writes it (attribute
// names plus values, the write token included; a number takes about one
// byte per two digits plus one): what a write costs is counted per 1 KB
// of it. The size tests measure the stored game with it.
func ItemSize(id string, item store.Item) int {
	av := dynamoItem(id, item)
	av[WriteAttr] = &types.AttributeValueMemberS{Value: "0123456789abcdef"} // writeToken's length
	n := 0
	for name, v := range av {
		n += len(name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			n += len(v.Value)
		case *types.AttributeValueMemberB:
			n += len(v.Value)
		case *types.AttributeValueMemberN:
			n += (len(v.Value)+1)/2 + 1
		}
	}
	return n
}
