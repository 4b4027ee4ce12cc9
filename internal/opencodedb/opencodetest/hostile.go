package opencodetest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// Schema is opencode 1.x's schema for the tables todo-shell reads, as its
// migrations leave them (testdata/mkdb.py has the whole of it).
const Schema = "" +
	"CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, `parent_id` text," +
	" `slug` text NOT NULL, `directory` text NOT NULL, `title` text NOT NULL, `version` text NOT NULL," +
	" `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_archived` integer);" +
	"CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL," +
	" `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);" +
	"CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL," +
	" `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);" +
	"CREATE INDEX `part_session_idx` ON `part` (`session_id`);" +
	"CREATE INDEX `message_session_idx` ON `message` (`session_id`);"

// HostileSession is the session a hostile database holds.
const HostileSession = "ses_hostile"

// Attack says how Hostile damages a database.
type Attack int

// The attacks of issue 27 on opencode's database.
const (
	// Intact: no attack: a third todowrite call, whose data spills onto
	// overflow pages, intact.
	Intact Attack = iota
	// ZeroOverflow: the third call's first overflow page number set to 0.
	ZeroOverflow
	// SharedData: cells cells of the part table, on one 64 KiB page, all
	// the same cell, whose data (a todowrite call of just under 16 MiB) is
	// on one overflow chain; no index on session_id, so a read of the
	// session scans them all.
	SharedData
	// SharedSessionID: the same with the long value in session_id (the
	// data short), no index: every row's session_id is compared.
	SharedSessionID
)

// Hostile writes an opencode database at dir/opencode.db, one session of
// project (HostileSession) with two good todowrite calls, then attacked
// as a says (cells: how many copies of the cell, for the shared attacks),
// and returns its path. It writes the database with SQLite itself, then
// edits its bytes.
func Hostile(t testing.TB, dir, project string, a Attack, cells int) string {
	t.Helper()
	path := filepath.Join(dir, "opencode.db")
	edit(t, path, write(t, path, project, a), a, cells)
	return path
}

