package agent

import (
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Hide returns the credentials and makes sure that this process's
// environment block does not hold them. Called with them in the
// environment, it re-executes the program (same pid, same arguments)
// without them, passing them through a pipe; it returns only when that
// fails, with the credentials and an error saying they stay visible.
// Called in the re-executed image, it reads them from the pipe. Either
// way the process is then marked not dumpable.
func Hide() (Credentials, error) {
	if fd := os.Getenv(FDVar); fd != "" {
		_ = os.Unsetenv(FDVar) // Go's copy only; the number is no secret
		c, err := fromFD(fd)
		undumpable()
		return c, err
	}
	c := FromEnv(os.Getenv)
	if c.Empty() {
		undumpable()
		return c, nil
	}
	err := reexec(c)
	// Still here: the credentials stay in the environment block.
	undumpable()
	return c, fmt.Errorf("the API key stays readable by the commands the agent runs (/proc/%d/environ): %w", os.Getpid(), err)
}

// reexec replaces the program with itself, the credentials moved from the
// environment to a pipe. It returns only on failure.
func reexec(c Credentials) error {
	data, err := c.encode()
	if err != nil {
		return err
	}
	var p [2]int
	// No O_CLOEXEC on the read end: the new image inherits it. Nothing
	// else runs commands yet at this point of start-up.
	if err := unix.Pipe2(p[:], 0); err != nil {
		return fmt.Errorf("pipe: %w", err)
	}
	r, w := p[0], p[1]
	unix.CloseOnExec(w)
	_, werr := unix.Write(w, data)
	_ = unix.Close(w)
	if werr != nil {
		_ = unix.Close(r)
		return fmt.Errorf("pipe: %w", werr)
	}
	env := append(withoutCredentials(os.Environ()), FDVar+"="+strconv.Itoa(r))
	err = syscall.Exec("/proc/self/exe", os.Args, env)
	_ = unix.Close(r)
	return fmt.Errorf("re-execute: %w", err)
}

// undumpable keeps processes of the same user (not root) out of this
// one's memory and /proc files.
func undumpable() { _ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
