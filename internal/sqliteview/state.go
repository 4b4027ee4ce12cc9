package sqliteview

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"syscall"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// fileID is what tells one version of a file from another: the file (its
// device and inode), its size and its modification and change times.
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

func idOf(fi fs.FileInfo) fileID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	}
	return fileID{
		dev: uint64(st.Dev), ino: st.Ino, size: st.Size, //nolint:unconvert // Dev is not uint64 everywhere
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}
}

// state is what a read is checked against: whatever a checkpoint, the WAL
// begun anew or the file replaced would change. A commit that appends to
// the -wal changes none of it.
type state struct {
	db      fileID   // the database file: written only by a checkpoint in WAL mode, by each commit otherwise
	wal     [32]byte // the -wal's header (its salts change when it is begun anew; zero when there is none)
	walFile fileID   // the -wal's device and inode only
	// The -shm's checkpoint counters (nBackfill, nBackfillAttempted): a
	// checkpoint sets the second before it writes a page into the
	// database, the first when it is done.
	backfill, attempted uint32
	journal             fileID // a rollback journal
	// hot is set when the rollback journal holds a transaction: a writer
	// is in the middle of a commit (or was killed there), so the database
	// is not to be read until it is done (SQLite's own rule: the journal
	// exists, is not empty and does not start with a zero byte).
	hot bool
}

// stateOf reads the state of the database at path, through the read gate:
// the database must be a regular file, and so must its -wal if there is
// one (at most maxWAL bytes). The -shm is only read, and only for its
// counters: a -shm that cannot be read leaves them zero.
func stateOf(path string, maxWAL int64) (state, error) {
	var s state
	f, fi, err := readgate.Open(path)
	if err != nil {
		return s, err
	}
	_ = f.Close() // only looked at
	s.db = idOf(fi)
	w, wi, err := readgate.Open(path + "-wal")
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return s, err
	default:
		defer func() { _ = w.Close() }() // only read
		if wi.Size() > maxWAL {
			return s, fmt.Errorf("read %s: %w (%d bytes, at most %d)", path+"-wal", readgate.ErrTooLarge, wi.Size(), maxWAL)
		}
		id := idOf(wi)
		s.walFile = fileID{dev: id.dev, ino: id.ino}
		if _, err := w.ReadAt(s.wal[:], 0); err != nil && !errors.Is(err, io.EOF) {
			return s, fmt.Errorf("read %s: %w", path+"-wal", err)
		}
	}
	if m, _, err := readgate.Open(path + "-shm"); err == nil {
		var b [136]byte
		if n, _ := m.ReadAt(b[:], 0); n == len(b) {
			// The WAL index's checkpoint information follows its two
			// 48-byte headers, in the machine's byte order (it is
			// shared memory).
			s.backfill, s.attempted = binary.NativeEndian.Uint32(b[96:]), binary.NativeEndian.Uint32(b[128:])
		}
		_ = m.Close()
	}
	switch j, ji, err := readgate.Open(path + "-journal"); {
	case err == nil:
		s.journal = idOf(ji)
		var b [1]byte
		if n, _ := j.ReadAt(b[:], 0); n == 1 && b[0] != 0 {
			s.hot = true
		}
		_ = j.Close()
	case !errors.Is(err, fs.ErrNotExist):
		s.journal, s.hot = fileID{size: -1}, true // there, and not a regular file
	}
	return s, nil
}