// write writes Hostile's database, not yet damaged, and returns the part
// table's root page.
func write(t testing.TB, path, project string, a Attack) int64 {
	t.Helper()
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	exec := func(q string, args ...any) { t.Helper(); execArgs(t, c, q, args...) }
	exec("PRAGMA page_size=65536")
	if err := c.Exec(Schema); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UnixMilli() // live, for watch --all
	exec("INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'p', 's', ?, 't', '1.18.33', ?, ?)", HostileSession, project, now, now)
	for i := int64(1); i <= 2; i++ {
		exec("INSERT INTO part VALUES (?, 'msg_1', ?, ?, ?, ?)", fmt.Sprintf("prt_%02d", i), HostileSession, 1795599842000+i, 1795599842000+i, Todowrite(i, 0))
	}
	// The long value: its record just under 16 MiB (the hand-written
	// reader's cap), cut so that the cell keeps the least on its page
	// (SQLite's minLocal), so that the most copies of it fit there.
	big := 16<<20 - 8192
	long := func(n int) {
		t.Helper()
		exec("DELETE FROM part WHERE id = 'prt_03'")
		switch a {
		case Intact, ZeroOverflow:
			exec("INSERT INTO part VALUES ('prt_03', 'msg_1', ?, 1795599842003, 1795599842003, ?)", HostileSession, Todowrite(3, 100000))
		case SharedData:
			exec("INSERT INTO part VALUES ('prt_03', 'msg_1', ?, 1795599842003, 1795599842003, ?)", HostileSession, Todowrite(3, n))
		case SharedSessionID:
			exec("INSERT INTO part VALUES ('prt_03', 'msg_1', ?, 1795599842003, 1795599842003, ?)", HostileSession+strings.Repeat("x", n), Todowrite(3, 0))
		}
	}
	shared := a == SharedData || a == SharedSessionID
	if shared {
		exec("DROP INDEX part_session_idx")
	}
	long(big)
	if shared {
		payload := payloadOf(t, c, path)
		const usable, minLocal = 65536, (65536-12)*32/255 - 23
		long(big - int((payload-minLocal)%(usable-4)))
	}
	page := rootPage(t, c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return page
}

// execArgs runs q on c with args (strings and int64s).
func execArgs(t testing.TB, c *sqlite3.Conn, q string, args ...any) {
	t.Helper()
	s, _, err := c.Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	for i, v := range args {
		switch v := v.(type) {
		case string:
			err = s.BindText(i+1, v)
		case int64:
			err = s.BindInt64(i+1, v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Exec(); err != nil {
		t.Fatal(err)
	}
}

// rootPage is the part table's root page in c's database.
func rootPage(t testing.TB, c *sqlite3.Conn) int64 {
	t.Helper()
	s, _, err := c.Prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'part'")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	if !s.Step() {
		t.Fatal("no part table")
	}
	return s.ColumnInt64(0)
}

// edit damages the database at path as a says, on the part table's page.
func edit(t testing.TB, path string, page int64, a Attack, cells int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	size := int64(binary.BigEndian.Uint16(b[16:]))
	if size == 1 {
		size = 65536
	}
	p := b[(page-1)*size : page*size]
	if p[0] != 0x0d {
		t.Fatalf("page %d is no table leaf (%#x)", page, p[0])
	}
	n := int(binary.BigEndian.Uint16(p[3:]))
	if n != 3 {
		t.Fatalf("the part table's page has %d cells, want 3", n)
	}
	last := binary.BigEndian.Uint16(p[8+2*(n-1):]) // the long part: rowid 3
	switch a {
	case Intact:
		return
	case ZeroOverflow:
		// Its first overflow page number is the last 4 bytes of its bytes
		// on the page.
		end := cellEnd(p, int(last), int(size))
		binary.BigEndian.PutUint32(p[end-4:], 0)
	default:
		// Its cell cells times over on the page (after the two good
		// ones): rows 1, 2, then 3 again and again, one overflow chain.
		top := int(binary.BigEndian.Uint16(p[5:]))
		if cells <= 0 {
			cells = (top-8)/2 - 2 // as many as fit: a full page
		}
		if 8+2*(2+cells) > top {
			t.Fatalf("%d cells do not fit the page (its cells start at %d)", cells, top)
		}
		for i := 0; i < cells; i++ {
			binary.BigEndian.PutUint16(p[8+2*(2+i):], last)
		}
		binary.BigEndian.PutUint16(p[3:], uint16(2+cells))
		binary.BigEndian.PutUint16(p[1:], 0) // no free block
		p[7] = 0
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// payloadOf returns the payload size of the last cell on the part table's
// page, in the database path that c has written.
func payloadOf(t testing.TB, c *sqlite3.Conn, path string) int64 {
	t.Helper()
	page := rootPage(t, c)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := b[(page-1)*65536 : page*65536]
	n := int(binary.BigEndian.Uint16(p[3:]))
	v, _ := varint(p[binary.BigEndian.Uint16(p[8+2*(n-1):]):])
	return int64(v)
}

// cellEnd returns where the table-leaf cell at off, on a page of a
// database of page size size, ends on its page.
func cellEnd(p []byte, off, size int) int {
	payload, n := varint(p[off:])
	off += n
	_, n = varint(p[off:]) // the rowid
	off += n
	maxLocal, minLocal := size-35, (size-12)*32/255-23
	if int(payload) <= maxLocal {
		return off + int(payload)
	}
	local := minLocal + (int(payload)-minLocal)%(size-4)
	if local > maxLocal {
		local = minLocal
	}
	return off + local + 4
}

// varint reads a SQLite variable-length integer: its value and length.
func varint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 8; i++ {
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return v<<8 | uint64(b[8]), 9
}

// Todowrite is the data of a completed todowrite part (call n, its output
// padded to pad bytes), as opencode writes it (its fields in its order).
func Todowrite(n int64, pad int) string {
	type todo struct {
		ID       string `json:"id"`
		Content  string `json:"content"`
		Status   string `json:"status"`
		Priority string `json:"priority"`
	}
	type state struct {
		Status string `json:"status"`
		Input  struct {
			Todos []todo `json:"todos"`
		} `json:"input"`
		Output string           `json:"output"`
		Title  string           `json:"title"`
		Time   map[string]int64 `json:"time"`
	}
	var d struct {
		Type   string `json:"type"`
		Tool   string `json:"tool"`
		CallID string `json:"callID"`
		State  state  `json:"state"`
	}
	d.Type, d.Tool, d.CallID = "tool", "todowrite", fmt.Sprintf("call_%d", n)
	d.State.Status, d.State.Title = "completed", "2 todos"
	d.State.Input.Todos = []todo{
		{"1", "Write the parser", "completed", "high"},
		{"2", fmt.Sprintf("Call %d", n), "in_progress", "high"},
	}
	d.State.Output = strings.Repeat("x", pad)
	d.State.Time = map[string]int64{"start": 1795599842000 + n, "end": 1795599842000 + n}
	b, _ := json.Marshal(d)
	return string(b)
}

// Small returns the bytes of a small opencode database (512-byte pages:
// the fuzzer's mutator is slow on long inputs) holding one session of
// project with three todowrite calls and a text part; with wal, the
// session's rows are in the -wal (returned too), not yet checkpointed, as
// opencode leaves them.
func Small(t testing.TB, project string, wal bool) (db, walBytes []byte) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "opencode.db")
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	steps := []string{"PRAGMA page_size=512"}
	if wal {
		steps = append(steps, "PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0")
	}
	steps = append(steps, Schema)
	if wal {
		steps = append(steps, "PRAGMA wal_checkpoint(TRUNCATE)")
	}
	for _, q := range steps {
		if err := c.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	ins, _, err := c.Prepare("INSERT INTO part VALUES (?, 'msg_1', 'ses_small', ?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Exec("INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES ('ses_small', 'p', 's', '" + project + "', 't', '1.18.33', 1795599842000, 1795599842000)"); err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 4; i++ {
		data := Todowrite(i, 0)
		if i == 4 {
			data = `{"type":"text","text":"All done."}`
		}
		_ = ins.BindText(1, fmt.Sprintf("prt_%02d", i))
		_ = ins.BindInt64(2, 1795599842000+i)
		_ = ins.BindInt64(3, 1795599842000+i)
		_ = ins.BindText(4, data)
		if err := ins.Exec(); err != nil {
			t.Fatal(err)
		}
	}
	_ = ins.Close()
	db, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if wal {
		if walBytes, err = os.ReadFile(path + "-wal"); err != nil {
			t.Fatal(err)
		}
	}
	return db, walBytes
}
