package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// killWithParent has the kernel kill the server if the test binary dies
// without running its cleanups (a panic, a time-out, kill -9).
func killWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// usage is a finished process's memory and CPU, for a report of its death.
func usage(ps *os.ProcessState) string {
	u, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return ""
	}
	return fmt.Sprintf(", max RSS %d KiB, user %s, sys %s", u.Maxrss,
		time.Duration(u.Utime.Nano()), time.Duration(u.Stime.Nano()))
}
