//go:build !linux

package bash

import "syscall"

// childSysProcAttr puts a command in its own process group.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
