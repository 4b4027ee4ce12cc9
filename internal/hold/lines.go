package hold

import (
	"bytes"
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
// call. Memory stays bounded by readBuffer, however long the lines.
//
// It reads in large blocks and finds the lines in them itself: through a
// bufio.Reader of a few hundred kilobytes the long lines of a transcript
// (request blobs of ~130 KB) made it move the buffered bytes down for
// nearly every line, a third of a cold read's time (see BENCHMARKS).
//
// size is how many bytes r holds, at most: the buffer is no larger than
// it needs to be.
func forEachLine(r io.Reader, base, size int64, fn func(l line) error) (int64, error) {
	buf := make([]byte, max(4<<10, min(readBuffer, size+1)))
	lo, hi := 0, 0 // the unread bytes are buf[lo:hi], starting at offset off
	off := base
	var longHead []byte // the head of a line too long to hold, while it is skipped
	longStart := int64(-1)
	eof := false
	for {
		if i := bytes.IndexByte(buf[lo:hi], '\n'); i >= 0 {
			if longStart >= 0 {
				end := off + int64(i) + 1
				if err := fn(line{start: longStart, end: end, bytes: longHead, long: true}); err != nil {
					return longStart, err
				}
				longStart, longHead = -1, longHead[:0]
			} else {
				l := line{start: off, end: off + int64(i) + 1, bytes: buf[lo : lo+i]}
				if i > wholeLine {
					l.bytes, l.long = l.bytes[:headBytes], true
				}
				if err := fn(l); err != nil {
					return off, err
				}
			}
			lo += i + 1
			off += int64(i) + 1
			continue
		}
		if eof {
			if longStart >= 0 {
				return longStart, nil
			}
			return off, nil // an incomplete last line, or none
		}
		switch {
		case longStart >= 0:
			// Skipping a long line: nothing to keep.
			off += int64(hi - lo)
			lo, hi = 0, 0
		case hi-lo > wholeLine || hi == len(buf) && lo == 0:
			// Too long to hold: keep its head, skip the rest.
			longStart = off
			longHead = append(longHead[:0], buf[lo:min(hi, lo+headBytes)]...)
			off += int64(hi - lo)
			lo, hi = 0, 0
		case lo > 0:
			copy(buf, buf[lo:hi])
			hi -= lo
			lo = 0
		}
		n, err := io.ReadFull(r, buf[hi:])
		hi += n
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			eof = true
		} else if err != nil {
			return off, err
		}
	}
}

// readBuffer is the reading buffer: more than wholeLine, so a line that
// is held is held whole.
const readBuffer = 4 << 20
