// Package testenv finds the repository and the external tools that tests
// need (dynalite, chromium, the Lambda Runtime Interface Emulator), with one
// rule for all of them: when a tool is missing, a test skips with an install
// hint, except under CI=true, where it fails. A CI run never passes by
// skipping what it was meant to test.
//
// Dynalite starts a DynamoDB-compatible server (in memory) for tests. A test
// package that wants one server for the whole test binary declares
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
//
// otherwise every call starts its own server and stops it in t.Cleanup.
// Either way each test should create its own table, named by TableName.
package testenv
