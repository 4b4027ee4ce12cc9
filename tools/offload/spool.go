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
	// MaxFile is the most bytes an offload file holds (0: no cap). An
	// output past it keeps its start and its end in the file, with a line
	// in the middle saying how much was cut there (see Spool).
	MaxFile int64

	// FallbackDir is the root used when Dir cannot be written; ""
	// means DefaultFallbackDir().
	FallbackDir string
	// FS is where the files are written; nil means OSFS.
	FS FS
}

func (c Config) fs() FS {
	if c.FS == nil {
		return OSFS{}
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
	// DefaultMaxFile is the default Config.MaxFile: 64 MiB.
	DefaultMaxFile = 64 << 20
	// minMaxFile is the smallest cap honoured; a smaller one is raised to
	// it (room for a head, the marker line and a tail).
	minMaxFile = 4 << 10
	// markerRoom is what a cap keeps free for the line that marks the cut.
	markerRoom = 512
)

// Spool is an io.Writer for a tool's output that may be huge. It keeps the
// output in memory until it reaches the threshold, then moves it to the
// offload file and streams the rest there, so its memory stays bounded by a
// small buffer whatever passes through.
//
// No byte is lost. When the offload file fails at any step (create, write,
// sync, close, rename) what reached it is copied to a file in the fallback
// directory and the output goes on there. When that fails too, the spool
// reads the first HeadBytes and the last TailBytes back from the failed file
// and keeps them in memory with what follows, and Close puts in the middle a
// line saying exactly how many bytes were dropped and why (bytes that cannot
// be read back are dropped and counted the same way). With offloading off
// the output is kept the same way. Close finishes the file.
//
// A file is capped at Config.MaxFile bytes: past its head (the cap less a
// tail of up to TailBytes and room for a line) the output is counted but
// only its end is kept, in memory, and Close writes the line that marks
// the cut and that end after the head. Summary.Err (an *Error with Capped
// set) says what was cut.
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

	// In memory: the output before it spills, and after every file failed.
	head    []byte // bytes [0, len(head)) of the output, at most HeadBytes
	tail    []byte // ring of at most TailBytes bytes, the last at offset ringEnd-1
	tailPos int    // where the next byte goes in tail
	ringLen int64  // bytes held in the ring
	ringEnd int64  // output offset just past the ring's last byte

	// The cap: bytes of the output from capHead on (0: no cap) are not
	// written to the file; capped is set once some were not.
	capHead   int64
	capTail   int64 // bytes of the end a capped file keeps
	capped    bool
	headLines int64 // newlines in the bytes before capHead, once capped

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
			return nil, fmt.Errorf("offload: %w", err)
		}
		s.name = FileName(toolUseID)
		for _, r := range cfg.roots() {
			abs, err := filepath.Abs(r)
			if err != nil {
				return nil, fmt.Errorf("offload: resolve output directory %q: %w", r, err)
			}
			s.roots = append(s.roots, abs)
		}
		if cfg.MaxFile > 0 {
			most := max(cfg.MaxFile, minMaxFile) - markerRoom
			s.capTail = min(most/2, TailBytes)
			s.capHead = most - s.capTail
		}
	}
	return s, nil
}

// Write takes the next piece of output. It never fails: a failure to write
// a file is dealt with as the type says and reported by Close.
func (s *Spool) Write(p []byte) (int, error) {
	off := s.bytes
	s.count(p)
	if s.spilled {
		s.toFile(off, p)
		return len(p), nil
	}
	k := min(len(p), HeadBytes-len(s.head))
	s.keepAt(off, p[:k])
	rest := p[k:]
	if s.name == "" {
		s.keepAt(off+int64(k), rest)
		return len(p), nil
	}
	if s.chars >= int64(s.cfg.Threshold) || len(rest) > 0 {
		// Past the threshold (or more than the head can hold): to a file.
		s.spilled = true
		s.pending = make([]byte, 0, fileBufferSize)
		mem := s.head
		s.head = nil
		s.sink = s.open(nil)
		s.toFile(0, mem)
		s.toFile(off+int64(k), rest)
	}
	return len(p), nil
}

// Len returns how many bytes have been written.
func (s *Spool) Len() int64 { return s.bytes }

// EndsWithNewline reports whether the output so far ends with a newline.
func (s *Spool) EndsWithNewline() bool { return s.last == '\n' }

