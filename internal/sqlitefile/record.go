package sqlitefile

import (
	"encoding/binary"
	"math"
	"strconv"
)

// Record is one row or index entry: its header's column types and its
// payload. The part of a payload on overflow pages is read only when a
// column there is asked for. A column asked for that the record does not
// have reads as NULL; a record that turns out damaged sets Err.
type Record struct {
	s        *Snapshot
	payload  []byte // the payload read so far: the local part, or all
	size     int    // the whole payload's size
	onPage   int    // how much of it is on the record's own page
	overflow uint32 // the first overflow page, while not read
	types    []int64
	offs     []int // each column's offset in the payload
	err      error
	rowid    int64
	rowidCol int
}

// maxColumns caps a record's columns (SQLite's own limit is 32767).
const maxColumns = 32767

func (r *Record) parseHeader() error {
	r.rowidCol = -1
	hlen, k := varint(r.payload)
	if k == 0 || hlen < int64(k) || hlen > int64(r.size) {
		return corrupt("record header of %d bytes", hlen)
	}
	if int(hlen) > len(r.payload) {
		if err := r.readOverflow(); err != nil {
			return err
		}
	}
	h := r.payload[k:hlen]
	off := int(hlen)
	for len(h) > 0 {
		t, k := varint(h)
		if k == 0 || t < 0 || len(r.types) >= maxColumns {
			return corrupt("record header")
		}
		h = h[k:]
		r.types = append(r.types, t)
		r.offs = append(r.offs, off)
		n := colSize(t)
		if n < 0 || off+n > r.size {
			return corrupt("record column runs past its payload")
		}
		off += n
	}
	return nil
}

// colSize is the size in bytes of a column of serial type t; -1 for a
// reserved type.
func colSize(t int64) int {
	switch {
	case t <= 4:
		return int(t)
	case t == 5:
		return 6
	case t == 6, t == 7:
		return 8
	case t == 8, t == 9:
		return 0
	case t == 10, t == 11:
		return -1
	case t > 2*MaxRecord+13:
		return -1
	}
	return int(t-12) / 2
}

// readOverflow reads the rest of the payload from its overflow pages.
func (r *Record) readOverflow() error {
	if r.overflow == 0 {
		return nil
	}
	s := r.s
	// Grow with the pages read, not to the size the record claims.
	full := make([]byte, len(r.payload), min(r.size, len(r.payload)+64<<10))
	copy(full, r.payload)
	seen := map[uint32]bool{}
	for n := r.overflow; len(full) < r.size; {
		if n == 0 || seen[n] {
			return corrupt("overflow chain broken at page %d", n)
		}
		seen[n] = true
		pg, err := s.page(n)
		if err != nil {
			return err
		}
		chunk := pg[4:s.usable]
		if rest := r.size - len(full); len(chunk) > rest {
			chunk = chunk[:rest]
		}
		full = append(full, chunk...)
		n = binary.BigEndian.Uint32(pg)
	}
	r.payload, r.overflow = full, 0
	return nil
}

// Size is the size in bytes of the record's whole payload, the part on
// overflow pages included.
func (r *Record) Size() int { return r.size }

// OnPage returns the part of the record's payload on its own page (all
// of it when none is on overflow pages), without reading overflow pages.
// With Size it tells a row changed in place from the row read before,
// unless only bytes on overflow pages changed and the size did not (SQLite
// then overwrites those pages in place). The slice is valid only while
// the record is.
func (r *Record) OnPage() []byte { return r.payload[:r.onPage] }

// Len is the number of columns in the record.
func (r *Record) Len() int { return len(r.types) }

// Err is the first error met reading the record's columns.
func (r *Record) Err() error { return r.err }

// raw returns column i's bytes, reading overflow pages when they hold it;
// nil for a column the record lacks.
func (r *Record) raw(i int) (int64, []byte) {
	if i < 0 || i >= len(r.types) || r.err != nil {
		return 0, nil
	}
	t, off := r.types[i], r.offs[i]
	end := off + colSize(t)
	if end > len(r.payload) {
		if r.err = r.readOverflow(); r.err != nil {
			return 0, nil
		}
	}
	return t, r.payload[off:end]
}

// Int returns column i as an integer; ok is false for NULL or a column
// that holds no integer. The INTEGER PRIMARY KEY column reads as the rowid.
func (r *Record) Int(i int) (int64, bool) {
	if i == r.rowidCol && i >= 0 {
		return r.rowid, true
	}
	t, b := r.raw(i)
	switch {
	case t >= 1 && t <= 6:
		var v int64
		if b[0]&0x80 != 0 {
			v = -1
		}
		for _, c := range b {
			v = v<<8 | int64(c)
		}
		return v, true
	case t == 7:
		f := math.Float64frombits(binary.BigEndian.Uint64(b))
		if f >= math.MinInt64 && f < math.MaxInt64 {
			return int64(f), true
		}
	case t == 8:
		return 0, true
	case t == 9:
		return 1, true
	case t >= 13 && t%2 == 1:
		v, err := strconv.ParseInt(string(b), 10, 64)
		return v, err == nil
	}
	return 0, false
}

// Bytes returns column i's text or blob bytes (nil for NULL or a number).
// The slice is valid only while the record is.
func (r *Record) Bytes(i int) []byte {
	t, b := r.raw(i)
	if t >= 12 {
		return b
	}
	return nil
}

// String is Bytes as a string.
func (r *Record) String(i int) string { return string(r.Bytes(i)) }

// IsNull reports whether column i is NULL (or missing).
func (r *Record) IsNull(i int) bool {
	if i == r.rowidCol && i >= 0 {
		return false
	}
	return i < 0 || i >= len(r.types) || r.types[i] == 0
}

// Prefix returns at most n bytes from the start of column i's text or
// blob, without reading overflow pages: what of it is on the record's own
// page. whole reports whether that is the whole column.
func (r *Record) Prefix(i, n int) (b []byte, whole bool) {
	if i < 0 || i >= len(r.types) || r.err != nil || r.types[i] < 12 {
		return nil, true
	}
	off := r.offs[i]
	end := off + colSize(r.types[i])
	avail := min(end, len(r.payload))
	if off >= avail {
		return nil, end == off
	}
	if avail-off > n {
		return r.payload[off : off+n], false
	}
	return r.payload[off:avail], avail == end
}
