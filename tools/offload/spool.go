package offload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
)

// Config says where and from what size results are offloaded.
type Config struct {
	Dir       string // the offload root, ".offload" by default
	Session   string // the session's id
	Threshold int    // characters; 0 turns offloading off

	// FallbackDir is the root used when Dir cannot be written; ""
	// means DefaultFallbackDir().
	FallbackDir string
	// FS is where the files are written; nil means OS.
	FS FS
}

func (c Config) fs() FS {
	if c.FS == nil {
		return OS
	}
	return c.FS
}

// roots returns the places to try, in order.
func (c Config) roots() []string {
	fb := c.FallbackDir
	if fb == "" {
		fb = DefaultFallbackDir()
	}
	return []string{c.Dir, fb}
}

// PreviewLines is how many leading lines a Spool keeps as its preview.
const PreviewLines = 10

const (
	previewMaxBytes = 4096
	// fileBufferSize is how much output is gathered before a write.
	fileBufferSize = 64 << 10
	// HeadBytes and TailBytes are how much of the start and of the end of
	// an output a Spool keeps in memory, so that when no file can be
	// written it still has them (8 MiB in all).
	HeadBytes = 4 << 20
	TailBytes = 4 << 20
)

// Spool is an io.Writer for a tool's output that may be huge. It keeps the
// output in memory until it reaches the threshold, then moves it to the
// offload file and streams the rest there, so its memory stays bounded
// whatever passes through: about HeadBytes+TailBytes plus two buffers.
//
// No byte is lost. When the offload file fails at any step (create, write,
// sync, close, rename) what reached it is copied to a file in the fallback
// directory and the output goes on there; when that fails too, the spool
// keeps the first HeadBytes and the last TailBytes of the output, and Close
// puts in the middle a line saying exactly how many bytes were dropped and
// why. Close finishes the file.
type Spool struct {
	cfg   Config
	fs    FS
	name  string   // the file's name; "" when offloading is off
	roots []string // where files may go, in order

	chars int64
	bytes int64
	lines int64 // newlines seen
	last  byte  // last byte written

	preview      []byte
	previewLines int

	head    []byte // the first HeadBytes of the output
	tail    []byte // ring of the last TailBytes bytes after the head
	tailPos int    // where the next byte goes in tail

	spilled  bool
	stage    int    // index in roots of the current file's place
	sink     *sink  // the file being written; nil before spilling or after giving up
	pending  []byte // output not yet written to sink
	failures []error
}

// sink is one file being written.
type sink struct {
	f       File
	final   string // the path it is meant to have
	written int64  // bytes the file took
	closed  bool
}

// Summary is what a closed Spool holds.
type Summary struct {
	Offloaded bool   // the output is in File, not in Text
	File      string // absolute path of the offload file
	Text      string // the output when not offloaded (with a marker line where bytes were dropped)
	Preview   string // the first PreviewLines lines
	Lines     int    // lines in the output
	Bytes     int64  // size of the output
	// Err is set (an *Error) when the output is not where it should be:
	// in the fallback directory (File says where), or kept in memory
	// because no file could be written, in full or without its middle.
	Err error
}

// NewSpool returns a spool for the output of one tool_use. Any tool_use id
// will do (see FileName); the session id must pass CheckID.
func NewSpool(cfg Config, toolUseID string) (*Spool, error) {
	s := &Spool{cfg: cfg, fs: cfg.fs()}
	if cfg.Threshold > 0 {
		if err := CheckID("session id", cfg.Session); err != nil {
			return nil, err
		}
		s.name = FileName(toolUseID)
		for _, r := range cfg.roots() {
			abs, err := filepath.Abs(r)
			if err != nil {
				return nil, fmt.Errorf("offload: resolve output directory %q: %w", r, err)
			}
			s.roots = append(s.roots, abs)
		}
	}
	return s, nil
}

// Write takes the next piece of output. It never fails: a failure to write
// a file is dealt with as the type says and reported by Close.
func (s *Spool) Write(p []byte) (int, error) {
	inHead := s.count(p)
	if !s.spilled {
		if s.name == "" || (s.chars < int64(s.cfg.Threshold) && s.bytes <= HeadBytes) {
			return len(p), nil
		}
		// Past the threshold (or more than the head can hold): to a file.
		s.spilled = true
		s.pending = make([]byte, 0, fileBufferSize)
		s.sink = s.open(nil)
		s.push(s.head)
		s.push(p[inHead:])
		return len(p), nil
	}
	s.push(p)
	return len(p), nil
}

