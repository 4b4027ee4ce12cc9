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
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
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
	return OpenFile(path, os.O_RDONLY, 0)
}

// OpenFile is Open for a file also written (a lock, a journal): flag and
// perm as for os.OpenFile, O_CREATE included. The same checks apply: never
// through a final symlink, never blocking on a FIFO, a regular file only.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, perm)
	if err != nil {
		return nil, nil, openError(path, err)
	}
	return check(f, path)
}

// openError says what an open refused by the kernel was refused for, when
// it is what the gate refuses anyway: a symbolic link (O_NOFOLLOW), a
// directory opened for writing, a FIFO opened for writing with no reader.
func openError(path string, err error) error {
	switch {
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("open %s: %w (a symbolic link)", path, ErrNotRegular)
	case errors.Is(err, syscall.EISDIR):
		return fmt.Errorf("open %s: %w (a directory)", path, ErrNotRegular)
	case errors.Is(err, syscall.ENXIO):
		return fmt.Errorf("open %s: %w (a FIFO or a device)", path, ErrNotRegular)
	}
	return err
}

// OpenInRoot is OpenFile for the file name inside root, a directory held
// open: the file is found relative to it, so the directory cannot be
// swapped for another after it was opened.
func OpenInRoot(root *os.Root, name string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	path := filepath.Join(root.Name(), name)
	// os.Root follows a link that stays inside it, O_NOFOLLOW or not: look
	// first. (A link put there between the look and the open can lead only
	// inside the root, and check still wants a regular file.)
	if info, err := root.Lstat(name); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, nil, fmt.Errorf("open %s: %w (a symbolic link)", path, ErrNotRegular)
	}
	f, err := root.OpenFile(name, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, perm)
	if err != nil {
		// A link that leaves the root fails as "path escapes from parent"
		// before O_NOFOLLOW is looked at: say what it is either way.
		if info, lerr := root.Lstat(name); errors.Is(err, syscall.ELOOP) || (lerr == nil && info.Mode()&fs.ModeSymlink != 0) {
			return nil, nil, fmt.Errorf("open %s: %w (a symbolic link)", path, ErrNotRegular)
		}
		return nil, nil, openError(path, err)
	}
	return check(f, path)
}

// check makes sure the open file f is a regular file and puts it back in
// blocking mode; it closes f when not.
func check(f *os.File, path string) (*os.File, fs.FileInfo, error) {
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

// OpenAt is Open for the file name in the directory open as dirfd
// (openat(2)): for a reader that holds a directory open.
func OpenAt(dirfd int, dirPath, name string) (*os.File, fs.FileInfo, error) {
	path := filepath.Join(dirPath, name)
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, openError(path, &fs.PathError{Op: "open", Path: path, Err: err})
	}
	return check(os.NewFile(uintptr(fd), path), path)
}

// Reason is err, from the gate, without the operation and path it starts
// with ("open /x/lock: "): what to say after naming the file.
func Reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	s := err.Error()
	for _, op := range []string{"open ", "read "} {
		if rest, ok := strings.CutPrefix(s, op); ok {
			if i := strings.Index(rest, ": "); i >= 0 {
				return rest[i+2:]
			}
		}
	}
	return s
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
// than max bytes is an error wrapping ErrTooLarge, and no more than max+1
// bytes are ever read, whatever the file claims its size is.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	return readAll(f, info, path, limit)
}

// ReadFileAt is ReadFile for the file name in the directory open as dirfd.
func ReadFileAt(dirfd int, dirPath, name string, limit int64) ([]byte, error) {
	f, info, err := OpenAt(dirfd, dirPath, name)
	if err != nil {
		return nil, err
	}
	return readAll(f, info, f.Name(), limit)
}

