// Package storetest holds what tests need around package store: Run, the
// contract suite every adapter must pass; Faulty, a Store wrapper that
// injects failures and interleaves writers for the tests of other packages;
// and NewDynalite, a Dynamo store on a fresh table of a test dynalite.
package storetest
