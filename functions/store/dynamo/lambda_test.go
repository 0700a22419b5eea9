package dynamo

import (
	"context"
	"testing"
)

// A Lambda's configuration is its environment: the region and the role's
// credentials, the session token included; without them it refuses to
// start (rather than failing every request).
func TestALambdaIsConfiguredByItsEnvironment(t *testing.T) {
	env := map[string]string{"AWS_REGION": "eu-south-1", "AWS_ACCESS_KEY_ID": "ASIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "s3cret", "AWS_SESSION_TOKEN": "tok"}
	cfg, err := lambdaConfig(func(k string) string { return env[k] }, "")
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cfg.Credentials.Retrieve(context.Background())
	if err != nil || cfg.Region != "eu-south-1" || creds.AccessKeyID != "ASIAEXAMPLE" || creds.SecretAccessKey != "s3cret" || creds.SessionToken != "tok" {
		t.Errorf("region %q, credentials %+v, %v", cfg.Region, creds, err)
	}
	if cfg.Retryer().MaxAttempts() != MaxAttempts || cfg.BaseEndpoint != nil {
		t.Errorf("retryer attempts %d, endpoint %v", cfg.Retryer().MaxAttempts(), cfg.BaseEndpoint)
	}
	for _, k := range []string{"AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		without := map[string]string{}
		for kk, v := range env {
			if kk != k {
				without[kk] = v
			}
		}
		if _, err := lambdaConfig(func(k string) string { return without[k] }, ""); err == nil {
			t.Errorf("without %s: no error", k)
		}
	}
	// A local endpoint (dynalite in the tests) takes the local credentials.
	cfg, err = lambdaConfig(func(string) string { return "" }, "http://127.0.0.1:4567")
	if err != nil || cfg.Region != localRegion || *cfg.BaseEndpoint != "http://127.0.0.1:4567" {
		t.Errorf("local: %+v, %v", cfg, err)
	}
}
