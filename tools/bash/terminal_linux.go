package bash

import (
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal cols wide for a command's output:
// its master to read, its slave to give the command. Output processing is
// off (a newline stays a newline, not CRLF).
func openTerminal(cols int) (master, slave *os.File, err error) {
	master, slave, err = pty.Open()
	if err != nil {
		return nil, nil, err
	}
	if err := setTerminalCols(master, cols); err != nil {
		_ = master.Close()
		_ = slave.Close()
		return nil, nil, err
	}
	// Without it a newline arrives as CRLF; a failure only costs that.
	if rc, err := slave.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) {
			if t, err := unix.IoctlGetTermios(int(fd), unix.TCGETS); err == nil {
				t.Oflag &^= unix.OPOST
				_ = unix.IoctlSetTermios(int(fd), unix.TCSETS, t)
			}
		})
	}
	// pty.Open asked for the master's descriptor (Fd), which put it in
	// blocking mode: Go's poller then never wakes a read at its deadline,
	// and a coalescing read would hold a command's first line until more
	// output came. Non-blocking again, the deadline works.
	if rc, err := master.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _ = unix.SetNonblock(int(fd), true) })
	}
	return master, slave, nil
}

// setTerminalCols makes the terminal whose master is f cols wide (at most
// 1000), 24 rows high. (Not pty.Setsize: asking for the descriptor, it would
// put the master in blocking mode; see openTerminal.)
func setTerminalCols(f *os.File, cols int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(min(cols, 1000)), Row: 24})
	}); err != nil {
		return err
	}
	return serr
}
