package dynamo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"tessera/functions/store"
	"tessera/functions/store/dynamo"
	"tessera/internal/testenv"
)

// dynaliteTable makes a fresh table on the test dynalite and returns a raw
// client to inspect it and a store over it; optFns configure the client.
func dynaliteTable(t *testing.T, optFns ...func(*dynamodb.Options)) (*dynamodb.Client, string, *dynamo.Store) {
	t.Helper()
	cfg, err := dynamo.AWSConfig(t.Context(), testenv.Dynalite(t))
	if err != nil {
		t.Fatalf("AWSConfig: %v", err)
	}
	client := dynamodb.NewFromConfig(cfg, optFns...)
	table := testenv.TableName(t)
	d := dynamo.New(client, table)
	if err := d.CreateTable(t.Context()); err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	return client, table, d
}

func TestDynamoItemLayout(t *testing.T) {
	client, table, d := dynaliteTable(t)
	created := time.Date(2026, 7, 1, 12, 0, 0, 500, time.FixedZone("UTC-5", -5*3600))
	saved := created.Add(36 * time.Hour)
	if err := d.Create(t.Context(), "g1", []byte{0, 1, 2}, created, time.Time{}, time.Time{}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if err := d.Save(t.Context(), "g1", []byte{3, 4}, 1, saved, time.Time{}, saved.Add(180*24*time.Hour)); err != nil {
		t.Fatalf("Save: %v", err)
	}
	out, err := client.GetItem(t.Context(), &dynamodb.GetItemInput{
		TableName: aws.String(table),
		Key:       map[string]types.AttributeValue{dynamo.KeyAttr: &types.AttributeValueMemberS{Value: "g1"}},
	})
	if err != nil {
		t.Fatalf("GetItem: %v", err)
	}
	want := map[string]string{
		dynamo.KeyAttr:       "S g1",
		dynamo.VersionAttr:   "N 2",
		dynamo.StateAttr:     "B \x03\x04",
		dynamo.UpdatedAtAttr: "S 2026-07-03T05:00:00.0000005Z",
		dynamo.TTLAttr:       "N " + strconv.FormatInt(saved.Add(180*24*time.Hour).Unix(), 10),
	}
	// And the put's own mark (WriteAttr): 12 random bytes, base64url.
	if w, ok := out.Item[dynamo.WriteAttr].(*types.AttributeValueMemberS); !ok || len(w.Value) != 16 {
		t.Errorf("attribute %s = %v, want a 16-character token", dynamo.WriteAttr, out.Item[dynamo.WriteAttr])
	}
	if len(out.Item) != len(want)+1 {
		t.Errorf("item has %d attributes, want %d: %v", len(out.Item), len(want)+1, out.Item)
	}
	for name, w := range want {
		if got := describe(out.Item[name]); got != w {
			t.Errorf("attribute %s = %q, want %q", name, got, w)
		}
	}
}

// describe prints an attribute value as "<type> <value>".
func describe(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "S " + v.Value
	case *types.AttributeValueMemberN:
		return "N " + v.Value
	case *types.AttributeValueMemberB:
		return "B " + string(v.Value)
	case nil:
		return "missing"
	}
	return "unexpected type"
}

func TestDynamoCreateTableTwiceIsFine(t *testing.T) {
	_, _, d := dynaliteTable(t)
	if err := d.CreateTable(t.Context()); err != nil {
		t.Errorf("second CreateTable = %v, want nil", err)
	}
}

