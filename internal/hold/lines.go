package hold

import (
	"bufio"
	"errors"
	"io"
)

// Reading a transcript is mostly skipping it: the lines that matter (a
// plan tool's call and result, a prompt) are a few hundred bytes to tens of
// kilobytes, and most of a long transcript is tool output and the records
// Claude Code keeps for itself (request blobs, prompt snapshots). So a line
// of more than wholeLine bytes is never held whole: only its first headBytes
// are looked at, enough to tell what kind of record it is.
const (
	// wholeLine is the longest line read whole.
	wholeLine = 1 << 20
	// headBytes is how much of a longer line is kept.
	headBytes = 16 << 10
)

// line is one line of a transcript: where it starts and ends (after its
// newline), and its bytes (without the newline), or only its first
// headBytes when long is set.
type line struct {
	start, end int64
	bytes      []byte
	long       bool
}

// forEachLine calls fn with each complete line of r, which starts at
// offset base of its file; a last line without its newline is not complete
// and not passed (a writer may be half-way through it). It returns the end
// of the last complete line. The bytes fn gets are valid only during the
// call. Memory stays bounded by wholeLine, however long the lines.
func forEachLine(r io.Reader, base int64, fn func(l line) error) (int64, error) {
	br := bufio.NewReaderSize(r, readBuffer)
	var buf []byte
	off := base
	for {
		start := off
		frag, err := br.ReadSlice('\n')
		off += int64(len(frag))
		if err == nil {
			// The whole line is in the reader's buffer: no copy.
			if err := fn(line{start: start, end: off, bytes: frag[:len(frag)-1]}); err != nil {
				return start, err
			}
			continue
		}
		buf = buf[:0]
		long := false
		for {
			if !long {
				if len(buf)+len(frag) > wholeLine+1 {
					long = true
					if len(buf) < headBytes {
						buf = append(buf, frag[:min(len(frag), headBytes-len(buf))]...)
					}
					buf = buf[:min(len(buf), headBytes)]
				} else {
					buf = append(buf, frag...)
				}
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
			frag, err = br.ReadSlice('\n')
			off += int64(len(frag))
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return start, nil // an incomplete last line, or none
			}
			return start, err
		}
		b := buf
		if !long {
			b = buf[:len(buf)-1] // the newline
		}
		if err := fn(line{start: start, end: off, bytes: b, long: long}); err != nil {
			return start, err
		}
	}
}

// readBuffer is the reading buffer: a line that fits is not copied.
const readBuffer = 256 << 10
