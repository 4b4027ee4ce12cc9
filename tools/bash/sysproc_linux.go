package bash

import "syscall"

// childSysProcAttr starts a command in a session of its own, with no
// controlling terminal: opening /dev/tty fails at once (ENXIO) instead of
// stopping the command (SIGTTIN, SIGTTOU) or letting it write to the
// person's terminal raw. Its shell leads the session and so a process group
// of its own, which interrupts, timeouts and the reaper signal whole. The
// kernel kills the shell should todo-shell die first (the reaper takes
// care of the rest of the group).
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