func TestDynamoMissingTableIsAPlainError(t *testing.T) {
	d, err := dynamo.NewFromConfig(t.Context(), testenv.TableName(t), testenv.Dynalite(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Load(t.Context(), "g1")
	if err == nil || errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrNotFound) {
		t.Errorf("Load from a missing table = %v, want a plain error (misconfiguration is not transient)", err)
	}
}

// lossyClient sends requests on, but for the first request of the operation
// named lose it throws the response away and reports a broken connection,
// as when a response is lost after DynamoDB made the write.
type lossyClient struct {
	inner aws.HTTPClient
	lose  string
	lost  atomic.Bool
}

func (c *lossyClient) Do(req *http.Request) (*http.Response, error) {
	resp, err := c.inner.Do(req)
	if err != nil || req.Header.Get("X-Amz-Target") != "DynamoDB_20120810."+c.lose || !c.lost.CompareAndSwap(false, true) {
		return resp, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return nil, errors.New("injected: connection reset after the request was served")
}

func TestDynamoRetryAfterALostResponseIsNotAConflict(t *testing.T) {
	for _, op := range []string{"create", "save"} {
		t.Run(op, func(t *testing.T) {
			lossy := &lossyClient{lose: "PutItem"}
			_, _, d := dynaliteTable(t, func(o *dynamodb.Options) {
				lossy.inner = o.HTTPClient // the bounded client of AWSConfig
				o.HTTPClient = lossy
			})
			if op == "save" {
				lossy.lost.Store(true) // disarmed for the Create
				if err := d.Create(t.Context(), "g1", []byte("v1"), when, time.Time{}, time.Time{}); err != nil {
					t.Fatalf("Create: %v", err)
				}
				lossy.lost.Store(false)
			}
			var err error
			if op == "create" {
				err = d.Create(t.Context(), "g1", []byte("v1"), when, time.Time{}, time.Time{})
			} else {
				err = d.Save(t.Context(), "g1", []byte("v2"), 1, when.Add(time.Second), time.Time{}, time.Time{})
			}
			if !lossy.lost.Load() {
				t.Fatal("no response was lost; the test did not test anything")
			}
			if err != nil {
				t.Fatalf("%s whose first response was lost = %v, want nil (the retry found its own write)", op, err)
			}
			item, err := d.Load(t.Context(), "g1")
			wantVersion := map[string]int64{"create": 1, "save": 2}[op]
			if err != nil || item.Version != wantVersion {
				t.Errorf("Load = %+v, %v; want version %d", item, err, wantVersion)
			}
		})
	}
}

func TestDynamoUnreachableIsUnavailable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	l.Close() // nothing listens there now

	d, err := dynamo.NewFromConfig(t.Context(), "games", endpoint)
	if err != nil {
		t.Fatal(err)
	}
	// The caller's deadline is generous: the bounded retries must give up
	// long before it.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	_, err = d.Load(ctx, "g1")
	if !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Load from a closed port = %v, want ErrUnavailable", err)
	}
	if ctx.Err() != nil {
		t.Errorf("Load from a closed port ran into the caller's 30 s deadline; retries are not bounded")
	}
}

