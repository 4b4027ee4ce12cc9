package bash

import (
	"os"

	"golang.org/x/sys/unix"
)

// growPipe asks for a 1 MiB pipe so a command printing fast wakes the reader
// less often. Failure is harmless. (SyscallConn, unlike Fd, keeps the file
// non-blocking, so Close still interrupts a pending Read.)
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20) })
}
