//go:build linux

package lambdatest

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"tessera/frontend"
	"tessera/functions/store/dynamo"
	"tessera/internal/testenv"
)

// cfnAnswers records what a custom resource answers CloudFormation (a PUT
// of JSON to the event's pre-signed ResponseURL).
type cfnAnswers struct {
	mu  sync.Mutex
	got []map[string]any
}

func (c *cfnAnswers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var m map[string]any
	b, _ := io.ReadAll(r.Body)
	json.Unmarshal(b, &m)
	m["method"] = r.Method
	c.mu.Lock()
	c.got = append(c.got, m)
	c.mu.Unlock()
}

func (c *cfnAnswers) last(t *testing.T) map[string]any {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.got) == 0 {
		t.Fatal("the function sent CloudFormation no answer")
	}
	return c.got[len(c.got)-1]
}

// cloudFront records CreateInvalidation requests and answers status.
type cloudFront struct {
	mu     sync.Mutex
	status int
	reqs   []string // "METHOD path\nAuthorization\nbody"
}

func (c *cloudFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.reqs = append(c.reqs, r.Method+" "+r.URL.Path+"\n"+r.Header.Get("Authorization")+"\n"+string(b))
	status := c.status
	c.mu.Unlock()
	w.WriteHeader(status)
	if status >= 300 {
		io.WriteString(w, `<?xml version="1.0"?><ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>no</Message></Error></ErrorResponse>`)
		return
	}
	io.WriteString(w, `<?xml version="1.0"?><Invalidation><Id>I1</Id><Status>InProgress</Status></Invalidation>`)
}

