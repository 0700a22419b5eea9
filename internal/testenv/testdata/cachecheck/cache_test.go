// Package cachecheck is run by testenv's TestTrackedInputsRerunACachedTest
// (inputs_test.go) with TESSERA_CACHECHECK naming a directory it made:
// this test tracks the files under <dir>/files and the package <dir>/pkg,
// and passes; the outer test changes them and looks whether go test
// served this result from its cache or ran it again.
package cachecheck

import (
	"os"
	"path/filepath"
	"testing"

	"tessera/internal/testenv"
)

func TestTracked(t *testing.T) {
	dir := os.Getenv("TESSERA_CACHECHECK")
	if dir == "" {
		t.Skip("run by testenv's TestTrackedInputsRerunACachedTest")
	}
	testenv.TrackFiles(t, filepath.Join(dir, "files"))
	testenv.TrackBuild(t, nil, "./"+filepath.Join(dir, "pkg"))
}