// readAll reads f, at most max bytes, and closes it.
func readAll(f *os.File, info fs.FileInfo, path string, limit int64) ([]byte, error) {
	defer func() { _ = f.Close() }()
	if info.Size() > limit {
		return nil, tooLarge(path, info.Size(), limit)
	}
	// Read into a buffer of the file's size (one more byte: to see it
	// grew), not one that doubles as it fills.
	b := make([]byte, 0, min(info.Size(), limit)+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if len(b) == cap(b) {
			if int64(len(b)) > limit {
				break
			}
			b = append(b, 0)[:len(b)] // grown since the stat
		}
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
				if len(buf)+len(frag) > cap(buf) {
					// Double (append grows a large slice by a quarter,
					// which allocates five times the line on the way).
					grown := make([]byte, len(buf), min(max(2*cap(buf), len(buf)+len(frag)), maxLine+1))
					copy(grown, buf)
					buf = grown
				}
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

// LastLines calls fn for the lines of r (size bytes long), the last line
// first, until fn returns stop or the start of the file is reached: the way
// to find the newest record of a journal without reading all of it. Each
// line comes without its newline, with the offset where it starts; a line
// of more than maxLine bytes comes with long set and no bytes. A final
// newline ends the last line (it does not start an empty one). Memory stays
// bounded by maxLine plus one block, however long the file or its lines.
// The slice fn gets is valid only during the call.
func LastLines(r io.ReaderAt, size int64, maxLine int, fn func(start int64, line []byte, long bool) (stop bool, err error)) error {
	if size <= 0 {
		return nil
	}
	b := backReader{r: r, blk: make([]byte, 64<<10)}
	end := size
	last, err := b.at(size-1, size)
	if err != nil {
		return err
	}
	if last[0] == '\n' {
		end = size - 1
	}
	var line []byte
	for {
		start, err := b.lineStart(end)
		if err != nil {
			return err
		}
		n := end - start
		long := n > int64(maxLine)
		var got []byte
		if !long {
			if cap(line) < int(n) {
				line = make([]byte, n)
			}
			got = line[:n]
			if k, err := r.ReadAt(got, start); int64(k) < n {
				if err == nil || errors.Is(err, io.EOF) {
					err = io.ErrUnexpectedEOF // the file shrank under us
				}
				return err
			}
		}
		stop, err := fn(start, got, long)
		if stop || err != nil || start == 0 {
			return err
		}
		end = start - 1 // the newline before the line
	}
}

// backReader reads a file backwards a block at a time, keeping the last
// block read.
type backReader struct {
	r      io.ReaderAt
	blk    []byte
	win    []byte // the block held: the file's bytes from off
	winOff int64
}

// at returns the bytes [from, to) when they are in one block, reading the
// block that ends at to when they are not held.
func (b *backReader) at(from, to int64) ([]byte, error) {
	if from < b.winOff || to > b.winOff+int64(len(b.win)) {
		n := min(int64(len(b.blk)), to)
		k, err := b.r.ReadAt(b.blk[:n], to-n)
		if int64(k) < n {
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF // the file shrank under us
			}
			return nil, err
		}
		b.win, b.winOff = b.blk[:n], to-n
	}
	return b.win[from-b.winOff : to-b.winOff], nil
}

// lineStart returns where the line that ends at end starts: just after the
// newline before it, or 0.
func (b *backReader) lineStart(end int64) (int64, error) {
	for p := end; p > 0; {
		from := max(0, p-int64(len(b.blk)))
		if p > b.winOff && p <= b.winOff+int64(len(b.win)) {
			from = max(from, b.winOff) // search what is held first
		}
		chunk, err := b.at(from, p)
		if err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return from + int64(i) + 1, nil
		}
		p = from
	}
	return 0, nil
}

// LineNumber returns the 1-based number of the line that starts at offset
// off of r: one more than the newlines before it. It reads [0, off) once,
// a block at a time; it is for naming a line in a warning.
func LineNumber(r io.ReaderAt, off int64) (int, error) {
	buf := make([]byte, 1<<20)
	n := 1
	for p := int64(0); p < off; {
		k, err := r.ReadAt(buf[:min(int64(len(buf)), off-p)], p)
		n += bytes.Count(buf[:k], []byte{'\n'})
		p += int64(k)
		if err != nil && p < off {
			return n, err
		}
	}
	return n, nil
}

// ErrBudget is wrapped by the error for a file a Budget has no room left
// for.
var ErrBudget = errors.New("over the read's budget")

// ErrSeen is wrapped by the error for a file a Budget has already read
// under another name (a hard link).
var ErrSeen = errors.New("a hard link to a file already read")

// Budget is what one read of a list or a directory may still take:
// bytes and entries in all, each file counted once however many hard
// links name it (a second name is refused with ErrSeen). It is safe for
// concurrent use.
type Budget struct {
	mu      sync.Mutex
	bytes   int64
	entries int
	seen    map[fileKey]bool
}

type fileKey struct{ dev, ino uint64 }

// NewBudget returns a budget of maxBytes and maxEntries.
func NewBudget(maxBytes int64, maxEntries int) *Budget {
	return &Budget{bytes: maxBytes, entries: maxEntries, seen: map[fileKey]bool{}}
}

// take counts the file info (open as f at path) against the budget, at
// most limit bytes of it, and returns how many bytes it may read.
func (b *Budget) take(info fs.FileInfo, path string, limit int64) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		k := fileKey{uint64(st.Dev), st.Ino} //nolint:unconvert // Dev is not uint64 everywhere
		if b.seen[k] {
			return 0, fmt.Errorf("read %s: %w", path, ErrSeen)
		}
		b.seen[k] = true
	}
	if b.entries <= 0 {
		return 0, fmt.Errorf("read %s: %w (no more files)", path, ErrBudget)
	}
	if info.Size() > limit {
		return 0, tooLarge(path, info.Size(), limit)
	}
	if info.Size() > b.bytes {
		return 0, fmt.Errorf("read %s: %w (%d bytes, %d left)", path, ErrBudget, info.Size(), b.bytes)
	}
	b.entries--
	n := min(limit, b.bytes)
	return n, nil
}

// spend counts n bytes read.
func (b *Budget) spend(n int64) {
	b.mu.Lock()
	b.bytes -= n
	b.mu.Unlock()
}

// ReadFile is readgate's ReadFile within the budget: the file, at most
// limit bytes, when the budget has room for it and has not read it
// already.
func (b *Budget) ReadFile(path string, limit int64) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	return b.readAll(f, info, path, limit)
}

// ReadFileAt is ReadFile for the file name in the directory open as
// dirfd.
func (b *Budget) ReadFileAt(dirfd int, dirPath, name string, limit int64) ([]byte, error) {
	f, info, err := OpenAt(dirfd, dirPath, name)
	if err != nil {
		return nil, err
	}
	return b.readAll(f, info, f.Name(), limit)
}

func (b *Budget) readAll(f *os.File, info fs.FileInfo, path string, limit int64) ([]byte, error) {
	n, err := b.take(info, path, limit)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	data, err := readAll(f, info, path, n)
	b.spend(int64(len(data)))
	if errors.Is(err, ErrTooLarge) && n < limit {
		// It grew past what was left.
		return nil, fmt.Errorf("read %s: %w", path, ErrBudget)
	}
	return data, err
}
