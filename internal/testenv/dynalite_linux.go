package testenv

import (
	"os/exec"
	"syscall"
)

// killWithParent has the kernel kill the server if the test binary dies
// without running its cleanups (a panic, a time-out, kill -9).
func killWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
