// Package lambdatest holds the tests of what gets deployed to AWS: the SAM
// template (template.yaml, parsed with goformation and checked against the
// API contract, the store's table layout and least privilege), and the real
// Lambda bootstrap binaries, built by the Makefile targets SAM runs and
// played through a whole game under the Lambda Runtime Interface Emulator
// against dynalite.
//
// It has no code of its own; everything is in _test.go files. Measurements
// (bootstrap size, cold start) are benchmarks:
//
//	go test ./functions/lambdatest -run '^$' -bench . -benchtime 5x
package lambdatest