// fakeDynamo answers every request with one DynamoDB JSON error, or hangs
// until the client gives up if status is 0; it counts requests.
func fakeDynamo(t *testing.T, status int, errType string) (endpoint string, requests *atomic.Int32) {
	requests = new(atomic.Int32)
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		// Reading the whole body lets the server notice a client that hangs up.
		io.Copy(io.Discard, r.Body)
		if status == 0 {
			select {
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(status)
		io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#`+errType+`","message":"injected"}`)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs first: releases hanging handlers
	return srv.URL, requests
}

func TestDynamoErrorsMapToUnavailableOnlyWhenTransient(t *testing.T) {
	cases := []struct {
		name         string
		status       int
		errType      string
		transient    bool
		wantRequests int32
	}{
		{"throttled reads are unavailable after bounded retries", 400, "ProvisionedThroughputExceededException", true, dynamo.MaxAttempts},
		{"request limit is unavailable", 400, "RequestLimitExceeded", true, dynamo.MaxAttempts},
		{"throttling is unavailable", 400, "ThrottlingException", true, dynamo.MaxAttempts},
		{"internal server error is unavailable", 500, "InternalServerError", true, dynamo.MaxAttempts},
		{"service unavailable is unavailable", 503, "ServiceUnavailable", true, dynamo.MaxAttempts},
		{"validation error is a plain error, not retried", 400, "ValidationException", false, 1},
		{"missing table is a plain error, not retried", 400, "ResourceNotFoundException", false, 1},
		{"access denied is a plain error, not retried", 400, "AccessDeniedException", false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			endpoint, requests := fakeDynamo(t, c.status, c.errType)
			d, err := dynamo.NewFromConfig(t.Context(), "games", endpoint)
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.Load(t.Context(), "g1")
			if got := errors.Is(err, store.ErrUnavailable); got != c.transient {
				t.Errorf("Load = %v; errors.Is(err, ErrUnavailable) = %v, want %v", err, got, c.transient)
			}
			if err == nil {
				t.Fatal("Load = nil error")
			}
			if got := requests.Load(); got != c.wantRequests {
				t.Errorf("server saw %d requests, want %d", got, c.wantRequests)
			}
		})
	}
}

func TestDynamoCallerDeadlineIsUnavailable(t *testing.T) {
	endpoint, _ := fakeDynamo(t, 0, "")
	d, err := dynamo.NewFromConfig(t.Context(), "games", endpoint)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	err = d.Save(ctx, "g1", []byte("x"), 1, when, time.Time{}, time.Time{})
	if !errors.Is(err, store.ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Save past the caller's deadline = %v, want ErrUnavailable wrapping context.DeadlineExceeded", err)
	}
}

func TestDynamoHangingServerIsUnavailableWithoutACallerDeadline(t *testing.T) {
	t.Parallel() // mostly waiting
	if testing.Short() {
		t.Skip("takes MaxAttempts × AttemptTimeout (about 6 s)")
	}
	endpoint, requests := fakeDynamo(t, 0, "")
	d, err := dynamo.NewFromConfig(t.Context(), "games", endpoint)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second) // a safety net only
	defer cancel()
	_, err = d.Load(ctx, "g1")
	if !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Load from a hanging server = %v, want ErrUnavailable", err)
	}
	if ctx.Err() != nil {
		t.Errorf("Load from a hanging server ran into the 60 s safety net; the per-attempt time-out does not work")
	}
	if got := requests.Load(); got != dynamo.MaxAttempts {
		t.Errorf("server saw %d requests, want %d", got, dynamo.MaxAttempts)
	}
}

var when = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

// One dynalite serves every test of this package.
func TestMain(m *testing.M) { testenv.Main(m) }

// readRecorder notes the ConsistentRead of every GetItem it sends on.
type readRecorder struct {
	inner aws.HTTPClient
	mu    sync.Mutex
	reads []string // "true", "false" or "absent"
}

func (c *readRecorder) Do(req *http.Request) (*http.Response, error) {
	if req.Header.Get("X-Amz-Target") == "DynamoDB_20120810.GetItem" {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		var in struct{ ConsistentRead *bool }
		if err := json.Unmarshal(body, &in); err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.reads = append(c.reads, map[bool]string{true: "true", false: "false"}[in.ConsistentRead != nil && *in.ConsistentRead]+
			map[bool]string{true: "", false: " (absent)"}[in.ConsistentRead != nil])
		c.mu.Unlock()
	}
	return c.inner.Do(req)
}

