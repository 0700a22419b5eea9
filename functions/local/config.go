package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// config is everything the server can be told.
type config struct {
	addr              string // listen address
	dataDir           string // bbolt directory (when no table is given)
	dynamoTable       string // DynamoDB table; empty means bbolt
	dynamoEndpoint    string // DynamoDB endpoint override
	createDynamoTable bool   // create the table if missing (only with an endpoint)
	push              bool   // send Web Push notifications
	pushInsecure      bool   // allow http and loopback push endpoints (tests only)
	pushSubject       string // VAPID contact; empty: the request's origin
}

// parseConfig reads flags from args over environment variables from getenv
// over defaults.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	def := config{addr: ":8080", dataDir: "data", push: true}
	if port := getenv("PORT"); port != "" {
		if strings.Contains(port, ":") {
			def.addr = port
		} else {
			def.addr = ":" + port
		}
	}
	if dir := getenv("DATA_DIR"); dir != "" {
		def.dataDir = dir
	}
	def.pushInsecure = getenv("PUSH_ALLOW_INSECURE") == "1"
	def.pushSubject = getenv("PUSH_SUBJECT")
	if v := getenv("PUSH"); v == "0" || v == "off" {
		def.push = false
	}
	def.dynamoTable = getenv("TABLE_NAME")
	def.dynamoEndpoint = getenv("DYNAMODB_ENDPOINT")

	cfg := def
	fs := flag.NewFlagSet("local", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.addr, "addr", def.addr, "listen address (env PORT)")
	fs.StringVar(&cfg.dataDir, "data", def.dataDir, "directory of the bbolt store, created if missing (env DATA_DIR)")
	fs.StringVar(&cfg.dynamoTable, "dynamodb-table", def.dynamoTable, "use this DynamoDB table instead of bbolt (env TABLE_NAME)")
	fs.StringVar(&cfg.dynamoEndpoint, "dynamodb-endpoint", def.dynamoEndpoint, "DynamoDB endpoint, e.g. a local server (env DYNAMODB_ENDPOINT)")
	fs.BoolVar(&cfg.push, "push", def.push, "send Web Push notifications (env PUSH=0 turns them off)")
	fs.BoolVar(&cfg.pushInsecure, "push-allow-insecure", def.pushInsecure, "allow http and loopback push endpoints, for tests only (env PUSH_ALLOW_INSECURE=1)")
	fs.StringVar(&cfg.pushSubject, "push-subject", def.pushSubject, "VAPID contact, mailto: or https: (env PUSH_SUBJECT; default the page's origin)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if cfg.addr == "" {
		return config{}, errors.New("empty listen address")
	}
	if cfg.dynamoTable == "" && cfg.dynamoEndpoint != "" {
		return config{}, errors.New("-dynamodb-endpoint (DYNAMODB_ENDPOINT) needs -dynamodb-table (TABLE_NAME)")
	}
	if cfg.dynamoTable == "" && cfg.dataDir == "" {
		return config{}, errors.New("empty data directory")
	}
	// A local DynamoDB starts empty; on AWS the table belongs to template.yaml.
	cfg.createDynamoTable = cfg.dynamoTable != "" && cfg.dynamoEndpoint != ""
	return cfg, nil
}
