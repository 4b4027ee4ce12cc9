package sqliteview

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/vfs"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// vfsName is the name SQLite knows the VFS by.
const vfsName = "todo-shell-view"

func init() { vfs.Register(vfsName, viewVFS{}) }

// viewVFS is SQLite's access to the files of a database another program
// writes: read-only, through the read gate, never creating, writing,
// truncating or deleting a file, and never locking one. It gives no
// shared memory, so SQLite keeps the WAL index in its own memory (the
// connection is in EXCLUSIVE locking mode) and the -shm file is never
// opened by SQLite.
type viewVFS struct{}

var _ vfs.VFS = viewVFS{}

// Open opens the main database or its -wal; SQLite asks for nothing else
// (temporary storage is in memory: PRAGMA temp_store=MEMORY). A -wal that
// does not exist reads as empty: it is not created.
func (viewVFS) Open(name string, flags vfs.OpenFlag) (vfs.File, vfs.OpenFlag, error) {
	ro := flags&^(vfs.OPEN_READWRITE|vfs.OPEN_CREATE|vfs.OPEN_EXCLUSIVE|vfs.OPEN_DELETEONCLOSE) | vfs.OPEN_READONLY
	switch {
	case flags&vfs.OPEN_MAIN_DB != 0:
		f, _, err := readgate.Open(name)
		if err != nil {
			return nil, 0, vfs.SystemError(err, sqlite3.CANTOPEN)
		}
		return &viewFile{f: f}, ro, nil
	case flags&vfs.OPEN_WAL != 0:
		f, _, err := readgate.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			return emptyFile{}, ro, nil
		}
		if err != nil {
			return nil, 0, vfs.SystemError(err, sqlite3.CANTOPEN)
		}
		return &viewFile{f: f}, ro, nil
	}
	return nil, 0, sqlite3.CANTOPEN
}

// Delete deletes nothing. (SQLite asks to delete the -wal of a database
// file that is empty; it is left alone, and SQLite reads no WAL.)
func (viewVFS) Delete(string, bool) error { return nil }

// Access says whether a file exists (without following a symlink); none
// can be written.
func (viewVFS) Access(name string, flags vfs.AccessFlag) (bool, error) {
	if flags != vfs.ACCESS_EXISTS {
		return false, nil
	}
	_, err := os.Lstat(name)
	return err == nil, nil
}

// FullPathname makes name absolute, following no symlink (the gate
// refuses a final one).
func (viewVFS) FullPathname(name string) (string, error) { return filepath.Abs(name) }

// viewFile is a database file or -wal open read-only. Locks are not
// taken: SQLite is told it has them, and a read is checked afterwards
// instead (see Read).
type viewFile struct {
	f    *os.File
	lock vfs.LockLevel
}

var _ vfs.FileLockState = (*viewFile)(nil)

func (v *viewFile) Close() error                            { return v.f.Close() }
func (v *viewFile) ReadAt(p []byte, off int64) (int, error) { return v.f.ReadAt(p, off) }
func (v *viewFile) WriteAt([]byte, int64) (int, error)      { return 0, sqlite3.READONLY }
func (v *viewFile) Truncate(int64) error                    { return sqlite3.READONLY }
func (v *viewFile) Sync(vfs.SyncFlag) error                 { return nil }
func (v *viewFile) Size() (int64, error) {
	fi, err := v.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
func (v *viewFile) Lock(l vfs.LockLevel) error                      { v.lock = l; return nil }
func (v *viewFile) Unlock(l vfs.LockLevel) error                    { v.lock = l; return nil }
func (v *viewFile) LockState() vfs.LockLevel                        { return v.lock }
func (v *viewFile) CheckReservedLock() (bool, error)                { return false, nil }
func (v *viewFile) SectorSize() int                                 { return 4096 }
func (v *viewFile) DeviceCharacteristics() vfs.DeviceCharacteristic { return 0 }

// emptyFile is a -wal that does not exist: no bytes, nothing written.
type emptyFile struct{}

func (emptyFile) Close() error                                    { return nil }
func (emptyFile) ReadAt([]byte, int64) (int, error)               { return 0, io.EOF }
func (emptyFile) WriteAt([]byte, int64) (int, error)              { return 0, sqlite3.READONLY }
func (emptyFile) Truncate(int64) error                            { return sqlite3.READONLY }
func (emptyFile) Sync(vfs.SyncFlag) error                         { return nil }
func (emptyFile) Size() (int64, error)                            { return 0, nil }
func (emptyFile) Lock(vfs.LockLevel) error                        { return nil }
func (emptyFile) Unlock(vfs.LockLevel) error                      { return nil }
func (emptyFile) CheckReservedLock() (bool, error)                { return false, nil }
func (emptyFile) SectorSize() int                                 { return 4096 }
func (emptyFile) DeviceCharacteristics() vfs.DeviceCharacteristic { return 0 }
