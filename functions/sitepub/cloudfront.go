package sitepub

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// CloudFront invalidates a distribution's cache through CloudFront's REST
// API (CreateInvalidation, version 2020-05-31), signed with SigV4. One
// request does not warrant the SDK's CloudFront module, which the module
// proxy here does not serve either.
type CloudFront struct {
	Endpoint    string // https://cloudfront.amazonaws.com; a test's server
	Credentials aws.CredentialsProvider
	Client      *http.Client
	Now         func() time.Time
}

// DefaultCloudFront is CloudFront's global endpoint.
const DefaultCloudFront = "https://cloudfront.amazonaws.com"

type invalidationBatch struct {
	XMLName         xml.Name `xml:"http://cloudfront.amazonaws.com/doc/2020-05-31/ InvalidationBatch"`
	CallerReference string   `xml:"CallerReference"`
	Paths           struct {
		Items    []string `xml:"Items>Path"`
		Quantity int      `xml:"Quantity"`
	} `xml:"Paths"`
}

// Invalidate asks CloudFront to forget every path of distribution ("/*":
// one path of the 1,000 a month that cost nothing). The same callerRef
// sent again is the same invalidation (CloudFront answers it again).
func (c *CloudFront) Invalidate(ctx context.Context, distribution, callerRef string) error {
	batch := invalidationBatch{CallerReference: callerRef}
	batch.Paths.Items, batch.Paths.Quantity = []string{"/*"}, 1
	body, err := xml.Marshal(batch)
	if err != nil {
		return err
	}
	body = append([]byte(xml.Header), body...)
	u := c.Endpoint + "/2020-05-31/distribution/" + url.PathEscape(distribution) + "/invalidation"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/xml")
	creds, err := c.Credentials.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("sitepub: credentials: %w", err)
	}
	sum := sha256.Sum256(body)
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	// CloudFront is global: its requests are signed for us-east-1.
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "cloudfront", "us-east-1", now()); err != nil {
		return err
	}
	client := c.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("sitepub: CloudFront invalidation: %w", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		var e struct {
			Code    string `xml:"Error>Code"`
			Message string `xml:"Error>Message"`
		}
		xml.Unmarshal(answer, &e)
		return fmt.Errorf("sitepub: CloudFront invalidation of %s: %d %s %s", distribution, resp.StatusCode, e.Code, e.Message)
	}
	return nil
}
