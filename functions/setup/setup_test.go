package setup

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestConfigFlagsBeatEnvironmentBeatDefaults(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want Config
	}{
		{"defaults serve :8080 from ./data", nil, nil,
			Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: 20}},
		{"PORT alone is a port on every interface", nil, map[string]string{"PORT": "9000"},
			Config{Addr: ":9000", DataDir: "data", Push: true, RateLimit: 20}},
		{"PORT with a host is an address", nil, map[string]string{"PORT": "127.0.0.1:9000"},
			Config{Addr: "127.0.0.1:9000", DataDir: "data", Push: true, RateLimit: 20}},
		{"-addr beats PORT", []string{"-addr", "127.0.0.1:7000"}, map[string]string{"PORT": "9000"},
			Config{Addr: "127.0.0.1:7000", DataDir: "data", Push: true, RateLimit: 20}},
		{"DATA_DIR moves the store", nil, map[string]string{"DATA_DIR": "/var/lib/tessera"},
			Config{Addr: ":8080", DataDir: "/var/lib/tessera", Push: true, RateLimit: 20}},
		{"-data beats DATA_DIR", []string{"-data", "here"}, map[string]string{"DATA_DIR": "there"},
			Config{Addr: ":8080", DataDir: "here", Push: true, RateLimit: 20}},
		{"a table with an endpoint is a local DynamoDB whose table is created", nil,
			map[string]string{"TABLE_NAME": "games", "DYNAMODB_ENDPOINT": "http://127.0.0.1:4567"},
			Config{Addr: ":8080", DataDir: "data", DynamoTable: "games", DynamoEndpoint: "http://127.0.0.1:4567", CreateDynamoTable: true, Push: true, RateLimit: 20}},
		{"a table without an endpoint is AWS, whose table the template owns",
			[]string{"-dynamodb-table", "games"}, nil,
			Config{Addr: ":8080", DataDir: "data", DynamoTable: "games", Push: true, RateLimit: 20}},
		{"-dynamodb flags beat the environment",
			[]string{"-dynamodb-table", "t2", "-dynamodb-endpoint", "http://b"},
			map[string]string{"TABLE_NAME": "t1", "DYNAMODB_ENDPOINT": "http://a"},
			Config{Addr: ":8080", DataDir: "data", DynamoTable: "t2", DynamoEndpoint: "http://b", CreateDynamoTable: true, Push: true, RateLimit: 20}},
		{"push is on by default; PUSH_ALLOW_INSECURE=1 allows test endpoints", nil,
			map[string]string{"PUSH_ALLOW_INSECURE": "1", "PUSH_SUBJECT": "mailto:ops@example.org"},
			Config{Addr: ":8080", DataDir: "data", Push: true, PushInsecure: true, PushSubject: "mailto:ops@example.org", RateLimit: 20}},
		{"PUSH=0 turns push off", nil, map[string]string{"PUSH": "0"},
			Config{Addr: ":8080", DataDir: "data", RateLimit: 20}},
		{"-push=false and -push-allow-insecure", []string{"-push=false", "-push-allow-insecure"}, nil,
			Config{Addr: ":8080", DataDir: "data", PushInsecure: true, RateLimit: 20}},
		{"PUBLIC_URL is the address friends open and the VAPID contact", nil,
			map[string]string{"PUBLIC_URL": "http://192.168.1.20:8080/"},
			Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: 20, PublicURL: "http://192.168.1.20:8080", PublicHost: "192.168.1.20:8080", PushSubject: "https://192.168.1.20:8080"}},
		{"PUSH_SUBJECT beats PUBLIC_URL as the VAPID contact", nil,
			map[string]string{"PUBLIC_URL": "https://dominoes.example", "PUSH_SUBJECT": "mailto:ops@example.org"},
			Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: 20, PublicURL: "https://dominoes.example", PublicHost: "dominoes.example", PushSubject: "mailto:ops@example.org"}},
		{"RATE_LIMIT=0 turns the limit off", nil, map[string]string{"RATE_LIMIT": "0"},
			Config{Addr: ":8080", DataDir: "data", Push: true}},
		{"-rate-limit beats RATE_LIMIT", []string{"-rate-limit", "2.5"}, map[string]string{"RATE_LIMIT": "0"},
			Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: 2.5}},
		{"OPERATOR_TOKEN turns moderation on", nil, map[string]string{"OPERATOR_TOKEN": "s3cret-token"},
			Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: 20, OperatorToken: "s3cret-token"}},
		{"SMTP_ADDR, MAIL_FROM and DIGEST_AFTER turn email on", nil,
			map[string]string{"SMTP_ADDR": "127.0.0.1:2525", "MAIL_FROM": "Tessera <t@example.org>", "DIGEST_AFTER": "6h"},
			Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: 20, SMTPAddr: "127.0.0.1:2525", MailFrom: "Tessera <t@example.org>", DigestAfter: 6 * time.Hour}},
		{"-smtp, -mail-from and -digest-after beat the environment", []string{"-smtp", "mail:25", "-mail-from", "a@b.c", "-digest-after", "90m"},
			map[string]string{"SMTP_ADDR": "127.0.0.1:2525", "DIGEST_AFTER": "6h"},
			Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: 20, SMTPAddr: "mail:25", MailFrom: "a@b.c", DigestAfter: 90 * time.Minute}},
		{"DIGEST_AFTER in seconds", nil, map[string]string{"DIGEST_AFTER": "3600"},
			Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: 20, DigestAfter: time.Hour}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
			if err != nil {
				t.Fatalf("parseConfig: %v", err)
			}
			if got != tc.want {
				t.Errorf("parseConfig = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestConfigRefusesWhatCannotWork(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"an endpoint without a table", []string{"-dynamodb-endpoint", "http://x"}, nil},
		{"an endpoint from the environment without a table", nil, map[string]string{"DYNAMODB_ENDPOINT": "http://x"}},
		{"an unknown flag", []string{"-port", "1"}, nil},
		{"stray arguments", []string{"serve"}, nil},
		{"an empty address", []string{"-addr", ""}, nil},
		{"an empty data directory for bbolt", []string{"-data", ""}, nil},
		{"a rate limit that is not a number", nil, map[string]string{"RATE_LIMIT": "fast"}},
		{"a negative rate limit", []string{"-rate-limit", "-1"}, nil},
		{"an SMTP server without a port", []string{"-smtp", "localhost"}, nil},
		{"a sender that is no address", nil, map[string]string{"MAIL_FROM": "Tessera"}},
		{"a digest period that is no duration", nil, map[string]string{"DIGEST_AFTER": "daily"}},
		{"a digest period under a second", []string{"-digest-after", "500ms"}, nil},
		{"a digest period of no seconds", nil, map[string]string{"DIGEST_AFTER": "0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if cfg, err := Parse(tc.args, func(k string) string { return tc.env[k] }, io.Discard); err == nil {
				t.Errorf("parseConfig = %+v, nil; want an error", cfg)
			}
		})
	}
}

