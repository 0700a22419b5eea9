// Package dynamo is the store.Store of the AWS deployment: one DynamoDB
// item per game (item.go), written with a condition on its version, with
// transient failures (throttling, time-outs) retried a bounded number of
// times and then reported as store.ErrUnavailable.
package dynamo
