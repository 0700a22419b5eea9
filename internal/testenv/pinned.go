package testenv

import (
	"os/exec"
	"runtime"
)

// startPinned starts cmd and waits for it on a goroutine locked to the OS
// thread that forked it, so that thread lives as long as the child: Linux
// sends a child its Pdeathsig (killWithParent) when the thread that
// forked it ends, not the process (go.dev/issue/27505), and the Go runtime
// ends a thread whose locked goroutine returns. Started from any
// goroutine, a server could die mid-run (a dynalite did, in a CI beside
// two busy CPU loops: "connection refused" for the rest of the package).
// wait answers cmd.Wait's error once the child has exited; call it
// instead of cmd.Wait.
func startPinned(cmd *exec.Cmd) (wait func() error, err error) {
	started := make(chan error, 1)
	done := make(chan struct{})
	var werr error
	go func() {
		runtime.LockOSThread()
		// Unlocked before returning: the thread goes back to the
		// runtime (only a goroutine that returns still locked ends it).
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		werr = cmd.Wait()
		close(done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return func() error { <-done; return werr }, nil
}
