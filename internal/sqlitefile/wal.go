package sqlitefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// wal is what was read of the -wal file: the newest committed frame of
// each page. Reading goes on from where it stopped while the WAL is the
// same file with the same salts; a WAL restarted by a checkpoint (new
// salts) or replaced is read again from its start.
type wal struct {
	path     string
	f        *os.File
	pageSize int
	salt     [8]byte
	bigEnd   bool      // the checksums' byte order (magic 0x377f0683)
	sum      [2]uint32 // the running checksum after the last frame read
	off      int64     // where the next frame starts
	pages    map[uint32]int64
	pending  map[uint32]int64 // frames after the last commit read
	dbPages  uint32           // the database's size at the last commit
}

func (w *wal) close() {
	if w.f != nil {
		_ = w.f.Close()
	}
	*w = wal{path: w.path}
}

// refresh reads the frames added since the last read. No WAL file, or an
// empty or invalid one, is no frames: the main file alone is the database.
func (w *wal) refresh() error {
	fi, err := os.Lstat(w.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			w.close()
			return nil
		}
		return err
	}
	if w.f != nil {
		if cur, err := w.f.Stat(); err != nil || !os.SameFile(cur, fi) || fi.Size() < w.off {
			w.close()
		}
	}
	if w.f == nil {
		f, _, err := readgate.Open(w.path)
		if err != nil {
			return err
		}
		w.f = f
	}
	if fi.Size() > MaxWAL {
		return fmt.Errorf("read %s: %w (%d bytes, at most %d)", w.path, readgate.ErrTooLarge, fi.Size(), MaxWAL)
	}
	var h [32]byte
	if k, _ := w.f.ReadAt(h[:], 0); k < len(h) {
		w.reset()
		return nil
	}
	if w.off > 0 && [8]byte(h[16:24]) == w.salt {
		return w.frames(fi.Size())
	}
	w.reset()
	if !w.header(&h) {
		return nil // not (yet) a WAL, a header being written, or damaged: no frames
	}
	return w.frames(fi.Size())
}

// header checks a WAL header and, when it holds, takes its page size,
// byte order, salt and checksum to read the frames after it.
func (w *wal) header(h *[32]byte) bool {
	magic := binary.BigEndian.Uint32(h[:])
	if magic&^1 != 0x377f0682 || binary.BigEndian.Uint32(h[4:]) != 3007000 {
		return false // not (yet) a WAL
	}
	ps := int(binary.BigEndian.Uint32(h[8:]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return false
	}
	w.bigEnd = magic&1 == 1
	s0, s1 := checksum(w.bigEnd, h[:24], 0, 0)
	if s0 != binary.BigEndian.Uint32(h[24:]) || s1 != binary.BigEndian.Uint32(h[28:]) {
		return false // a header being written, or damaged
	}
	w.pageSize, w.salt, w.sum, w.off = ps, [8]byte(h[16:24]), [2]uint32{s0, s1}, 32
	return true
}

// reset forgets the frames read, keeping the file open.
func (w *wal) reset() {
	w.pageSize, w.salt, w.sum, w.off, w.dbPages = 0, [8]byte{}, [2]uint32{}, 0, 0
	w.pages, w.pending = nil, nil
}

// frames reads the whole frames from w.off to size: each one whose salts
// and checksum chain hold is valid, and a valid commit frame (one that
// gives the database's size) makes those before it count. The first
// frame that does not hold ends the WAL.
func (w *wal) frames(size int64) error {
	if w.pages == nil {
		w.pages = map[uint32]int64{}
	}
	buf := make([]byte, 24+w.pageSize)
	for w.off+int64(len(buf)) <= size {
		k, err := w.f.ReadAt(buf, w.off)
		if k < len(buf) {
			if err == nil || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if [8]byte(buf[8:16]) != w.salt {
			return nil
		}
		s0, s1 := checksum(w.bigEnd, buf[:8], w.sum[0], w.sum[1])
		s0, s1 = checksum(w.bigEnd, buf[24:], s0, s1)
		if s0 != binary.BigEndian.Uint32(buf[16:]) || s1 != binary.BigEndian.Uint32(buf[20:]) {
			return nil
		}
		pgno := binary.BigEndian.Uint32(buf)
		if pgno == 0 {
			return nil
		}
		if w.pending == nil {
			w.pending = map[uint32]int64{}
		}
		w.pending[pgno] = w.off + 24
		w.sum = [2]uint32{s0, s1}
		w.off += int64(len(buf))
		if commit := binary.BigEndian.Uint32(buf[4:]); commit > 0 {
			for p, o := range w.pending {
				w.pages[p] = o
			}
			w.pending = nil
			w.dbPages = commit
		}
	}
	return nil
}

// checksum is the WAL's checksum of b (a multiple of 8 bytes) going on
// from s0, s1.
func checksum(bigEnd bool, b []byte, s0, s1 uint32) (uint32, uint32) {
	order := binary.ByteOrder(binary.LittleEndian)
	if bigEnd {
		order = binary.BigEndian
	}
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}

// columns returns the column names of a CREATE TABLE statement, in
// order, and the index of its INTEGER PRIMARY KEY column (-1 for none).
// Only what a column definition starts with is looked at: its name, and
// whether it is "INTEGER PRIMARY KEY".
func columns(sql string) ([]string, int) {
	open := strings.IndexByte(sql, '(')
	if open < 0 {
		return nil, -1
	}
	defs := columnDefs(sql, open)
	var cols []string
	rowid := -1
	for _, d := range defs {
		d = strings.TrimSpace(d)
		name, rest := firstToken(d)
		switch strings.ToUpper(name) {
		case "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN":
			if !strings.ContainsAny(d[:1], "`\"[") {
				continue // a table constraint, not a column
			}
		}
		if f := strings.Fields(strings.ToUpper(rest)); len(f) >= 3 && f[0] == "INTEGER" && f[1] == "PRIMARY" && f[2] == "KEY" {
			rowid = len(cols)
		}
		cols = append(cols, name)
	}
	return cols, rowid
}

// columnDefs splits the definitions of a CREATE TABLE statement, between
// the parenthesis at sql[open] and the one that closes it, at its
// top-level commas.
func columnDefs(sql string, open int) []string {
	var defs []string
	depth, start := 0, open+1
	var quote byte
	for i := open + 1; i < len(sql); i++ {
		c := sql[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`' || c == '[':
			quote = c
			if c == '[' {
				quote = ']'
			}
		case c == '(':
			depth++
		case c == ')' && depth == 0:
			defs = append(defs, sql[start:i])
			i = len(sql)
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			defs = append(defs, sql[start:i])
			start = i + 1
		}
	}
	return defs
}

// firstToken splits a column definition into its name (unquoted) and the
// rest.
func firstToken(d string) (string, string) {
	if d == "" {
		return "", ""
	}
	if q := d[0]; q == '`' || q == '"' || q == '[' {
		end := byte(q)
		if q == '[' {
			end = ']'
		}
		if i := strings.IndexByte(d[1:], end); i >= 0 {
			return d[1 : 1+i], d[2+i:]
		}
		return d[1:], ""
	}
	if i := strings.IndexAny(d, " \t\r\n"); i >= 0 {
		return d[:i], d[i:]
	}
	return d, ""
}
