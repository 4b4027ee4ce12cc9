// Package sqlitefile reads tables of a SQLite 3 database file another
// process is writing, without SQLite: the b-tree pages of the file
// (https://www.sqlite.org/fileformat2.html) and, in WAL mode, the frames
// of its -wal file that a commit made valid. It only reads, takes no lock
// and writes nothing (not even the -shm index), so it cannot disturb the
// writer; what it reads is the database as of the last commit in the WAL
// when the read started (a checkpoint racing the read can give an error:
// read again at the next change).
//
// The files are never trusted: they are opened through the reading gate
// (no symlink, no FIFO, regular files only), every page number, offset,
// size and count is checked before use, a b-tree walk visits each page at
// most once, a record is at most MaxRecord bytes and a WAL at most MaxWAL:
// a damaged or hostile file gives an error, not a panic, a hang or a huge
// allocation. Only the pages a read needs are read: a lookup through an
// index reads the index pages on the key's path and the table pages on
// each row's path.
package sqlitefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// Limits on what a read trusts the file for.
const (
	// MaxRecord caps one record (a row or an index entry) with its
	// overflow pages.
	MaxRecord = 16 << 20
	// MaxWAL caps the -wal file read: past it the WAL is not read (an
	// error), since every frame must be read to know which are valid.
	MaxWAL = 256 << 20
	// maxDepth caps a b-tree's depth (SQLite's own limit is 20).
	maxDepth = 40
)

// ErrCorrupt is wrapped by every error about the file's content.
var ErrCorrupt = errors.New("not a valid SQLite database")

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, a...)...)
}

// File is an open database, held open for several reads. Read takes a
// snapshot of it as of the last commit.
type File struct {
	path  string
	db    *os.File
	wal   wal
	cache pageCache
}

// pageCache keeps pages read, across snapshots while they cannot have
// changed: in WAL mode while the WAL is the same (same salts: a page's
// frame never changes, and a page of the main file changes only by a
// checkpoint of a frame the snapshot reads instead); else while the
// database's change counter, size and time are the same. At most
// maxCache bytes.
type pageCache struct {
	key   string
	pages map[uint32]cachedPage
	bytes int
}

type cachedPage struct {
	off  int64 // the frame's offset in the WAL, or -1 for the main file
	data []byte
}

// maxCache caps the bytes of pages kept.
const maxCache = 32 << 20

// validate drops the pages kept when key says they may have changed.
func (c *pageCache) validate(key string) {
	if key != c.key {
		*c = pageCache{key: key}
	}
}

// Open opens the database at path (and its path-wal when there is one)
// through the reading gate.
func Open(path string) (*File, error) {
	f, _, err := readgate.Open(path)
	if err != nil {
		return nil, err
	}
	return &File{path: path, db: f, wal: wal{path: path + "-wal"}}, nil
}

// Close closes the files.
func (f *File) Close() error {
	f.wal.close()
	return f.db.Close()
}

// Snapshot is the database as of one moment: the main file's pages with,
// over them, the WAL's frames up to its last commit.
type Snapshot struct {
	r        io.ReaderAt // the main file
	walR     io.ReaderAt // the -wal file, or nil
	frames   map[uint32]int64
	pageSize int
	usable   int
	pages    uint32 // the database's size in pages
	schema   []SchemaEntry
	cache    *pageCache
}

// Read takes a snapshot of the database now: it reads the WAL's new frames
// (the frames read before are kept while the WAL is the same) and the
// schema.
func (f *File) Read() (*Snapshot, error) {
	if err := f.wal.refresh(); err != nil {
		return nil, err
	}
	s := &Snapshot{r: f.db, frames: f.wal.pages, cache: &f.cache}
	if f.wal.f != nil && len(f.wal.pages) > 0 {
		s.walR = f.wal.f
		f.cache.validate("wal " + string(f.wal.salt[:]))
	} else {
		var h [4]byte
		_, _ = f.db.ReadAt(h[:], 24)
		key := "main " + string(h[:])
		if fi, err := f.db.Stat(); err == nil {
			key += fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
		}
		f.cache.validate(key)
	}
	if err := s.header(f.wal); err != nil {
		return nil, err
	}
	var err error
	if s.schema, err = s.readSchema(); err != nil {
		return nil, err
	}
	return s, nil
}

// PageSize is the database's page size in bytes.
func (s *Snapshot) PageSize() int { return s.pageSize }