// Len returns how many bytes have been written.
func (s *Spool) Len() int64 { return s.bytes }

// EndsWithNewline reports whether the output so far ends with a newline.
func (s *Spool) EndsWithNewline() bool { return s.last == '\n' }

// count updates sizes, the preview, the head and the tail; it returns how
// many bytes of p went to the head.
func (s *Spool) count(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	s.bytes += int64(len(p))
	s.lines += int64(bytes.Count(p, []byte{'\n'}))
	if !s.spilled { // characters matter only until the output spills
		for _, c := range p {
			if c&0xC0 != 0x80 {
				s.chars++
			}
		}
	}
	s.last = p[len(p)-1]
	for q := p; len(q) > 0 && s.previewLines < PreviewLines && len(s.preview) < previewMaxBytes; {
		i := bytes.IndexByte(q, '\n')
		line := q
		if i >= 0 {
			line = q[:i+1]
		}
		room := previewMaxBytes - len(s.preview)
		if len(line) > room {
			line = line[:room]
		}
		s.preview = append(s.preview, line...)
		if line[len(line)-1] == '\n' {
			s.previewLines++
		}
		q = q[len(line):]
	}
	n := min(len(p), HeadBytes-len(s.head))
	if n > cap(s.head)-len(s.head) { // grow, but never past HeadBytes
		head := make([]byte, len(s.head), min(max(2*cap(s.head), len(s.head)+n, 4096), HeadBytes))
		copy(head, s.head)
		s.head = head
	}
	s.head = append(s.head, p[:n]...)
	s.keepTail(p[n:])
	return n
}

// keepTail puts p in the tail ring.
func (s *Spool) keepTail(p []byte) {
	if len(p) == 0 {
		return
	}
	if s.tail == nil {
		s.tail = make([]byte, TailBytes)
	}
	if len(p) >= TailBytes {
		p = p[len(p)-TailBytes:]
	}
	n := copy(s.tail[s.tailPos:], p)
	copy(s.tail, p[n:])
	s.tailPos = (s.tailPos + len(p)) % TailBytes
}

// push sends p towards the file, a buffer at a time.
func (s *Spool) push(p []byte) {
	for len(p) > 0 && s.sink != nil {
		n := min(len(p), fileBufferSize-len(s.pending))
		s.pending = append(s.pending, p[:n]...)
		p = p[n:]
		if len(s.pending) == fileBufferSize {
			s.flush()
		}
	}
}

// flush writes what is pending, moving on to the next place as long as the
// current one fails.
func (s *Spool) flush() {
	for len(s.pending) > 0 && s.sink != nil {
		n, err := s.sink.f.Write(s.pending)
		if n < 0 || n > len(s.pending) {
			n, err = 0, fmt.Errorf("write returned %d", n)
		}
		s.sink.written += int64(n)
		s.pending = s.pending[:copy(s.pending, s.pending[n:])]
		if err == nil && n == 0 {
			err = io.ErrShortWrite
		}
		if err != nil {
			s.fail("write", err)
		}
	}
}

// open starts a file in the next place that takes one, copying into it what
// from reached (from is a failed file, or nil). It returns nil when no place
// is left, and removes from's file either way.
func (s *Spool) open(from *sink) *sink {
	defer func() {
		if from != nil {
			s.fs.Remove(from.f.Name())
		}
	}()
	start := 0
	if from != nil {
		start = s.stage + 1
	}
	for s.stage = start; s.stage < len(s.roots); s.stage++ {
		final := filepath.Join(s.roots[s.stage], s.cfg.Session, s.name)
		dir, err := s.fs.SessionDir(s.roots[s.stage], s.cfg.Session)
		if err != nil {
			s.failures = append(s.failures, failure(final, "create", err))
			continue
		}
		f, err := s.fs.CreateTemp(dir, tempPrefix(s.name))
		if err != nil {
			s.failures = append(s.failures, failure(final, "create", err))
			continue
		}
		to := &sink{f: f, final: final}
		if from == nil || from.written == 0 {
			return to
		}
		step, err := copyInto(s.fs, to, from)
		if err == nil {
			return to
		}
		f.Close()
		s.fs.Remove(f.Name())
		s.failures = append(s.failures, failure(final, step, err))
		if step == "read back" {
			break // what reached the first file is gone: only memory is left
		}
	}
	s.stage = len(s.roots)
	s.pending = nil
	return nil
}

