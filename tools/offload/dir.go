package offload

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// GitIgnore is the name of the file written into a freshly created offload
// root so that its contents stay out of `git status`.
const GitIgnore = ".gitignore"

// SessionDir makes <root>/<session>, the directory a session's files go in,
// ready for use and returns its path. A missing root is created (mode 0700,
// parents as needed) with a .gitignore holding "*". The session directory is
// created with mode 0700; an existing one must be a real directory (not a
// symbolic link) owned by this user, and looser permissions are tightened to
// 0700. Files already in it are never touched. Other parts that keep files in
// the session directory use it too.
func SessionDir(root, session string) (string, error) {
	if err := CheckID("session id", session); err != nil {
		return "", fmt.Errorf("offload: %w", err)
	}
	if err := makeRoot(root); err != nil {
		return "", err
	}
	dir := filepath.Join(root, session)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("create session directory %s: %w", dir, err)
	}
	if err := SecureDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// makeRoot creates the offload root when it is missing, with a .gitignore.
// An existing root (a link to one is fine) must not let another user move
// the session directories in it: it must be this user's or the system's
// (root's) — the owner of a directory may rename anything in it, sticky or
// not — and sticky or writable by its owner only; a root of this user's
// writable by others loses that.
func makeRoot(root string) error {
	if fi, err := os.Stat(root); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("offload directory %s is not a directory", root)
		}
		perm := fi.Mode().Perm()
		st, ok := fi.Sys().(*syscall.Stat_t)
		if ok && int(st.Uid) != os.Geteuid() && st.Uid != 0 {
			return fmt.Errorf("offload directory %s belongs to user %d, not to you (%d): its owner could move your session directories; refusing to use it", root, st.Uid, os.Geteuid())
		}
		if perm&0o022 == 0 || fi.Mode()&fs.ModeSticky != 0 {
			return nil
		}
		if ok && int(st.Uid) != os.Geteuid() {
			return fmt.Errorf("offload directory %s belongs to user %d and others may write to it (mode %04o); refusing to use it", root, st.Uid, perm)
		}
		if err := os.Chmod(root, perm&^0o022); err != nil {
			return fmt.Errorf("offload directory %s is writable by others (mode %04o) and cannot be tightened: %w", root, perm, err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(root), 0o700); err != nil {
		return fmt.Errorf("create offload directory %s: %w", root, err)
	}
	if err := os.Mkdir(root, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) { // made meanwhile by another process
			return nil
		}
		return fmt.Errorf("create offload directory %s: %w", root, err)
	}
	// The ignore file is a courtesy: a failure to write it is no failure.
	if f, err := os.OpenFile(filepath.Join(root, GitIgnore), os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600); err == nil {
		_, _ = f.WriteString("*\n")
		_ = f.Close()
	}
	return nil
}

// OpenSessionDir makes <root>/<session> ready as SessionDir does and opens
// it as an os.Root, held for the session's writes: files are then created
// and renamed relative to the directory opened, so a directory renamed away
// and replaced (by a link, or another directory) afterwards cannot redirect
// them. It checks that what it opened is the directory it checked.
func OpenSessionDir(root, session string) (*os.Root, error) {
	dir, err := SessionDir(root, session)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open session directory %s: %w", dir, err)
	}
	opened, err := r.Stat(".")
	if err == nil {
		var checked fs.FileInfo
		if checked, err = os.Lstat(dir); err == nil && !os.SameFile(opened, checked) {
			err = fmt.Errorf("it was replaced while being opened")
		}
	}
	if err == nil {
		if st, ok := opened.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
			err = fmt.Errorf("it belongs to user %d, not to you", st.Uid)
		}
	}
	if err != nil {
		_ = r.Close() // only a directory handle
		return nil, fmt.Errorf("session directory %s: %w; refusing to use it", dir, err)
	}
	return r, nil
}

// SecureDir checks that dir is a directory of this user's that a symbolic
// link does not stand in for, and tightens its permissions to 0700 when
// group or others have any. It says what is wrong when the directory cannot
// be used safely.
func SecureDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("session directory: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("session directory %s is a symbolic link; refusing to use it", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("session directory %s is not a directory", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("session directory %s belongs to user %d, not to you (%d); refusing to use it", dir, st.Uid, os.Geteuid())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("session directory %s is open to other users (mode %04o) and cannot be tightened: %w", dir, fi.Mode().Perm(), err)
		}
	}
	return nil
}

// OpenAppend opens path, a file in a directory checked by SessionDir, for
// appending, creating it with mode 0600. It never follows a symbolic link
// planted at path, does not hang on a planted FIFO, and refuses anything
// but a regular file of this user's.
func OpenAppend(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link; refusing to write through it", path)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close() // refused before any write
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		_ = f.Close() // refused before any write
		return nil, fmt.Errorf("%s is not a regular file; refusing to write to it", path)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		_ = f.Close() // refused before any write
		return nil, fmt.Errorf("%s belongs to user %d, not to you; refusing to write to it", path, st.Uid)
	}
	return f, nil
}
