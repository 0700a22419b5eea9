// Package bolt is the embedded store.Store of the local server: one bbolt
// file, one bucket, id -> a small binary value (value.go). bbolt allows one
// writer at a time, so the version check of Save is a plain read inside
// the write transaction.
package bolt