// The Page custom resource, as its real bootstrap under the Lambda
// emulator, against gofakes3 (S3's wire protocol), dynalite, and a
// recording stand-in for CloudFront (no emulator of it exists): a create
// writes every file of the page with the local server's Content-Type and
// Cache-Control and removes what the page no longer has, invalidates "/*"
// with a SigV4-signed request, stores the site's origin and answers
// SUCCESS; a failed invalidation answers FAILED (CloudFormation would
// otherwise wait an hour); a delete empties the bucket, also when it is
// gone already.
func TestThePageFunctionPublishesInvalidatesAndEmpties(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the publish function's binary; skipped with -short")
	}
	ctx := context.Background()
	// gofakes3 keeps Content-Type but drops Cache-Control: the PUTs'
	// Cache-Control is read on the wire.
	s3srv := gofakes3.New(s3mem.New()).Server()
	var cacheMu sync.Mutex
	cacheControl := map[string]string{}
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			cacheMu.Lock()
			cacheControl[strings.TrimPrefix(r.URL.Path, "/site/")] = r.Header.Get("Cache-Control")
			cacheMu.Unlock()
		}
		s3srv.ServeHTTP(w, r)
	}))
	defer fake.Close()
	client := s3.New(s3.Options{Region: "us-east-1", BaseEndpoint: aws.String(fake.URL), UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", "")})
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("site")}); err != nil {
		t.Fatal(err)
	}
	// A file an older page had.
	if _, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("site"), Key: aws.String("dist/game-chat-OLD.js"), Body: strings.NewReader("x")}); err != nil {
		t.Fatal(err)
	}
	endpoint := testenv.Dynalite(t)
	table := testenv.TableName(t)
	st, err := dynamo.NewFromConfig(ctx, table, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(ctx); err != nil {
		t.Fatal(err)
	}
	answers := &cfnAnswers{}
	answerSrv := httptest.NewServer(answers)
	defer answerSrv.Close()
	cf := &cloudFront{status: http.StatusCreated}
	cfSrv := httptest.NewServer(cf)
	defer cfSrv.Close()

	fn := startEmulated(t, "PublishFunction", makeBootstrap(t, "build-PublishFunction", runtime.GOARCH),
		"AWS_ACCESS_KEY_ID=AKIDTEST", "AWS_SECRET_ACCESS_KEY=secret", "AWS_REGION=us-east-1",
		"S3_ENDPOINT="+fake.URL, "CLOUDFRONT_ENDPOINT="+cfSrv.URL,
		"TABLE_NAME="+table, "DYNAMODB_ENDPOINT="+endpoint)
	event := func(kind, requestID, physical, bucket string) []byte {
		ev := map[string]any{
			"RequestType": kind, "ResponseURL": answerSrv.URL + "/answer?sig=1", "StackId": "arn:aws:cloudformation:us-east-1:123456789012:stack/tessera/1",
			"RequestId": requestID, "ResourceType": "Custom::Page", "LogicalResourceId": "Page",
			"ResourceProperties": map[string]any{"ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:publish",
				"Code": "3", "Bucket": bucket, "DistributionId": "E2EXAMPLE", "SiteUrl": "https://d111111abcdef8.cloudfront.net"},
		}
		if physical != "" {
			ev["PhysicalResourceId"] = physical
		}
		b, _ := json.Marshal(ev)
		return b
	}

	fn.invokeRaw(t, event("Create", "req-1", "", "site"))
	a := answers.last(t)
	if a["method"] != "PUT" || a["Status"] != "SUCCESS" || a["PhysicalResourceId"] != "page:site" || a["RequestId"] != "req-1" || a["LogicalResourceId"] != "Page" {
		t.Fatalf("create answered %v\nlog:\n%s", a, fn.out)
	}
	want := map[string]bool{}
	fs.WalkDir(frontend.Static(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			want[p] = true
		}
		return err
	})
	list, err := client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("site")})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Contents) != len(want) {
		t.Errorf("the bucket holds %d objects, the page has %d files", len(list.Contents), len(want))
	}
	for _, o := range list.Contents {
		if !want[aws.ToString(o.Key)] {
			t.Errorf("the bucket still holds %s, which the page does not have", aws.ToString(o.Key))
		}
	}
	for _, name := range []string{"index.html", "game.html", "sw.js", "dist/game.js", "dist/game.it.json", "manifest.webmanifest", "assets/icon.svg"} {
		if !want[name] {
			continue // the page has no such file (icon names may change)
		}
		obj, err := client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("site"), Key: aws.String(name)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		body, _ := io.ReadAll(obj.Body)
		obj.Body.Close()
		file, _ := fs.ReadFile(frontend.Static(), name)
		if string(body) != string(file) {
			t.Errorf("%s: %d bytes in the bucket, %d in the page", name, len(body), len(file))
		}
		if got := aws.ToString(obj.ContentType); got != frontend.ContentType(name) {
			t.Errorf("%s: Content-Type %q, want %q", name, got, frontend.ContentType(name))
		}
		cacheMu.Lock()
		got := cacheControl[name]
		cacheMu.Unlock()
		if got != frontend.CacheControl {
			t.Errorf("%s: Cache-Control %q, want %q", name, got, frontend.CacheControl)
		}
	}
	cf.mu.Lock()
	if len(cf.reqs) != 1 {
		t.Fatalf("%d invalidations, want 1", len(cf.reqs))
	}
	inv := cf.reqs[0]
	cf.mu.Unlock()
	for _, part := range []string{"POST /2020-05-31/distribution/E2EXAMPLE/invalidation\n", "AWS4-HMAC-SHA256 Credential=AKIDTEST/", "/us-east-1/cloudfront/aws4_request",
		"<CallerReference>req-1</CallerReference>", "<Path>/*</Path>", "<Quantity>1</Quantity>", `xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"`} {
		if !strings.Contains(inv, part) {
			t.Errorf("the invalidation lacks %q:\n%s", part, inv)
		}
	}
	item, err := st.Load(ctx, "site-origin")
	if err != nil || string(item.State[1:]) != "https://d111111abcdef8.cloudfront.net" {
		t.Errorf("the site's origin item: %q, %v", item.State, err)
	}

	// CloudFront refuses: FAILED, with its reason.
	cf.mu.Lock()
	cf.status = http.StatusForbidden
	cf.mu.Unlock()
	fn.invokeRaw(t, event("Update", "req-2", "page:site", "site"))
	if a := answers.last(t); a["Status"] != "FAILED" || !strings.Contains(a["Reason"].(string), "AccessDenied") || a["PhysicalResourceId"] != "page:site" {
		t.Errorf("an update whose invalidation was refused answered %v", a)
	}

	fn.invokeRaw(t, event("Delete", "req-3", "page:site", "site"))
	if a := answers.last(t); a["Status"] != "SUCCESS" || a["PhysicalResourceId"] != "page:site" {
		t.Errorf("delete answered %v\nlog:\n%s", a, fn.out)
	}
	list, err = client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("site")})
	if err != nil || len(list.Contents) != 0 {
		t.Errorf("after the delete the bucket holds %d objects (%v)", len(list.Contents), err)
	}
	// The bucket can go now (S3 refuses to delete one that holds objects).
	if _, err := client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String("site")}); err != nil {
		t.Errorf("delete the emptied bucket: %v", err)
	}
	// A delete after the bucket went (a rollback, a retry) succeeds.
	fn.invokeRaw(t, event("Delete", "req-4", "page:site", "site"))
	if a := answers.last(t); a["Status"] != "SUCCESS" {
		t.Errorf("a delete of a gone bucket answered %v\nlog:\n%s", a, fn.out)
	}
}
