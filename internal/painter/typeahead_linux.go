//go:build linux

package painter

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Pending reads what the terminal's input queue holds now, without
// waiting: keys typed and not yet read. Call it in raw mode.
func (t *Terminal) Pending() []byte {
	if t.In == nil {
		return nil
	}
	n, err := unix.IoctlGetInt(int(t.In.Fd()), unix.TIOCINQ)
	if err != nil || n <= 0 {
		return nil
	}
	b := make([]byte, n)
	got := 0
	for got < n {
		k, err := t.In.Read(b[got:])
		if k <= 0 || err != nil {
			break
		}
		got += k
	}
	return b[:got]
}

// Inject puts b into the terminal's input queue (TIOCSTI), as if typed
// again, for the next program that reads the terminal; it returns what it
// could not put back (all of b where the system refuses TIOCSTI, as Linux
// does without dev.tty.legacy_tiocsti or CAP_SYS_ADMIN).
func (t *Terminal) Inject(b []byte) (rest []byte) {
	if t.In == nil {
		return b
	}
	fd := t.In.Fd()
	for i := range b {
		c := b[i]
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, fd, unix.TIOCSTI, uintptr(unsafe.Pointer(&c))); errno != 0 {
			return b[i:]
		}
	}
	return nil
}

// queued is how many bytes f's input queue holds now.
func queued(f *os.File) int {
	n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