// copyInto copies what reached from's file into to's file.
func copyInto(fsys FS, to, from *sink) (step string, err error) {
	r, err := fsys.Open(from.f.Name())
	if err != nil {
		return "read back", err
	}
	defer r.Close()
	buf := make([]byte, fileBufferSize)
	for to.written < from.written {
		n, rerr := io.ReadFull(r, buf[:min(int64(len(buf)), from.written-to.written)])
		if n > 0 {
			w, werr := to.f.Write(buf[:n])
			to.written += int64(max(w, 0))
			if werr == nil && w < n {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				return "write", werr
			}
		}
		if rerr != nil {
			if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
				rerr = fmt.Errorf("only %d of %d bytes could be read back", to.written, from.written)
			}
			return "read back", rerr
		}
	}
	return "", nil
}

// fail records why the current file failed at step and moves on to the
// next place.
func (s *Spool) fail(step string, err error) {
	old := s.sink
	s.failures = append(s.failures, failure(old.final, step, err))
	if !old.closed {
		old.f.Close()
		old.closed = true
	}
	s.sink = s.open(old)
}

// place renames a finished file to its final name, or the next free one.
func (s *Spool) place(k *sink) (string, error) {
	dir, name := filepath.Dir(k.final), filepath.Base(k.final)
	for i := 1; i <= maxNames; i++ {
		path := filepath.Join(dir, uniqueName(name, i))
		err := s.fs.Rename(k.f.Name(), path)
		if err == nil {
			return path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("%d files of that name exist", maxNames)
}

// Close finishes the output. When it was offloaded the file is renamed into
// place; otherwise Summary.Text holds it, or its start and end.
func (s *Spool) Close() Summary {
	sum := Summary{Preview: string(s.preview), Bytes: s.bytes, Lines: int(s.lines)}
	if s.bytes > 0 && s.last != '\n' {
		sum.Lines++
	}
	for s.sink != nil {
		s.flush()
		k := s.sink
		if k == nil {
			break
		}
		if err := k.f.Sync(); err != nil {
			s.fail("sync", err)
			continue
		}
		k.closed = true
		if err := k.f.Close(); err != nil {
			s.fail("close", err)
			continue
		}
		path, err := s.place(k)
		if err != nil {
			s.fail("rename", err)
			continue
		}
		s.sink = nil
		sum.Offloaded, sum.File = true, path
		if len(s.failures) > 0 {
			sum.Err = &Error{Failures: s.failures, File: path, Total: s.bytes}
		}
		s.release()
		return sum
	}
	sum.Text, sum.Err = s.kept()
	s.release()
	return sum
}

// kept returns the output from memory: all of it when it fits, else its
// head, the marker and its tail.
func (s *Spool) kept() (string, error) {
	var e *Error
	if s.spilled || s.bytes > HeadBytes {
		e = &Error{Failures: s.failures, Off: !s.spilled, Total: s.bytes}
	}
	if s.bytes <= HeadBytes+TailBytes {
		var b strings.Builder // String() does not copy
		b.Grow(int(s.bytes))
		b.Write(s.head)
		b.Write(s.tailBytes(s.bytes - int64(len(s.head))))
		if e == nil {
			return b.String(), nil
		}
		return b.String(), e
	}
	e.Head, e.Tail = int64(len(s.head)), TailBytes
	e.Dropped = s.bytes - e.Head - e.Tail
	marker := e.Marker()
	var b strings.Builder
	b.Grow(len(s.head) + len(marker) + TailBytes)
	b.Write(s.head)
	b.WriteString(marker)
	b.Write(s.tailBytes(TailBytes))
	return b.String(), e
}

// tailBytes returns the last n bytes of the tail ring, in order.
func (s *Spool) tailBytes(n int64) []byte {
	if n <= 0 {
		return nil
	}
	start := (s.tailPos - int(n) + TailBytes) % TailBytes
	if start+int(n) <= TailBytes {
		return s.tail[start : start+int(n)]
	}
	out := make([]byte, 0, n)
	out = append(out, s.tail[start:]...)
	return append(out, s.tail[:s.tailPos]...)
}

// release lets go of the buffers.
func (s *Spool) release() {
	s.head, s.tail, s.pending = nil, nil, nil
}
