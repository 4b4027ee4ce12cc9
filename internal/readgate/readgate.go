// Package readgate is the one way todo-shell reads a file it did not just
// write: session files, the history, transcripts of any agent, task files.
// Such a file may have been planted (a cloned repository can carry a
// .offload/ directory with symlinks in it) or damaged, so the gate opens it
// without following a final symlink and without blocking on a FIFO, checks
// with fstat that it is a regular file, and reads it with a size cap fitted
// to what the file holds. Line files are read with memory bounded by one
// line, however long the file.
package readgate

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Caps fitted to what each kind of file holds.
const (
	// SmallFile caps a file of a few fields: a lock, session.json, a
	// high-water mark.
	SmallFile = 64 << 10
	// ListFile caps a file holding one plan: todos.json, one task file.
	ListFile = 16 << 20
	// MaxLine caps one line of a JSON-lines file (a journal, a transcript).
	MaxLine = 16 << 20
)

var (
	// ErrNotRegular is wrapped by the error for a path that names a symlink,
	// a FIFO, a device, a socket or a directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is wrapped by the error for a file over its cap.
	ErrTooLarge = errors.New("file too large")
)

// Open opens path for reading without following a final symlink and
// without blocking, and checks that it is a regular file. The returned file
// reads in blocking mode as usual.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, nil, fmt.Errorf("open %s: %w (a symbolic link)", path, ErrNotRegular)
		}
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, nil, fmt.Errorf("open %s: %w (%s)", path, ErrNotRegular, kind(info.Mode()))
	}
	if err := clearNonblock(f); err != nil {
		_ = f.Close()
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	return f, info, nil
}

// clearNonblock puts f back in blocking mode: O_NONBLOCK was only there so
// that opening a FIFO could not hang.
func clearNonblock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}

// kind names a file mode that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return "not a regular file"
	}
}

// ReadFile reads the regular file at path through the gate. A file of more
// than limit bytes is an error wrapping ErrTooLarge, and no more than
// limit+1 bytes are ever read, whatever the file claims its size is.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	if info.Size() > limit {
		return nil, tooLarge(path, info.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(path, int64(len(b)), limit)
	}
	return b, nil
}

func tooLarge(path string, size, limit int64) error {
	return fmt.Errorf("read %s: %w (%d bytes or more, at most %d)", path, ErrTooLarge, size, limit)
}

// LongLine records a line ScanLines skipped because it was over its cap.
type LongLine struct {
	Line  int   // 1-based line number
	Bytes int64 // its length without the newline
}

// ScanLines calls fn for every line of r (without its newline, a final line
// without one included) of at most maxLine bytes, with its 1-based number.
// A longer line is skipped whole and listed in skipped; memory stays bounded
// by maxLine however long the line or the file. The slice fn gets is valid
// only during the call. An error from fn stops the scan and is returned.
func ScanLines(r io.Reader, maxLine int, fn func(lineNo int, line []byte) error) (skipped []LongLine, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		buf = buf[:0]
		var size int64 // the line's bytes read so far, newline included
		long := false
		var rerr error
		for {
			var frag []byte
			frag, rerr = br.ReadSlice('\n')
			size += int64(len(frag))
			if !long && len(buf)+len(frag) > maxLine+1 { // +1: the newline
				long, buf = true, buf[:0]
			}
			if !long {
				buf = append(buf, frag...)
			}
			if !errors.Is(rerr, bufio.ErrBufferFull) {
				break
			}
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return skipped, rerr
		}
		if size == 0 { // at the end, after a final newline or in an empty file
			return skipped, nil
		}
		line := bytes.TrimSuffix(buf, []byte{'\n'})
		if rerr == nil {
			size-- // the newline
		}
		if long || len(line) > maxLine {
			skipped = append(skipped, LongLine{Line: n, Bytes: size})
		} else if err := fn(n, line); err != nil {
			return skipped, err
		}
		if rerr != nil {
			return skipped, nil
		}
	}
}