// header reads the database header (page 1, from the WAL if it is there).
func (s *Snapshot) header(w wal) error {
	var h [100]byte
	if off, ok := s.frames[1]; ok && s.walR != nil {
		if _, err := s.walR.ReadAt(h[:], off); err != nil {
			return fmt.Errorf("read %s: %w", w.path, err)
		}
	} else if n, err := s.r.ReadAt(h[:], 0); n < len(h) {
		if err == nil || errors.Is(err, io.EOF) {
			return corrupt("file shorter than its header")
		}
		return err
	}
	if !bytes.Equal(h[:16], []byte("SQLite format 3\x00")) {
		return corrupt("no SQLite header")
	}
	ps := int(binary.BigEndian.Uint16(h[16:]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return corrupt("page size %d", ps)
	}
	if w.pageSize != 0 && w.pageSize != ps {
		return corrupt("WAL page size %d, database %d", w.pageSize, ps)
	}
	s.pageSize = ps
	s.usable = ps - int(h[20])
	if s.usable < 480 {
		return corrupt("usable page size %d", s.usable)
	}
	size, err := s.size()
	if err != nil {
		return err
	}
	// No more pages than the files hold, whatever the header claims.
	most := uint32(min(size/int64(ps)+int64(len(s.frames)), 1<<31))
	switch {
	case w.dbPages > 0:
		s.pages = w.dbPages
	case binary.BigEndian.Uint32(h[24:]) == binary.BigEndian.Uint32(h[92:]) && binary.BigEndian.Uint32(h[28:]) > 0:
		// The header's size is good when written by a version that keeps
		// it (its change counter matches).
		s.pages = binary.BigEndian.Uint32(h[28:])
	default:
		s.pages = uint32(size / int64(ps))
	}
	s.pages = min(s.pages, most)
	return nil
}

// size is the main file's size.
func (s *Snapshot) size() (int64, error) {
	if st, ok := s.r.(interface{ Stat() (os.FileInfo, error) }); ok {
		fi, err := st.Stat()
		if err != nil {
			return 0, err
		}
		return fi.Size(), nil
	}
	return 0, errors.New("sqlitefile: the database's size is unknown")
}

// page reads page n (1-based), from the WAL when a committed frame has it.
func (s *Snapshot) page(n uint32) ([]byte, error) {
	if n < 1 || n > s.pages {
		return nil, corrupt("page %d out of range (%d pages)", n, s.pages)
	}
	r, off, key := s.r, int64(n-1)*int64(s.pageSize), int64(-1)
	if o, ok := s.frames[n]; ok && s.walR != nil {
		r, off, key = s.walR, o, o
	}
	c := s.cache
	if pg, ok := c.pages[n]; ok && pg.off == key && len(pg.data) == s.pageSize {
		return pg.data, nil
	}
	if c.bytes+s.pageSize > maxCache || c.pages == nil {
		c.pages, c.bytes = map[uint32]cachedPage{}, 0
	}
	// A page kept is never written to: read into a buffer of its own.
	buf := make([]byte, s.pageSize)
	k, err := r.ReadAt(buf, off)
	if k < len(buf) {
		if err == nil || errors.Is(err, io.EOF) {
			return nil, corrupt("page %d past the end of the file", n)
		}
		return nil, err
	}
	c.pages[n] = cachedPage{off: key, data: buf}
	c.bytes += len(buf)
	return buf, nil
}

// SchemaEntry is one row of sqlite_schema.
type SchemaEntry struct {
	Type, Name, Table string
	Root              uint32
	SQL               string
}

// readSchema reads sqlite_schema (the table whose root is page 1).
func (s *Snapshot) readSchema() ([]SchemaEntry, error) {
	var out []SchemaEntry
	err := s.scan(1, func(_ int64, r *Record) error {
		if r.Len() < 5 || len(out) >= 10000 {
			return nil
		}
		e := SchemaEntry{Type: r.String(0), Name: r.String(1), Table: r.String(2), SQL: r.String(4)}
		root, _ := r.Int(3)
		if root > 0 && root <= int64(s.pages) {
			e.Root = uint32(root)
		}
		out = append(out, e)
		return r.Err()
	})
	return out, err
}

// Schema is the database's sqlite_schema.
func (s *Snapshot) Schema() []SchemaEntry { return s.schema }

// Table is a table of the snapshot: its root page and its columns'
// names, in record order.
type Table struct {
	s        *Snapshot
	Name     string
	Root     uint32
	Columns  []string
	rowidCol int // the INTEGER PRIMARY KEY column (its value is the rowid), or -1
}

// Table finds the table name; ok is false when there is none.
func (s *Snapshot) Table(name string) (*Table, bool) {
	for _, e := range s.schema {
		if e.Type == "table" && strings.EqualFold(e.Name, name) && e.Root > 0 {
			cols, rowid := columns(e.SQL)
			return &Table{s: s, Name: e.Name, Root: e.Root, Columns: cols, rowidCol: rowid}, true
		}
	}
	return nil, false
}

// Col returns the index of the column name in the table's records, -1 for
// none.
func (t *Table) Col(name string) int {
	for i, c := range t.Columns {
		if strings.EqualFold(c, name) {
			return i
		}
	}
	return -1
}

// Index returns the root page of the index name on the table (0 for none).
func (s *Snapshot) Index(name string) uint32 {
	for _, e := range s.schema {
		if e.Type == "index" && strings.EqualFold(e.Name, name) {
			return e.Root
		}
	}
	return 0
}

// Scan calls fn for every row of the table, in rowid order, with the
// row's record (valid only during the call). An error from fn stops it.
func (t *Table) Scan(fn func(rowid int64, r *Record) error) error {
	return t.s.scan(t.Root, func(rowid int64, r *Record) error {
		r.rowid, r.rowidCol = rowid, t.rowidCol
		return fn(rowid, r)
	})
}

// Row calls fn with the record of the row rowid; found is false when the
// table has none.
func (t *Table) Row(rowid int64, fn func(r *Record) error) (found bool, err error) {
	s := t.s
	n := t.Root
	for depth := 0; ; depth++ {
		if depth > maxDepth { // a loop, or no b-tree
			return false, corrupt("b-tree too deep at page %d", n)
		}
		pg, err := s.page(n)
		if err != nil {
			return false, err
		}
		b, err := s.btree(n, pg)
		if err != nil {
			return false, err
		}
		switch b.kind {
		case 0x05: // table interior: child i holds rowids <= key i
			if n, err = b.childFor(rowid); err != nil {
				return false, err
			}
		case 0x0d:
			return t.leafRow(b, rowid, fn)
		default:
			return false, corrupt("page %d of table %s is a b-tree page of kind %#x", n, t.Name, b.kind)
		}
	}
}

// leafRow calls fn with the record of the row rowid on the table leaf page
// b; found is false when the page has none.
func (t *Table) leafRow(b *btreePage, rowid int64, fn func(r *Record) error) (found bool, err error) {
	lo, hi := 0, b.cells
	for lo < hi { // the first cell whose rowid >= rowid
		mid := (lo + hi) / 2
		key, err := b.leafRowid(mid)
		if err != nil {
			return false, err
		}
		if key < rowid {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == b.cells {
		return false, nil
	}
	r, key, err := b.leafTableCell(lo)
	if err != nil {
		return false, err
	}
	if key != rowid {
		return false, nil
	}
	r.rowid, r.rowidCol = rowid, t.rowidCol
	return true, errors.Join(fn(r), r.Err())
}

// IndexEqual calls fn with the rowid of every entry of the index whose
// root is root and whose first column is the text key, in index order. It
// reads only the pages on the way to those entries.
func (s *Snapshot) IndexEqual(root uint32, key string, fn func(rowid int64) error) error {
	_, err := s.indexRange(root, []byte(key), fn, map[uint32]bool{}, 0)
	return err
}

// indexRange walks the index b-tree at page n in order, skipping the
// subtrees whose keys are all below key, and stops (done) past it.
func (s *Snapshot) indexRange(n uint32, key []byte, fn func(int64) error, visited map[uint32]bool, depth int) (done bool, err error) {
	if depth > maxDepth || visited[n] {
		return true, corrupt("b-tree loop at page %d", n)
	}
	visited[n] = true
	pg, err := s.page(n)
	if err != nil {
		return true, err
	}
	b, err := s.btree(n, pg)
	if err != nil {
		return true, err
	}
	if b.kind != 0x02 && b.kind != 0x0a {
		return true, corrupt("page %d of an index is a b-tree page of kind %#x", n, b.kind)
	}
	first, err := b.firstIndexCell(key)
	if err != nil {
		return true, err
	}
	for i := first; i <= b.cells; i++ {
		if b.kind == 0x02 { // interior: the child left of cell i first
			child := b.right
			if i < b.cells {
				if child, err = b.leftChild(i); err != nil {
					return true, err
				}
			}
			if done, err := s.indexRange(child, key, fn, visited, depth+1); done || err != nil {
				return done, err
			}
		}
		if i == b.cells {
			break
		}
		if done, err := indexEntry(b, i, key, fn); done || err != nil {
			return done, err
		}
	}
	return false, nil
}

// indexEntry calls fn with the rowid of cell i of the index page b when
// its key is key; done is true past key.
func indexEntry(b *btreePage, i int, key []byte, fn func(int64) error) (done bool, err error) {
	r, _, err := b.indexCell(i)
	if err != nil {
		return true, err
	}
	c := compareFirst(r, key)
	if c > 0 {
		return true, r.Err()
	}
	if c == 0 {
		rowid, ok := r.Int(r.Len() - 1)
		if err := r.Err(); err != nil {
			return true, err
		}
		if ok {
			if err := fn(rowid); err != nil {
				return true, err
			}
		}
	}
	return false, nil
}

// compareFirst compares the first column of an index record with a text
// key, in SQLite's order (NULL and numbers before text, blobs after;
// text by bytes, the BINARY collation).
func compareFirst(r *Record, key []byte) int {
	if r.Len() == 0 {
		return -1
	}
	t := r.types[0]
	switch {
	case t < 12: // NULL, integers, reals, the constants 0 and 1
		return -1
	case t%2 == 0: // blob
		return 1
	}
	return bytes.Compare(r.Bytes(0), key)
}

// scan walks the table b-tree at root in order.
func (s *Snapshot) scan(root uint32, fn func(int64, *Record) error) error {
	return s.scanPage(root, fn, map[uint32]bool{}, 0)
}

func (s *Snapshot) scanPage(n uint32, fn func(int64, *Record) error, visited map[uint32]bool, depth int) error {
	if depth > maxDepth || visited[n] {
		return corrupt("b-tree loop at page %d", n)
	}
	visited[n] = true
	pg, err := s.page(n)
	if err != nil {
		return err
	}
	b, err := s.btree(n, pg)
	if err != nil {
		return err
	}
	switch b.kind {
	case 0x05:
		for i := 0; i < b.cells; i++ {
			child, _, err := b.interiorTableCell(i)
			if err != nil {
				return err
			}
			if err := s.scanPage(child, fn, visited, depth+1); err != nil {
				return err
			}
		}
		return s.scanPage(b.right, fn, visited, depth+1)
	case 0x0d:
		for i := 0; i < b.cells; i++ {
			r, rowid, err := b.leafTableCell(i)
			if err != nil {
				return err
			}
			if err := fn(rowid, r); err != nil {
				return err
			}
		}
		return nil
	}
	return corrupt("page %d of a table is a b-tree page of kind %#x", n, b.kind)
}

// btreePage is a parsed b-tree page header.
type btreePage struct {
	s     *Snapshot
	n     uint32
	pg    []byte
	kind  byte
	cells int
	ptrs  []byte // the cell pointer array
	right uint32 // interior pages: the right-most child
}

func (s *Snapshot) btree(n uint32, pg []byte) (*btreePage, error) {
	h := 0
	if n == 1 {
		h = 100
	}
	if len(pg) < h+8 {
		return nil, corrupt("page %d too short", n)
	}
	b := &btreePage{s: s, n: n, pg: pg, kind: pg[h], cells: int(binary.BigEndian.Uint16(pg[h+3:]))}
	hl := 8
	switch b.kind {
	case 0x02, 0x05:
		hl = 12
		b.right = binary.BigEndian.Uint32(pg[h+8:])
	case 0x0a, 0x0d:
	default:
		return nil, corrupt("page %d is no b-tree page (kind %#x)", n, b.kind)
	}
	end := h + hl + 2*b.cells
	if end > s.usable {
		return nil, corrupt("page %d claims %d cells", n, b.cells)
	}
	b.ptrs = pg[h+hl : end]
	return b, nil
}

// cell returns the bytes of cell i, from its start to the end of the
// usable page.
func (b *btreePage) cell(i int) ([]byte, error) {
	off := int(binary.BigEndian.Uint16(b.ptrs[2*i:]))
	if off < len(b.ptrs) || off >= b.s.usable {
		return nil, corrupt("page %d cell %d at offset %d", b.n, i, off)
	}
	return b.pg[off:b.s.usable], nil
}

func (b *btreePage) leftChild(i int) (uint32, error) {
	c, err := b.cell(i)
	if err != nil {
		return 0, err
	}
	if len(c) < 4 {
		return 0, corrupt("page %d cell %d truncated", b.n, i)
	}
	return binary.BigEndian.Uint32(c), nil
}

func (b *btreePage) interiorTableCell(i int) (child uint32, key int64, err error) {
	c, err := b.cell(i)
	if err != nil {
		return 0, 0, err
	}
	if len(c) < 5 {
		return 0, 0, corrupt("page %d cell %d truncated", b.n, i)
	}
	key, k := varint(c[4:])
	if k == 0 {
		return 0, 0, corrupt("page %d cell %d: bad varint", b.n, i)
	}
	return binary.BigEndian.Uint32(c), key, nil
}

func (b *btreePage) leafRowid(i int) (int64, error) {
	c, err := b.cell(i)
	if err != nil {
		return 0, err
	}
	_, k := varint(c)
	rowid, k2 := varint(c[k:])
	if k == 0 || k2 == 0 {
		return 0, corrupt("page %d cell %d: bad varint", b.n, i)
	}
	return rowid, nil
}

func (b *btreePage) leafTableCell(i int) (*Record, int64, error) {
	c, err := b.cell(i)
	if err != nil {
		return nil, 0, err
	}
	size, k := varint(c)
	rowid, k2 := varint(c[k:])
	if k == 0 || k2 == 0 {
		return nil, 0, corrupt("page %d cell %d: bad varint", b.n, i)
	}
	// Table leaf: all local up to U-35.
	u := b.s.usable
	r, err := b.s.record(c[k+k2:], size, u-35)
	return r, rowid, err
}

func (b *btreePage) indexCell(i int) (*Record, int64, error) {
	c, err := b.cell(i)
	if err != nil {
		return nil, 0, err
	}
	if b.kind == 0x02 {
		if len(c) < 4 {
			return nil, 0, corrupt("page %d cell %d truncated", b.n, i)
		}
		c = c[4:]
	}
	size, k := varint(c)
	if k == 0 {
		return nil, 0, corrupt("page %d cell %d: bad varint", b.n, i)
	}
	u := b.s.usable
	r, err := b.s.record(c[k:], size, (u-12)*64/255-23)
	return r, size, err
}

// record makes the record of a cell: payload size bytes, of which the
// first are in local (the rest on overflow pages, read only when a column
// there is asked for).
func (s *Snapshot) record(local []byte, size int64, maxLocal int) (*Record, error) {
	if size < 0 || size > MaxRecord {
		return nil, corrupt("record of %d bytes", size)
	}
	u := s.usable
	n := int(size)
	if n > maxLocal {
		m := (u-12)*32/255 - 23
		k := m + (n-m)%(u-4)
		if k > maxLocal {
			k = m
		}
		if len(local) < k+4 {
			return nil, corrupt("cell runs past its page")
		}
		r := &Record{s: s, payload: local[:k:k], size: n, onPage: k, overflow: binary.BigEndian.Uint32(local[k:])}
		err := r.parseHeader()
		return r, err
	}
	if len(local) < n {
		return nil, corrupt("cell runs past its page")
	}
	r := &Record{s: s, payload: local[:n:n], size: n, onPage: n}
	err := r.parseHeader()
	return r, err
}

// varint decodes SQLite's big-endian varint; k is 0 when b is too short.
func varint(b []byte) (v int64, k int) {
	var u uint64
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0
		}
		if i == 8 {
			u = u<<8 | uint64(b[i])
			return int64(u), 9
		}
		u = u<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return int64(u), i + 1
		}
	}
	return int64(u), 9
}

// childFor returns the child of a table interior page that holds rowid:
// child i holds the rowids <= key i, the right child the rest.
func (b *btreePage) childFor(rowid int64) (uint32, error) {
	lo, hi := 0, b.cells
	for lo < hi { // the first cell whose key >= rowid
		mid := (lo + hi) / 2
		_, key, err := b.interiorTableCell(mid)
		if err != nil {
			return 0, err
		}
		if key < rowid {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == b.cells {
		return b.right, nil
	}
	child, _, err := b.interiorTableCell(lo)
	return child, err
}

// firstIndexCell returns the first cell of the index page b whose key is
// >= key: every entry before it is below.
func (b *btreePage) firstIndexCell(key []byte) (int, error) {
	lo, hi := 0, b.cells
	for lo < hi {
		mid := (lo + hi) / 2
		r, _, err := b.indexCell(mid)
		if err != nil {
			return 0, err
		}
		c := compareFirst(r, key)
		if err := r.Err(); err != nil {
			return 0, err
		}
		if c < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, nil
}