// count updates sizes and the preview.
func (s *Spool) count(p []byte) {
	if len(p) == 0 {
		return
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
}

// keepAt keeps p, the output from offset off, in memory: in the head while
// it continues the head and there is room, then in the tail ring. A ring
// that p does not continue starts again (the bytes between are dropped).
func (s *Spool) keepAt(off int64, p []byte) {
	if len(p) == 0 {
		return
	}
	if s.ringLen == 0 && off == int64(len(s.head)) && len(s.head) < HeadBytes {
		k := min(len(p), HeadBytes-len(s.head))
		if k > cap(s.head)-len(s.head) { // grow, but never past HeadBytes
			head := make([]byte, len(s.head), min(max(2*cap(s.head), len(s.head)+k, 4096), HeadBytes))
			copy(head, s.head)
			s.head = head
		}
		s.head = append(s.head, p[:k]...)
		off, p = off+int64(k), p[k:]
		if len(p) == 0 {
			return
		}
	}
	if s.ringLen > 0 && s.ringEnd != off {
		s.ringLen = 0
	}
	if s.tail == nil {
		s.tail = make([]byte, TailBytes)
	}
	end := off + int64(len(p))
	if len(p) >= TailBytes {
		p = p[len(p)-TailBytes:]
	}
	n := copy(s.tail[s.tailPos:], p)
	copy(s.tail, p[n:])
	s.tailPos = (s.tailPos + len(p)) % TailBytes
	s.ringEnd, s.ringLen = end, min(TailBytes, s.ringLen+int64(len(p)))
}

// toFile sends p, the output from offset off, to the file a buffer at a
// time, or keeps it in memory once no file is left. Past the cap's head,
// only the end is kept, in memory.
func (s *Spool) toFile(off int64, p []byte) {
	if s.capHead > 0 && off+int64(len(p)) > s.capHead {
		k := max(s.capHead-off, 0)
		s.toFile0(off, p[:k])
		if !s.capped {
			s.capped = true
			// Lines of the head: all seen so far but those past it.
			s.headLines = s.lines - int64(bytes.Count(p[k:], []byte{'\n'}))
		}
		s.keepAt(off+k, p[k:])
		return
	}
	s.toFile0(off, p)
}

// toFile0 is toFile without the cap.
func (s *Spool) toFile0(off int64, p []byte) {
	for len(p) > 0 {
		if s.sink == nil {
			s.keepAt(off, p)
			return
		}
		n := min(len(p), fileBufferSize-len(s.pending))
		s.pending = append(s.pending, p[:n]...)
		off, p = off+int64(n), p[n:]
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
			_ = s.fs.Remove(from.f.Name()) // best effort: its failure is recorded already
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
		_ = f.Close() // abandoned: the copy's failure is the one recorded
		_ = s.fs.Remove(f.Name())
		s.failures = append(s.failures, failure(final, step, err))
		if step == "read back" {
			break // what reached the first file is gone: only memory is left
		}
	}
	s.stage = len(s.roots)
	s.recover(from)
	return nil
}

// recover keeps in memory what is left when no file can be written: the
// start and the end of what reached from's file, read back, and what was
// still pending.
func (s *Spool) recover(from *sink) {
	pending := s.pending
	s.pending = nil
	if s.capped {
		s.recoverCapped(from)
		return
	}
	if from == nil {
		s.keepAt(0, pending)
		return
	}
	defer s.keepAt(from.written, pending)
	if from.written == 0 {
		return
	}
	r, err := s.fs.Open(from.f.Name())
	if err != nil {
		s.failures = append(s.failures, failure(from.final, "read back", err))
		return
	}
	defer func() { _ = r.Close() }() // only read
	head := make([]byte, min(from.written, HeadBytes))
	n, err := r.ReadAt(head, 0)
	s.keepAt(0, head[:n])
	if n < len(head) {
		s.failures = append(s.failures, failure(from.final, "read back", fmt.Errorf("only %d of %d bytes could be read back: %w", n, from.written, err)))
		return
	}
	start := max(int64(len(head)), from.written-TailBytes)
	if start == from.written {
		return
	}
	tail := make([]byte, from.written-start)
	n, err = r.ReadAt(tail, start)
	s.keepAt(start, tail[:n])
	if n < len(tail) {
		s.failures = append(s.failures, failure(from.final, "read back", fmt.Errorf("only %d of %d bytes could be read back: %w", start+int64(n), from.written, err)))
	}
}

// recoverCapped is recover for a capped output, whose end is in memory
// already: the start is read back from from's file; what lies between is
// dropped (and counted by kept).
func (s *Spool) recoverCapped(from *sink) {
	if from == nil || from.written == 0 {
		return
	}
	r, err := s.fs.Open(from.f.Name())
	if err != nil {
		s.failures = append(s.failures, failure(from.final, "read back", err))
		return
	}
	defer func() { _ = r.Close() }() // only read
	head := make([]byte, min(from.written, s.capHead, HeadBytes))
	n, err := r.ReadAt(head, 0)
	s.head = head[:n]
	if n < len(head) {
		s.failures = append(s.failures, failure(from.final, "read back", fmt.Errorf("only %d of %d bytes could be read back: %w", n, from.written, err)))
	}
}

// writeCut writes, after the head of a capped output, the line that marks
// the cut and the end kept in memory.
func (s *Spool) writeCut() {
	if e := s.cutError(); e.Dropped > 0 {
		s.put([]byte(e.Marker()))
	}
	// The ring's last bytes, in its order: at most two pieces of it.
	n := int(min(s.ringLen, s.capTail))
	start := (s.tailPos - n + TailBytes) % TailBytes
	if start+n <= TailBytes {
		s.put(s.tail[start : start+n])
	} else {
		s.put(s.tail[start:])
		s.put(s.tail[:s.tailPos])
	}
	s.flush()
}

// put sends p to the file a buffer at a time (nothing once no file is
// left: what a capped output keeps is in memory already).
func (s *Spool) put(p []byte) {
	for len(p) > 0 && s.sink != nil {
		n := min(len(p), fileBufferSize-len(s.pending))
		s.pending = append(s.pending, p[:n]...)
		p = p[n:]
		if len(s.pending) == fileBufferSize {
			s.flush()
		}
	}
}

// cutError is the account of what the cap cut from the output.
func (s *Spool) cutError() *Error {
	tail := s.tailBytes(min(s.ringLen, s.capTail))
	head := min(s.capHead, s.bytes-int64(len(tail)))
	return &Error{
		Capped: s.cfg.MaxFile, Total: s.bytes, Head: head, Tail: int64(len(tail)),
		Dropped: s.bytes - head - int64(len(tail)), Lines: s.lines, DroppedLines: s.lines - s.headLines - int64(bytes.Count(tail, []byte{'\n'})),
	}
}

// copyInto copies what reached from's file into to's file.
func copyInto(fsys FS, to, from *sink) (step string, err error) {
	r, err := fsys.Open(from.f.Name())
	if err != nil {
		return "read back", err
	}
	defer func() { _ = r.Close() }() // only read
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
			if errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF) {
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
		_ = old.f.Close() // it failed already: that failure is recorded
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
	if s.capped && s.sink != nil {
		s.flush()
		if s.sink != nil {
			s.writeCut()
		}
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
		if e := s.cutError(); s.capped && e.Dropped > 0 {
			if len(s.failures) > 0 {
				e.Failures, e.File = s.failures, path
			}
			sum.Err = e
		}
		s.release()
		return sum
	}
	sum.Text, sum.Err = s.kept()
	s.release()
	return sum
}

// kept returns the output from memory: all of it when nothing is missing,
// else its head, the marker and its tail; and the error to report.
func (s *Spool) kept() (string, error) {
	total, h := s.bytes, int64(len(s.head))
	tailStart := total
	if s.ringLen > 0 && s.ringEnd == total {
		tailStart = max(total-s.ringLen, h)
	}
	tail := s.tailBytes(total - tailStart)
	var e *Error
	if s.spilled {
		e = &Error{Failures: s.failures, Total: total}
	}
	if gap := tailStart - h; gap > 0 {
		if e == nil {
			e = &Error{Off: true, Total: total}
		}
		e.Head, e.Tail, e.Dropped = h, total-tailStart, gap
	}
	var b strings.Builder // String() does not copy
	if e == nil || e.Dropped == 0 {
		b.Grow(int(h) + len(tail))
		b.Write(s.head)
		b.Write(tail)
		if e == nil {
			return b.String(), nil
		}
		return b.String(), e
	}
	marker := e.Marker()
	b.Grow(int(h) + len(marker) + len(tail))
	b.Write(s.head)
	b.WriteString(marker)
	b.Write(tail)
	return b.String(), e
}

// tailBytes returns the last n bytes of the tail ring, in order.
func (s *Spool) tailBytes(n int64) []byte {
	if n <= 0 {
		return nil
	}
	start := (s.tailPos - int(n) + TailBytes) % TailBytes
	if s.tail == nil {
		return nil
	}
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