// TestDynamoLoadEventualReadsEventually: Load asks DynamoDB for a strongly
// consistent read, LoadEventual for an eventually consistent one (half the
// read units), and both return the item (dynalite is always consistent).
func TestDynamoLoadEventualReadsEventually(t *testing.T) {
	rec := &readRecorder{}
	_, _, d := dynaliteTable(t, func(o *dynamodb.Options) {
		rec.inner = o.HTTPClient
		o.HTTPClient = rec
	})
	var _ store.Eventual = d
	if err := d.Create(t.Context(), "g1", []byte("v1"), when, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	rec.reads = nil
	strong, err := d.Load(t.Context(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	eventual, err := d.LoadEventual(t.Context(), "g1")
	if err != nil || eventual.Version != strong.Version || string(eventual.State) != "v1" {
		t.Fatalf("LoadEventual = %+v, %v; want version %d, state v1", eventual, err, strong.Version)
	}
	if _, err := d.LoadEventual(t.Context(), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LoadEventual of a missing game = %v, want ErrNotFound", err)
	}
	if _, err := d.LoadEventual(t.Context(), ""); !errors.Is(err, store.ErrEmptyID) {
		t.Errorf("LoadEventual(\"\") = %v, want ErrEmptyID", err)
	}
	want := []string{"true", "false", "false"}
	if strings.Join(rec.reads, ",") != strings.Join(want, ",") {
		t.Errorf("GetItem ConsistentRead: %v, want %v (Load, then two LoadEventual)", rec.reads, want)
	}
}

// TestDueIsSpreadOverShardsAndReadWhole: the due index's partition key
// comes from the game's id, so a thousand games spread over every shard
// with none holding more than twice its share; Due reads every shard and
// the one key items written before the shards hold ("due"), and answers
// the earliest first, limited, as the one key did.
func TestDueIsSpreadOverShardsAndReadWhole(t *testing.T) {
	count := map[string]int{}
	for i := range 1000 {
		count[dynamo.DueShardOf(fmt.Sprintf("game%04d", i))]++
	}
	if len(count) != dynamo.DueShards {
		t.Fatalf("1000 ids in %d shards, want all %d", len(count), dynamo.DueShards)
	}
	for k, n := range count {
		if n > 2*1000/dynamo.DueShards {
			t.Errorf("shard %s holds %d of 1000 ids (share %d)", k, n, 1000/dynamo.DueShards)
		}
	}
	client, table, d := dynaliteTable(t)
	ctx := t.Context()
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var want []string
	for i := range 60 {
		id := fmt.Sprintf("g%02d", i)
		if err := d.Create(ctx, id, []byte{1}, base, base.Add(time.Duration(60-i)*time.Minute), time.Time{}); err != nil {
			t.Fatal(err)
		}
		want = append([]string{id}, want...) // later ids are due earlier
	}
	// An item as written before the shards: the one key "due".
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
		dynamo.KeyAttr: &types.AttributeValueMemberS{Value: "old"}, dynamo.VersionAttr: &types.AttributeValueMemberN{Value: "1"},
		dynamo.UpdatedAtAttr: &types.AttributeValueMemberS{Value: base.Format(time.RFC3339Nano)},
		dynamo.DueAttr:       &types.AttributeValueMemberN{Value: strconv.FormatInt(base.Unix(), 10)},
		dynamo.DueShardAttr:  &types.AttributeValueMemberS{Value: "due"},
	}}); err != nil {
		t.Fatal(err)
	}
	want = append([]string{"old"}, want...)
	got, err := d.Due(ctx, base.Add(2*time.Hour), 1000)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Due(all) = %v, %v; want %v", got, err, want)
	}
	if got, err := d.Due(ctx, base.Add(2*time.Hour), 7); err != nil || !slices.Equal(got, want[:7]) {
		t.Fatalf("Due(limit 7) = %v, %v; want %v", got, err, want[:7])
	}
	if got, err := d.Due(ctx, base.Add(10*time.Minute), 1000); err != nil || !slices.Equal(got, want[:11]) {
		t.Fatalf("Due(by +10 min) = %v, %v; want %v", got, err, want[:11])
	}
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table),
		Key: map[string]types.AttributeValue{dynamo.KeyAttr: &types.AttributeValueMemberS{Value: "g07"}}})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := out.Item[dynamo.DueShardAttr].(*types.AttributeValueMemberS); !ok || s.Value != dynamo.DueShardOf("g07") {
		t.Errorf("g07's %s = %v, want %s", dynamo.DueShardAttr, out.Item[dynamo.DueShardAttr], dynamo.DueShardOf("g07"))
	}
}
