package offload

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Config says where and from what size results are offloaded.
type Config struct {
	Dir       string // the offload root, ".offload" by default
	Session   string // the session's id
	Threshold int    // characters; 0 turns offloading off
}

// PreviewLines is how many leading lines a Spool keeps as its preview.
const PreviewLines = 10

const (
	previewMaxBytes = 4096
	fileBufferSize  = 64 << 10
)

// Spool is an io.Writer for a tool's output that may be huge. It keeps the
// output in memory until it reaches the threshold, then moves it to the
// offload file and streams the rest there, so its memory stays bounded by a
// small buffer whatever passes through. Close finishes the file.
type Spool struct {
	cfg  Config
	path string // final path; "" when offloading is off

	mem   []byte // the output while in memory (and after a failed spill)
	chars int64
	bytes int64
	lines int64 // newlines seen
	last  byte  // last byte written

	preview      []byte
	previewLines int

	tmp *os.File
	bw  *bufio.Writer
	err error // the spill failure, reported by Close
}

// Summary is what a closed Spool holds.
type Summary struct {
	Offloaded bool   // the output is in File, not in Text
	File      string // absolute path of the offload file
	Text      string // the whole output, when not offloaded
	Preview   string // the first PreviewLines lines
	Lines     int    // lines in the output
	Bytes     int64  // size of the output
	Err       error  // why the output could not be offloaded; Text holds it all
}

// NewSpool returns a spool for the output of one tool_use.
func NewSpool(cfg Config, toolUseID string) (*Spool, error) {
	s := &Spool{cfg: cfg}
	if cfg.Threshold > 0 {
		path, err := Path(cfg.Dir, cfg.Session, toolUseID)
		if err != nil {
			return nil, err
		}
		s.path = path
	}
	return s, nil
}

// Write takes the next piece of output. It never fails: a failure to spill
// keeps the output in memory and is reported by Close.
func (s *Spool) Write(p []byte) (int, error) {
	s.count(p)
	if s.bw != nil {
		if _, err := s.bw.Write(p); err != nil {
			s.unspill(fmt.Errorf("offload: write %s: %w", s.path, err))
			s.mem = append(s.mem, p...)
		}
		return len(p), nil
	}
	s.mem = append(s.mem, p...)
	if s.path != "" && s.err == nil && s.chars >= int64(s.cfg.Threshold) {
		s.spill()
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
	if s.tmp == nil { // characters matter only until the output spills
		for _, c := range p {
			if c&0xC0 != 0x80 {
				s.chars++
			}
		}
	}
	s.last = p[len(p)-1]
	for len(p) > 0 && s.previewLines < PreviewLines && len(s.preview) < previewMaxBytes {
		i := bytes.IndexByte(p, '\n')
		line := p
		if i >= 0 {
			line = p[:i+1]
		}
		room := previewMaxBytes - len(s.preview)
		if len(line) > room {
			line = line[:room]
		}
		s.preview = append(s.preview, line...)
		if line[len(line)-1] == '\n' {
			s.previewLines++
		}
		p = p[len(line):]
	}
}

// spill moves the in-memory output to a temporary file beside the final path.
func (s *Spool) spill() {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		s.err = fmt.Errorf("offload: create directory for %s: %w", s.path, err)
		return
	}
	f, err := os.CreateTemp(filepath.Dir(s.path), ".tmp-"+filepath.Base(s.path)+"-*")
	if err != nil {
		s.err = fmt.Errorf("offload: write %s: %w", s.path, err)
		return
	}
	s.tmp, s.bw = f, bufio.NewWriterSize(f, fileBufferSize)
	if _, err := s.bw.Write(s.mem); err != nil {
		s.unspill(fmt.Errorf("offload: write %s: %w", s.path, err))
		return
	}
	s.mem = nil
}

// unspill gives up on the file after a failed write: what reached the file
// is read back into memory, so no output is lost, and the file is removed.
func (s *Spool) unspill(cause error) {
	s.err = cause
	s.bw = nil
	var back []byte
	if _, err := s.tmp.Seek(0, io.SeekStart); err == nil {
		back, _ = io.ReadAll(s.tmp)
	}
	s.mem = append(back, s.mem...)
	s.tmp.Close()
	os.Remove(s.tmp.Name())
	s.tmp = nil
}

// Close finishes the output. When it was offloaded the file is renamed into
// place; otherwise Summary.Text holds it all.
func (s *Spool) Close() Summary {
	sum := Summary{Preview: string(s.preview), Bytes: s.bytes, Lines: int(s.lines)}
	if s.bytes > 0 && s.last != '\n' {
		sum.Lines++
	}
	if s.tmp != nil {
		if err := s.bw.Flush(); err != nil {
			s.unspill(fmt.Errorf("offload: write %s: %w", s.path, err))
		}
	}
	if s.tmp != nil {
		name := s.tmp.Name()
		err := errors.Join(s.tmp.Close(), os.Rename(name, s.path))
		s.tmp = nil
		if err == nil {
			sum.Offloaded, sum.File = true, s.path
			return sum
		}
		// The file is written but could not be put in place: read it back.
		back, rerr := os.ReadFile(name)
		os.Remove(name)
		s.err = fmt.Errorf("offload: write %s: %w", s.path, err)
		if rerr != nil {
			s.err = errors.Join(s.err, rerr)
		}
		s.mem = append(back, s.mem...)
	}
	sum.Text, sum.Err = string(s.mem), s.err
	return sum
}
