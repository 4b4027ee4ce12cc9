//go:build !linux

package bash

import "syscall"

// childSysProcAttr starts a command in a session of its own, with no
// controlling terminal, its shell leading its process group (see the Linux
// version).
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
