// Package sitepub is the deploy's custom resource (Custom::Page in
// template.yaml): on the stack's create and on each update it writes the
// page (package frontend's files, embedded in the function as in the
// local server) to the frontend bucket with the local server's content
// types and Cache-Control, deletes what the page no longer has, asks
// CloudFront to forget what it cached, and stores the site's public
// origin for the VAPID contact (game.SaveSite); on the stack's delete it
// empties the bucket, so `sam delete` can remove it. docs/deploy.md.
package sitepub

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"github.com/aws/aws-lambda-go/cfn"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// Props are the custom resource's properties (template.yaml, Page).
type Props struct {
	Bucket         string
	DistributionID string
	SiteURL        string
}

// propsOf reads an event's properties; Bucket is required.
func propsOf(m map[string]any) (Props, error) {
	get := func(k string) string { s, _ := m[k].(string); return s }
	p := Props{Bucket: get("Bucket"), DistributionID: get("DistributionId"), SiteURL: get("SiteUrl")}
	if p.Bucket == "" {
		return p, errors.New("sitepub: the property Bucket is required")
	}
	return p, nil
}

// S3 is the part of the S3 client the publisher uses.
type S3 interface {
	PutObject(context.Context, *s3.PutObjectInput, ...func(*s3.Options)) (*s3.PutObjectOutput, error)
	ListObjectsV2(context.Context, *s3.ListObjectsV2Input, ...func(*s3.Options)) (*s3.ListObjectsV2Output, error)
	DeleteObjects(context.Context, *s3.DeleteObjectsInput, ...func(*s3.Options)) (*s3.DeleteObjectsOutput, error)
}

// Publisher publishes Files.
type Publisher struct {
	S3    S3
	Files fs.FS
	// ContentType and CacheControl name each file's headers.
	ContentType  func(name string) string
	CacheControl string
	// Invalidate asks CloudFront to forget every cached path of the
	// distribution; callerRef makes a retried request one invalidation.
	Invalidate func(ctx context.Context, distributionID, callerRef string) error
	// SaveSite stores the site's origin (nil: not stored).
	SaveSite func(ctx context.Context, origin string) error
}

// puts is how many files are written at once.
const puts = 8

// Handle is the custom resource's function (cfn.LambdaWrap sends its
// answer to CloudFormation). The physical id names the bucket, so a new
// bucket is a new resource and CloudFormation deletes the old one, which
// empties the old bucket.
func (p *Publisher) Handle(ctx context.Context, ev cfn.Event) (string, map[string]any, error) {
	props, err := propsOf(ev.ResourceProperties)
	if err != nil {
		return "", nil, err
	}
	id := "page:" + props.Bucket
	switch ev.RequestType {
	case cfn.RequestDelete:
		// Also for a create that failed (its id is then the request's):
		// whatever it wrote must go, or the bucket cannot.
		n, err := p.Empty(ctx, props.Bucket)
		if isNoSuchBucket(err) {
			err = nil
		}
		return ev.PhysicalResourceID, map[string]any{"Deleted": n}, err
	case cfn.RequestCreate, cfn.RequestUpdate:
		n, gone, err := p.Publish(ctx, props.Bucket)
		if err != nil {
			return id, nil, err
		}
		if props.DistributionID != "" && p.Invalidate != nil {
			if err := p.Invalidate(ctx, props.DistributionID, ev.RequestID); err != nil {
				return id, nil, err
			}
		}
		if props.SiteURL != "" && p.SaveSite != nil {
			if err := p.SaveSite(ctx, props.SiteURL); err != nil {
				return id, nil, err
			}
		}
		return id, map[string]any{"Files": n, "Deleted": gone}, nil
	}
	return "", nil, fmt.Errorf("sitepub: unknown request type %q", ev.RequestType)
}

// Publish writes every file of p.Files to bucket and deletes the keys the
// page no longer has; it returns how many it wrote and deleted.
func (p *Publisher) Publish(ctx context.Context, bucket string) (written, deleted int, err error) {
	var names []string
	err = fs.WalkDir(p.Files, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, name)
		}
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	sort.Strings(names)
	work := make(chan string)
	errs := make(chan error, len(names))
	var wg sync.WaitGroup
	for range puts {
		wg.Go(func() {
			for name := range work {
				errs <- p.put(ctx, bucket, name)
			}
		})
	}
	for _, name := range names {
		work <- name
	}
	close(work)
	wg.Wait()
	close(errs)
	for e := range errs {
		err = errors.Join(err, e)
	}
	if err != nil {
		return 0, 0, err
	}
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	deleted, err = p.deleteWhere(ctx, bucket, func(key string) bool { return !keep[key] })
	return len(names), deleted, err
}

func (p *Publisher) put(ctx context.Context, bucket, name string) error {
	body, err := fs.ReadFile(p.Files, name)
	if err != nil {
		return err
	}
	_, err = p.S3.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(bucket),
		Key:           aws.String(name),
		Body:          bytes.NewReader(body),
		ContentLength: aws.Int64(int64(len(body))),
		ContentType:   aws.String(p.ContentType(name)),
		CacheControl:  aws.String(p.CacheControl),
	})
	if err != nil {
		return fmt.Errorf("sitepub: put %s: %w", name, err)
	}
	return nil
}

// Empty deletes every object of bucket.
func (p *Publisher) Empty(ctx context.Context, bucket string) (int, error) {
	return p.deleteWhere(ctx, bucket, func(string) bool { return true })
}

// deleteWhere deletes the keys of bucket that drop says, a listed page
// (at most 1,000, DeleteObjects' limit) at a time.
func (p *Publisher) deleteWhere(ctx context.Context, bucket string, drop func(string) bool) (int, error) {
	n := 0
	var token *string
	for {
		page, err := p.S3.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(bucket), ContinuationToken: token})
		if err != nil {
			return n, err
		}
		var ids []types.ObjectIdentifier
		for _, o := range page.Contents {
			if o.Key != nil && drop(*o.Key) {
				ids = append(ids, types.ObjectIdentifier{Key: o.Key})
			}
		}
		if len(ids) > 0 {
			out, err := p.S3.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String(bucket), Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)}})
			if err != nil {
				return n, err
			}
			if len(out.Errors) > 0 {
				e := out.Errors[0]
				return n, fmt.Errorf("sitepub: %d objects not deleted, %s: %s", len(out.Errors), aws.ToString(e.Key), aws.ToString(e.Message))
			}
			n += len(ids)
		}
		if !aws.ToBool(page.IsTruncated) || page.NextContinuationToken == nil {
			return n, nil
		}
		token = page.NextContinuationToken
	}
}

func isNoSuchBucket(err error) bool {
	var nb *types.NoSuchBucket
	if errors.As(err, &nb) {
		return true
	}
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == "NoSuchBucket"
}
