package offload

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/todo-shell/todo-shell/tools"
)

// openDirAt opens dir for working relative to it: never through a symbolic
// link standing in for it, and only when it is this user's. What is then
// created or renamed in it stays in that directory even if another is put
// at its path meanwhile.
func openDirAt(dir string) (int, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return -1, fmt.Errorf("session directory %s is not a directory (a symbolic link?); refusing to use it", dir)
		}
		return -1, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		_ = unix.Close(fd) // closing a directory descriptor
		return -1, &os.PathError{Op: "stat", Path: dir, Err: err}
	}
	if int(st.Uid) != os.Geteuid() {
		_ = unix.Close(fd) // closing a directory descriptor
		return -1, fmt.Errorf("session directory %s belongs to user %d, not to you; refusing to use it", dir, st.Uid)
	}
	return fd, nil
}

// createTempAt creates a new file, mode 0600, named prefix and random
// characters, in dir opened by openDirAt: never an existing file or a link.
func createTempAt(dir, prefix string) (*os.File, error) {
	dfd, err := openDirAt(dir)
	if err != nil {
		return nil, err
	}
	defer func() { _ = unix.Close(dfd) }() // a directory descriptor
	for range 16 {
		name := prefix + tools.RandomBase62(10)
		fd, err := unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, name), Err: err}
		}
		return os.NewFile(uintptr(fd), filepath.Join(dir, name)), nil
	}
	return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, prefix+"*"), Err: os.ErrExist}
}

// renameAt renames oldpath to newpath, both in one directory, relative to
// that directory opened by openDirAt, unless newpath exists.
func renameAt(oldpath, newpath string) error {
	dir := filepath.Dir(newpath)
	if filepath.Dir(oldpath) != dir {
		return renameNoReplace(oldpath, newpath)
	}
	dfd, err := openDirAt(dir)
	if err != nil {
		return err
	}
	defer func() { _ = unix.Close(dfd) }() // a directory descriptor
	oldName, newName := filepath.Base(oldpath), filepath.Base(newpath)
	err = unix.Renameat2(dfd, oldName, dfd, newName, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		if err = unix.Linkat(dfd, oldName, dfd, newName, 0); err == nil {
			err = unix.Unlinkat(dfd, oldName, 0)
		}
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	return nil
}
