package main

import (
	"io"
	"testing"
)

func TestConfigFlagsBeatEnvironmentBeatDefaults(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want config
	}{
		{"defaults serve :8080 from ./data", nil, nil,
			config{addr: ":8080", dataDir: "data", push: true, rateLimit: 20}},
		{"PORT alone is a port on every interface", nil, map[string]string{"PORT": "9000"},
			config{addr: ":9000", dataDir: "data", push: true, rateLimit: 20}},
		{"PORT with a host is an address", nil, map[string]string{"PORT": "127.0.0.1:9000"},
			config{addr: "127.0.0.1:9000", dataDir: "data", push: true, rateLimit: 20}},
		{"-addr beats PORT", []string{"-addr", "127.0.0.1:7000"}, map[string]string{"PORT": "9000"},
			config{addr: "127.0.0.1:7000", dataDir: "data", push: true, rateLimit: 20}},
		{"DATA_DIR moves the store", nil, map[string]string{"DATA_DIR": "/var/lib/tessera"},
			config{addr: ":8080", dataDir: "/var/lib/tessera", push: true, rateLimit: 20}},
		{"-data beats DATA_DIR", []string{"-data", "here"}, map[string]string{"DATA_DIR": "there"},
			config{addr: ":8080", dataDir: "here", push: true, rateLimit: 20}},
		{"a table with an endpoint is a local DynamoDB whose table is created", nil,
			map[string]string{"TABLE_NAME": "games", "DYNAMODB_ENDPOINT": "http://127.0.0.1:4567"},
			config{addr: ":8080", dataDir: "data", dynamoTable: "games", dynamoEndpoint: "http://127.0.0.1:4567", createDynamoTable: true, push: true, rateLimit: 20}},
		{"a table without an endpoint is AWS, whose table the template owns",
			[]string{"-dynamodb-table", "games"}, nil,
			config{addr: ":8080", dataDir: "data", dynamoTable: "games", push: true, rateLimit: 20}},
		{"-dynamodb flags beat the environment",
			[]string{"-dynamodb-table", "t2", "-dynamodb-endpoint", "http://b"},
			map[string]string{"TABLE_NAME": "t1", "DYNAMODB_ENDPOINT": "http://a"},
			config{addr: ":8080", dataDir: "data", dynamoTable: "t2", dynamoEndpoint: "http://b", createDynamoTable: true, push: true, rateLimit: 20}},
		{"push is on by default; PUSH_ALLOW_INSECURE=1 allows test endpoints", nil,
			map[string]string{"PUSH_ALLOW_INSECURE": "1", "PUSH_SUBJECT": "mailto:ops@example.org"},
			config{addr: ":8080", dataDir: "data", push: true, pushInsecure: true, pushSubject: "mailto:ops@example.org", rateLimit: 20}},
		{"PUSH=0 turns push off", nil, map[string]string{"PUSH": "0"},
			config{addr: ":8080", dataDir: "data", rateLimit: 20}},
		{"-push=false and -push-allow-insecure", []string{"-push=false", "-push-allow-insecure"}, nil,
			config{addr: ":8080", dataDir: "data", pushInsecure: true, rateLimit: 20}},
		{"RATE_LIMIT=0 turns the limit off", nil, map[string]string{"RATE_LIMIT": "0"},
			config{addr: ":8080", dataDir: "data", push: true}},
		{"-rate-limit beats RATE_LIMIT", []string{"-rate-limit", "2.5"}, map[string]string{"RATE_LIMIT": "0"},
			config{addr: ":8080", dataDir: "data", push: true, rateLimit: 2.5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseConfig(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if cfg, err := parseConfig(tc.args, func(k string) string { return tc.env[k] }, io.Discard); err == nil {
				t.Errorf("parseConfig = %+v, nil; want an error", cfg)
			}
		})
	}
}
