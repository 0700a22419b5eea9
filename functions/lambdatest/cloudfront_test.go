package lambdatest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tessera/frontend"
)

func TestFrontendBucketIsPrivateBehindCloudFront(t *testing.T) {
	tmpl := loadTemplate(t)
	bucket, err := tmpl.GetS3BucketWithName("FrontendBucket")
	if err != nil {
		t.Fatal(err)
	}
	pab := bucket.PublicAccessBlockConfiguration
	if pab == nil || !isTrue(pab.BlockPublicAcls) || !isTrue(pab.BlockPublicPolicy) || !isTrue(pab.IgnorePublicAcls) || !isTrue(pab.RestrictPublicBuckets) {
		t.Errorf("PublicAccessBlockConfiguration = %+v, want all four true", pab)
	}
	oac, err := tmpl.GetCloudFrontOriginAccessControlWithName("FrontendOriginAccessControl")
	if err != nil {
		t.Fatal(err)
	}
	if c := oac.OriginAccessControlConfig; c == nil || c.OriginAccessControlOriginType != "s3" || c.SigningBehavior != "always" || c.SigningProtocol != "sigv4" {
		t.Errorf("OriginAccessControlConfig = %+v, want s3, always, sigv4", c)
	}
	policy, err := tmpl.GetS3BucketPolicyWithName("FrontendBucketPolicy")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(policy.PolicyDocument)
	for _, want := range []string{`"Service":"cloudfront.amazonaws.com"`, `"Action":"s3:GetObject"`,
		// ListBucket: a missing page is S3's 404, not its 403.
		`"Action":"s3:ListBucket","Condition":{"StringEquals":{"AWS:SourceArn":"arn:Ref:AWS::Partition:cloudfront::123456789012:distribution/Ref:Distribution"}},"Effect":"Allow","Principal":{"Service":"cloudfront.amazonaws.com"},"Resource":"GetAtt:FrontendBucket.Arn"`,
		`"AWS:SourceArn":"arn:Ref:AWS::Partition:cloudfront::123456789012:distribution/Ref:Distribution"`,
		`"Resource":"GetAtt:FrontendBucket.Arn/*"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("bucket policy %s lacks %s", b, want)
		}
	}
	if strings.Contains(string(b), `"Principal":"*"`) {
		t.Errorf("bucket policy %s grants access to everyone", b)
	}
}

func isTrue(b *bool) bool { return b != nil && *b }

func TestCloudFrontServesThePageAndRoutesAPIToTheHTTPAPI(t *testing.T) {
	tmpl := loadTemplate(t)
	dist, err := tmpl.GetCloudFrontDistributionWithName("Distribution")
	if err != nil {
		t.Fatal(err)
	}
	cfg := dist.DistributionConfig
	origins := map[string]string{}
	for _, o := range cfg.Origins {
		origins[o.Id] = o.DomainName
		if o.Id == "frontend" && str(o.OriginAccessControlId) != "GetAtt:FrontendOriginAccessControl.Id" {
			t.Errorf("frontend origin OriginAccessControlId = %s, want the OAC", str(o.OriginAccessControlId))
		}
	}
	if origins["frontend"] != "GetAtt:FrontendBucket.RegionalDomainName" {
		t.Errorf("frontend origin = %q, want the bucket's regional domain", origins["frontend"])
	}
	if !strings.HasPrefix(origins["api"], "Ref:HttpApi.execute-api.") {
		t.Errorf("api origin = %q, want the HTTP API's execute-api domain", origins["api"])
	}
	if cfg.DefaultCacheBehavior == nil || cfg.DefaultCacheBehavior.TargetOriginId != "frontend" {
		t.Fatalf("default behaviour = %+v, want the frontend origin", cfg.DefaultCacheBehavior)
	}
	var apiBehaviour bool
	for _, b := range cfg.CacheBehaviors {
		if b.PathPattern != "/api/*" {
			continue
		}
		apiBehaviour = true
		if b.TargetOriginId != "api" {
			t.Errorf("/api/* goes to origin %q, want api", b.TargetOriginId)
		}
		for _, m := range []string{"GET", "POST", "OPTIONS"} {
			if !slices.Contains(b.AllowedMethods, m) {
				t.Errorf("/api/* AllowedMethods = %v, lacks %s", b.AllowedMethods, m)
			}
		}
		if str(b.CachePolicyId) != "Ref:ApiCachePolicy" {
			t.Errorf("/api/* CachePolicyId = %s, want the API cache policy", str(b.CachePolicyId))
		}
		if str(b.ResponseHeadersPolicyId) != "Ref:ApiHeadersPolicy" {
			t.Errorf("/api/* ResponseHeadersPolicyId = %s, want ApiHeadersPolicy (HSTS on every path)", str(b.ResponseHeadersPolicyId))
		}
		if str(b.OriginRequestPolicyId) == "<nil>" {
			t.Errorf("/api/* has no origin request policy; bodies and Content-Type must reach the API")
		}
	}
	if !apiBehaviour {
		t.Fatal("no /api/* cache behaviour")
	}
	cp, err := tmpl.GetCloudFrontCachePolicyWithName("ApiCachePolicy")
	if err != nil {
		t.Fatal(err)
	}
	c := cp.CachePolicyConfig
	if c.DefaultTTL != 0 || c.MinTTL != 0 {
		t.Errorf("API cache policy TTLs default %v min %v, want 0 (no caching)", c.DefaultTTL, c.MinTTL)
	}
	hc := c.ParametersInCacheKeyAndForwardedToOrigin.HeadersConfig
	for _, h := range []string{"Authorization", "If-None-Match"} {
		if hc == nil || !slices.Contains(hc.Headers, h) {
			t.Errorf("API cache policy headers = %+v, must forward %s", hc, h)
		}
	}
	hp, err := tmpl.GetCloudFrontResponseHeadersPolicyWithName("FrontendHeadersPolicy")
	if err != nil {
		t.Fatal(err)
	}
	csp := hp.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy
	if csp == nil || csp.ContentSecurityPolicy != frontend.ContentSecurityPolicy {
		t.Errorf("CloudFront CSP = %+v, want the local server's %q", csp, frontend.ContentSecurityPolicy)
	}
	outputs := map[string]string{
		"SiteUrl":            "https://GetAtt:Distribution.DomainName/",
		"ApiUrl":             "https://Ref:HttpApi.execute-api.us-east-1.Ref:AWS::URLSuffix/",
		"FrontendBucketName": "Ref:FrontendBucket",
		"DistributionId":     "Ref:Distribution",
	}
	for name, want := range outputs {
		out, ok := tmpl.Outputs[name]
		if !ok {
			t.Errorf("no output %s", name)
			continue
		}
		if got := fmt.Sprint(out.Value); got != want {
			t.Errorf("output %s = %s, want %s", name, got, want)
		}
	}
}

// TestEveryPathGetsHSTS: both response headers policies, the page's and
// the API's, send Strict-Transport-Security for a year with subdomains.
func TestEveryPathGetsHSTS(t *testing.T) {
	tmpl := loadTemplate(t)
	for _, name := range []string{"FrontendHeadersPolicy", "ApiHeadersPolicy"} {
		p, err := tmpl.GetCloudFrontResponseHeadersPolicyWithName(name)
		if err != nil {
			t.Fatal(err)
		}
		sh := p.ResponseHeadersPolicyConfig.SecurityHeadersConfig
		if sh == nil || sh.StrictTransportSecurity == nil || sh.StrictTransportSecurity.AccessControlMaxAgeSec < 31536000 ||
			!isTrue(sh.StrictTransportSecurity.IncludeSubdomains) || !sh.StrictTransportSecurity.Override {
			t.Errorf("%s: HSTS %+v, want a year, subdomains, override", name, sh)
		}
		if sh == nil || sh.ContentTypeOptions == nil || !sh.ContentTypeOptions.Override {
			t.Errorf("%s: no nosniff", name)
		}
	}
}