// The Lambda functions and the Worker read the same variables over their
// own defaults: no limit in a Lambda (API Gateway throttles), the limit in
// the Worker; a value that cannot be read is an error that names it.
func TestEveryDeploymentReadsTheSameEnvironment(t *testing.T) {
	env := map[string]string{"TABLE_NAME": "games", "PUSH": "off", "PUSH_SUBJECT": "mailto:a@b.c", "PUBLIC_HOST": "tessera.example"}
	get := func(k string) string { return env[k] }
	l, err := FromEnv(Lambda, get)
	if err != nil || l != (Config{DynamoTable: "games", PushSubject: "mailto:a@b.c", PublicHost: "tessera.example"}) {
		t.Errorf("Lambda: %+v, %v", l, err)
	}
	w, err := FromEnv(Worker, get)
	if err != nil || w.RateLimit != DefaultRateLimit || w.Push || w.PublicHost != "tessera.example" {
		t.Errorf("Worker: %+v, %v", w, err)
	}
	env["RATE_LIMIT"] = "fast"
	if w, err := FromEnv(Worker, get); err == nil || !strings.Contains(err.Error(), "RATE_LIMIT") || w.RateLimit != DefaultRateLimit {
		t.Errorf("a bad RATE_LIMIT: %+v, %v; want an error naming it and the default kept", w, err)
	}
}
