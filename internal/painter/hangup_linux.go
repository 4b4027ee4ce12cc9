//go:build linux

package painter

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// OnHangup calls f once, from a goroutine of its own, when the terminal
// goes away (its other end closed: a closed window, a dropped ssh link).
// A hung-up terminal reads as end of file, which Bubble Tea takes for the
// end of piped input, and SIGHUP does not come when it is ignored (nohup):
// without this the shell would go on with no one at it. stop ends the
// watch; it does not wait for f.
func (t *Terminal) OnHangup(f func()) (stop func()) {
	r, w, err := os.Pipe()
	if err != nil {
		return func() {}
	}
	fd := -1
	if rc, err := t.Out.SyscallConn(); err == nil {
		_ = rc.Control(func(d uintptr) { fd = int(d) })
	}
	if fd < 0 {
		_ = r.Close()
		_ = w.Close()
		return func() {}
	}
	wake := -1
	if rc, err := r.SyscallConn(); err == nil {
		_ = rc.Control(func(d uintptr) { wake = int(d) })
	}
	go func() {
		defer func() { _ = r.Close() }() // only read
		// Events 0: poll reports only the hang-up and errors on the
		// terminal, and the pipe's end of file when stop closes it.
		fds := []unix.PollFd{{Fd: int32(fd)}, {Fd: int32(wake)}}
		for {
			_, err := unix.Poll(fds, -1)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil || fds[1].Revents != 0 {
				return
			}
			if fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 {
				f()
				return
			}
		}
	}()
	return func() { _ = w.Close() } // the read end sees POLLHUP: the watch ends
}
