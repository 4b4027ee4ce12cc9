package bash

import "syscall"

// childSysProcAttr puts a command in its own process group and has the
// kernel kill its shell should todo-shell die first (the reaper takes care
// of the rest of the group).
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
