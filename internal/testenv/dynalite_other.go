//go:build !linux

package testenv

import (
	"os"
	"os/exec"
)

// killWithParent has no portable equivalent outside Linux; cleanups (and
// testenv.Main) stop the server there.
func killWithParent(cmd *exec.Cmd) {}

// usage says nothing more outside Linux.
func usage(ps *os.ProcessState) string { return "" }
