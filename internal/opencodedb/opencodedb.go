// Package opencodedb reads the plans of opencode 1.x sessions from the
// database opencode keeps them in (~/.local/share/opencode/opencode.db,
// SQLite in WAL mode), live, while opencode writes it: through SQLite
// itself, by internal/sqliteview (read-only, no lock, nothing written,
// no -shm; each read checked against a checkpoint racing it).
//
// The tables, as opencode's drizzle schema declares them
// (packages/opencode/src/session/session.sql.ts in github.com/sst/opencode):
// session (id, directory, parent_id, time_updated, time_archived, …),
// message (id, session_id, data JSON) and part (id, message_id, session_id,
// time_created, time_updated, data JSON: a part as `opencode export`
// prints it, less its ids). The plan is the session's todowrite tool parts,
// each a version as in the export (plan's opencode reader reads them); the
// todo table holds only the present list, so it is not read. A session's
// parts are found through the part_session_idx index (session_id).
//
// Nothing in the file is trusted. Every query bounds what it loads in SQL
// (octet_length and typeof read a value's size and type from its record
// header, never its bytes): an id or a directory over its cap is not
// loaded, a part's data is read by incremental blob I/O — first its start,
// to tell a todowrite call from a long tool output, then, for a plan part
// of at most MaxPart bytes, the rest — and one read loads at most
// MaxRead bytes of data and MaxParts parts of a session. So a damaged or
// hostile database costs at most those bytes and a time in proportion,
// however its pages are laid out (overflow chains shared by many cells
// included), and gives an error naming the file, never a panic.
package opencodedb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/internal/sqliteview"
)

// FileName is the database's name in opencode's data directory.
const FileName = "opencode.db"

// Caps on what one read loads.
const (
	// MaxPart caps one todowrite part's data; a longer part is skipped
	// (and said so).
	MaxPart = 4 << 20
	// MaxRead caps the bytes of part data one read loads.
	MaxRead = 64 << 20
	// MaxParts caps the parts of one session a read looks at.
	MaxParts = 200_000
	// MaxSessions caps the sessions one read lists.
	MaxSessions = 1000
	// maxID caps an id (session, message, part) and maxDir a directory;
	// a longer one is not loaded (the row is passed over).
	maxID  = 256
	maxDir = 4096
	// headLen is how much of a part's data is read to tell what it is.
	headLen = 512
)

var (
	// ErrNotOpencode is wrapped by the error for a SQLite database without
	// opencode's tables.
	ErrNotOpencode = errors.New("not an opencode database")
	// errBudget is wrapped by the error for a read over MaxRead.
	errBudget = errors.New("over the read budget")
)

// DataDir returns opencode's data directory: $XDG_DATA_HOME/opencode, or
// ~/.local/share/opencode.
func DataDir(getenv func(string) string, home string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "opencode")
	}
	return filepath.Join(home, ".local", "share", "opencode")
}

// Path returns the database opencode uses, as opencode 1.18.33 picks it:
// $OPENCODE_DB when set (a path, or a name in the data directory; ""
// for ":memory:", which is in no file), else opencode.db in the data
// directory. (A build of a channel other than latest, beta or prod
// names it opencode-CHANNEL.db; the npm releases are latest.)
func Path(getenv func(string) string, home string) string {
	switch db := getenv("OPENCODE_DB"); {
	case db == ":memory:":
		return ""
	case filepath.IsAbs(db):
		return filepath.Clean(db)
	case db != "":
		return filepath.Join(DataDir(getenv, home), db)
	}
	return filepath.Join(DataDir(getenv, home), FileName)
}

// Session is one opencode session.
type Session struct {
	ID        string
	Directory string
	Updated   time.Time
}

// rowKey is what tells whether a part row changed since it was read: its
// time_updated, its data's size and its id. A writer may update a row in
// place (running to completed) within the same millisecond, its
// time_updated and size unchanged: a todowrite call still running is read
// again every time for that.
type rowKey struct {
	updated int64
	size    int64
	id      uint64 // a hash of the part's id: a rowid used again by another part
}

// part is a todowrite part as kept between reads.
type part struct {
	key     rowKey
	id      string
	settled bool   // its call has its result (completed or error)
	msg     string // its message
	created int64
	data    []byte // what the plan reader reads of the part's data
}

// session is what is kept of one session between reads: its rows (plan
// parts in full, the others by their key only), and the plan parser fed
// with its plan parts in order, as far as they are settled (a call still
// running waits for its result).
type session struct {
	rows     map[int64]rowKey // the parts that are no plan, by rowid
	plans    map[int64]*part  // the todowrite parts, by rowid
	p        plan.Parser
	fed      []*part // the plan parts fed to p, in order
	versions []*plan.Version
}

func newSession() *session {
	return &session{rows: map[int64]rowKey{}, plans: map[int64]*part{}}
}

// DB is an opencode database read again and again: what was read of each
// session is kept, so a read parses only the parts that are new. Each
// method is one read, of the database as of its last commit.
type DB struct {
	path     string
	lim      sqliteview.Limits
	sessions map[string]*session
	seed     maphash.Seed
	skipped  []string
}

// Open returns the database at path, which must be a regular file (the
// read gate's checks); reads come later.
func Open(path string) (*DB, error) {
	f, _, err := readgate.Open(path)
	if err != nil {
		return nil, err
	}
	_ = f.Close() // only looked at
	return &DB{path: path, sessions: map[string]*session{}, seed: maphash.MakeSeed()}, nil
}

// Close forgets what was read. (No file is held open between reads.)
func (d *DB) Close() error {
	d.sessions = map[string]*session{}
	return nil
}

// Skipped returns, and forgets, what the reads since the last call passed
// over: todowrite parts over MaxPart, a session's parts past MaxParts.
func (d *DB) Skipped() []string {
	s := d.skipped
	d.skipped = nil
	return s
}

// read runs fn on a connection to the database (see sqliteview.Read: fn
// may run more than once; only its last run counts).
func (d *DB) read(fn func(r *reader) error) error {
	return sqliteview.Read(context.Background(), d.path, d.lim, func(c *sqlite3.Conn) error {
		r := &reader{c: c, budget: MaxRead, seed: d.seed}
		defer r.close()
		return fn(r)
	})
}

// Sessions returns the top-level sessions (not a task's sub-session, not
// archived), the most recently updated first (at most MaxSessions); dir,
// when not empty, keeps only those of that directory.
func (d *DB) Sessions(dir string) ([]Session, error) {
	var out []Session
	err := d.read(func(r *reader) (err error) {
		out, err = r.sessions(dir, time.Time{}, MaxSessions)
		return err
	})
	return out, err
}

// Newest returns the most recently updated top-level session of dir and
// its plan versions (as Versions), in one read; ok is false when dir has
// no session.
func (d *DB) Newest(dir string) (s Session, vs []*plan.Version, ok bool, err error) {
	var got *partsRead
	var ss *session
	err = d.read(func(r *reader) error {
		got = nil
		list, err := r.sessions(dir, time.Time{}, 1)
		if err != nil || len(list) == 0 {
			return err
		}
		s, ss = list[0], d.session(list[0].ID)
		got, err = r.parts(s.ID, ss)
		return err
	})
	if err != nil || got == nil {
		return Session{}, nil, false, err
	}
	vs, err = d.apply(s.ID, ss, got)
	return s, vs, err == nil, err
}

// Live returns the top-level sessions updated since then, the most
// recently updated first (at most MaxSessions), each with its plan
// versions (as Versions; a session without any is left out), in one read.
func (d *DB) Live(since time.Time) ([]Session, [][]*plan.Version, error) {
	var list []Session
	var got []*partsRead
	err := d.read(func(r *reader) (err error) {
		got = got[:0]
		if list, err = r.sessions("", since, MaxSessions); err != nil {
			return err
		}
		for _, s := range list {
			p, err := r.parts(s.ID, d.session(s.ID))
			if err != nil {
				return err
			}
			got = append(got, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var sessions []Session
	var versions [][]*plan.Version
	for i, s := range list {
		vs, err := d.apply(s.ID, d.session(s.ID), got[i])
		if err != nil {
			return nil, nil, err
		}
		if len(vs) > 0 {
			sessions, versions = append(sessions, s), append(versions, vs)
		}
	}
	return sessions, versions, nil
}

func (d *DB) session(id string) *session {
	ss := d.sessions[id]
	if ss == nil {
		ss = newSession()
		d.sessions[id] = ss
	}
	return ss
}

// Versions returns the plan versions of the session id, oldest first: its
// todowrite parts in the order opencode made them, read as its export is
// (plan's opencode reader), each once its call has its result. What was
// read before is kept: a read parses only the parts that are new.
func (d *DB) Versions(id string) ([]*plan.Version, error) {
	ss := d.session(id)
	var got *partsRead
	err := d.read(func(r *reader) (err error) {
		got, err = r.parts(id, ss)
		return err
	})
	if err != nil {
		return nil, err
	}
	return d.apply(id, ss, got)
}

// apply makes what a read found of a session what is kept of it, and
// feeds its plan parts to the parser.
func (d *DB) apply(id string, ss *session, got *partsRead) ([]*plan.Version, error) {
	d.skipped = append(d.skipped, got.skipped...)
	ss.rows, ss.plans = got.rows, got.plans
	plans := make([]*part, 0, len(ss.plans))
	for _, pt := range ss.plans {
		plans = append(plans, pt)
	}
	// Part ids are made in time order: sorted, they are the session's.
	sort.Slice(plans, func(i, j int) bool { return plans[i].id < plans[j].id })
	// The parts fed before must still be there, unchanged (a revert
	// removes parts): else read the plan again from the start.
	same := len(plans) >= len(ss.fed)
	for i := 0; same && i < len(ss.fed); i++ {
		same = plans[i] == ss.fed[i]
	}
	if !same {
		ss.p, ss.fed, ss.versions = plan.Parser{}, nil, nil
	}
	next := plans[len(ss.fed):]
	// A call still running waits, unless a later part shows it is over.
	for len(next) > 0 && !next[len(next)-1].settled {
		next = next[:len(next)-1]
	}
	if len(next) == 0 {
		return ss.versions, nil
	}
	if err := ss.p.Feed(planDoc(id, next), func(e plan.Event) {
		if e.Kind == plan.KindVersion {
			ss.versions = append(ss.versions, e.Version)
		}
	}); err != nil {
		return nil, err
	}
	ss.fed = append(ss.fed, next...)
	return ss.versions, nil
}

// HasSession reports whether the database holds the session id (any:
// a task's sub-session, an archived one).
func (d *DB) HasSession(id string) (bool, error) {
	found := false
	err := d.read(func(r *reader) (err error) {
		found, err = r.hasSession(id)
		return err
	})
	return found, err
}

// Export returns the plan of the session id as one line of what
// `opencode export` prints: its todowrite parts, each with what plan's
// reader reads, in the order opencode made them (a call still running
// included: the reader waits for its result). Replay reads it as an
// export. calls is how many todowrite calls it holds.
func (d *DB) Export(id string) (doc []byte, calls int, err error) {
	var got *partsRead
	err = d.read(func(r *reader) (err error) {
		got, err = r.parts(id, newSession())
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	d.skipped = append(d.skipped, got.skipped...)
	plans := got.sorted()
	return planDoc(id, plans), len(plans), nil
}

// NewestWithPlan is Export of the most recently updated top-level session
// that has a todowrite call (the newest sessions of a database often
// keep no plan), in one read; id is "" when none has, and sessions is how
// many there are.
func (d *DB) NewestWithPlan() (doc []byte, id string, sessions int, err error) {
	var got *partsRead
	err = d.read(func(r *reader) error {
		got, id = nil, ""
		list, err := r.sessions("", time.Time{}, MaxSessions)
		if err != nil {
			return err
		}
		sessions = len(list)
		for _, s := range list {
			p, err := r.parts(s.ID, newSession())
			if err != nil {
				return err
			}
			if len(p.plans) > 0 {
				got, id = p, s.ID
				return nil
			}
		}
		return nil
	})
	if err != nil || got == nil {
		return nil, "", sessions, err
	}
	d.skipped = append(d.skipped, got.skipped...)
	return planDoc(id, got.sorted()), id, sessions, nil
}

// planDoc is an export document of the session with only the parts given:
// {"info":{"id":…},"messages":[{"info":{"id","role","time"},"parts":[…]}]}.
func planDoc(id string, parts []*part) []byte {
	var b bytes.Buffer
	b.WriteString(`{"info":{"id":`)
	writeString(&b, id)
	b.WriteString(`},"messages":[`)
	for i, pt := range parts {
		if i == 0 || pt.msg != parts[i-1].msg {
			if i > 0 {
				b.WriteString(`]},`)
			}
			b.WriteString(`{"info":{"id":`)
			writeString(&b, pt.msg)
			fmt.Fprintf(&b, `,"role":"assistant","time":{"created":%d}},"parts":[`, pt.created)
		} else {
			b.WriteByte(',')
		}
		b.Write(pt.data)
	}
	if len(parts) > 0 {
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// reader is one read's connection, with what it may still load.
type reader struct {
	c      *sqlite3.Conn
	budget int64 // bytes of part data still allowed
	seed   maphash.Seed
	blob   *sqlite3.Blob // open on part.data, moved from row to row
}

func (r *reader) close() {
	if r.blob != nil {
		_ = r.blob.Close()
	}
}

// prepare prepares one query; an error (no such table or column) says
// the database is not opencode's.
func (r *reader) prepare(query string) (*sqlite3.Stmt, error) {
	s, _, err := r.c.Prepare(query)
	if err != nil {
		var se *sqlite3.Error
		if errors.As(err, &se) && se.Code() == sqlite3.ERROR {
			return nil, fmt.Errorf("%w (%s)", ErrNotOpencode, strings.TrimPrefix(se.Error(), "sqlite3: SQL logic error: "))
		}
		return nil, err
	}
	return s, nil
}

// capped is the SQL for col when its bytes are at most n, else NULL:
// octet_length reads the size from the record header, so a longer value
// is never loaded.
//
// A condition on a column's length is written inside a CASE: next to a
// plain "col = ?" SQLite would turn octet_length(col) into the length of
// the parameter (it propagates the constant) and load every value to
// compare it.
func capped(col string, n int) string {
	return fmt.Sprintf("CASE WHEN octet_length(%s) <= %d THEN %s END", col, n, col)
}

// integer is the SQL for col when it is an integer, else 0 (typeof reads
// the type from the record header).
func integer(col string) string {
	return fmt.Sprintf("iif(typeof(%s) = 'integer', %s, 0)", col, col)
}

// sessions lists the top-level sessions updated since then (zero: any),
// of dir when not empty, newest first, at most limit. A row whose id or
// directory is over its cap is passed over.
func (r *reader) sessions(dir string, since time.Time, limit int) ([]Session, error) {
	q := `SELECT ` + capped("id", maxID) + `, ` + capped("directory", maxDir) + `, ` + integer("time_updated") + ` AS t
		FROM session
		WHERE octet_length(parent_id) IS NULL AND octet_length(time_archived) IS NULL
		AND octet_length(id) <= ` + fmt.Sprint(maxID) + ` AND octet_length(directory) <= ` + fmt.Sprint(maxDir)
	if dir != "" {
		q += ` AND CASE WHEN octet_length(directory) = ?1 THEN directory = ?2 END`
	}
	if !since.IsZero() {
		q += ` AND ` + integer("time_updated") + ` >= ?3`
	}
	q += ` ORDER BY t DESC LIMIT ?4`
	s, err := r.prepare(q)
	if err != nil {
		return nil, err
	}
	defer func() { _ = s.Close() }()
	if dir != "" {
		_ = s.BindInt(1, len(dir))
		_ = s.BindText(2, dir)
	}
	if !since.IsZero() {
		_ = s.BindInt64(3, since.UnixMilli())
	}
	_ = s.BindInt(4, limit)
	var out []Session
	for s.Step() {
		if s.ColumnType(0) != sqlite3.TEXT || s.ColumnType(1) != sqlite3.TEXT {
			continue
		}
		out = append(out, Session{ID: s.ColumnText(0), Directory: s.ColumnText(1), Updated: time.UnixMilli(s.ColumnInt64(2))})
	}
	return out, s.Err()
}

// hasSession reports whether the session table holds id.
func (r *reader) hasSession(id string) (bool, error) {
	s, err := r.prepare(`SELECT 1 FROM session WHERE CASE WHEN octet_length(id) = ?1 THEN id = ?2 END LIMIT 1`)
	if err != nil {
		return false, err
	}
	defer func() { _ = s.Close() }()
	_ = s.BindInt(1, len(id))
	_ = s.BindText(2, id)
	found := s.Step()
	return found, s.Err()
}

// partsRead is what one read found of a session's parts.
type partsRead struct {
	rows    map[int64]rowKey
	plans   map[int64]*part
	skipped []string
}

// sorted returns the plan parts in the order of their ids.
func (p *partsRead) sorted() []*part {
	out := make([]*part, 0, len(p.plans))
	for _, pt := range p.plans {
		out = append(out, pt)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// parts reads the parts of session id: each row's key, and the data of the
// rows new or changed since ss was read (only their start, for those that
// are no plan), without changing ss.
func (r *reader) parts(id string, ss *session) (*partsRead, error) {
	cols := `SELECT rowid, ` + capped("id", maxID) + `, ` + capped("message_id", maxID) + `, ` +
		integer("time_created") + `, ` + integer("time_updated") + `, octet_length(data), typeof(data) FROM part `
	// Through opencode's index on session_id: only the session's rows are
	// read. A database without it is scanned, each row's session_id
	// loaded only when its length is the id's.
	s, err := r.prepare(cols + `INDEXED BY part_session_idx WHERE session_id = ?2`)
	if err != nil && !errors.Is(err, ErrNotOpencode) {
		return nil, err
	}
	if err != nil {
		s, err = r.prepare(cols + `WHERE CASE WHEN octet_length(session_id) = ?1 THEN session_id = ?2 END`)
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = s.Close() }()
	_ = s.BindInt(1, len(id))
	_ = s.BindText(2, id)
	got := &partsRead{rows: map[int64]rowKey{}, plans: map[int64]*part{}}
	over, tooMany := 0, 0
	for s.Step() {
		if len(got.rows)+len(got.plans) >= MaxParts {
			tooMany++
			continue
		}
		rowid := s.ColumnInt64(0)
		if s.ColumnType(1) != sqlite3.TEXT || s.ColumnType(6) != sqlite3.TEXT {
			continue // an id over its cap, or data that is no text: no part of opencode's
		}
		partID := s.ColumnText(1)
		key := rowKey{updated: s.ColumnInt64(4), size: s.ColumnInt64(5), id: maphash.String(r.seed, partID)}
		skipped, err := r.row(got, ss, rowid, key, func(pt *part) {
			pt.id, pt.msg, pt.created = partID, s.ColumnText(2), s.ColumnInt64(3)
		})
		if err != nil {
			return nil, err
		}
		if skipped {
			over++
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	if over > 0 {
		got.skipped = append(got.skipped, fmt.Sprintf("opencode session %s: %d todowrite part(s) skipped: over %d MiB", id, over, MaxPart>>20))
	}
	if tooMany > 0 {
		got.skipped = append(got.skipped, fmt.Sprintf("opencode session %s: %d part(s) past the first %d not read", id, tooMany, MaxParts))
	}
	return got, nil
}

// row takes the part row rowid into got: kept from ss when its key says
// it has not changed (and it is no todowrite call still running), else
// read (its ids and times filled in by fill); skipped is set for a
// todowrite call too long to read.
func (r *reader) row(got *partsRead, ss *session, rowid int64, key rowKey, fill func(*part)) (skipped bool, err error) {
	if k, ok := ss.rows[rowid]; ok && k == key {
		got.rows[rowid] = key // unchanged, and no plan
		return false, nil
	}
	if pt, ok := ss.plans[rowid]; ok && pt.key == key && pt.settled {
		got.plans[rowid] = pt // unchanged
		return false, nil
	}
	pt, err := r.readPart(rowid, key)
	switch {
	case err != nil:
		return false, err
	case pt == nil:
		got.rows[rowid] = key
	case pt.data == nil: // a todowrite call over MaxPart
		got.rows[rowid] = key
		return true, nil
	default:
		fill(pt)
		if old, ok := ss.plans[rowid]; ok && old.same(pt) {
			pt = old // unchanged for the plan: keep the part fed before
			pt.key = key
		}
		got.plans[rowid] = pt
	}
	return false, nil
}

// readPart reads the data of one part row: its start, and when that does
// not say it is no todowrite call, all of it (at most MaxPart bytes). It
// returns nil for a part that is no todowrite call, and a part without
// data for one over MaxPart.
func (r *reader) readPart(rowid int64, key rowKey) (*part, error) {
	if err := r.seek(rowid); err != nil {
		return nil, err
	}
	n := min(key.size, headLen)
	head, err := r.take(n)
	if err != nil {
		return nil, err
	}
	if notPlan(head) {
		return nil, nil
	}
	if key.size > MaxPart {
		return &part{key: key}, nil // a todowrite call (or what may be one) too long to read
	}
	rest, err := r.take(key.size - n)
	if err != nil {
		return nil, err
	}
	data := make([]byte, 0, len(head)+len(rest))
	data = append(append(data, head...), rest...)
	slimmed, settled, ok := planPart(data)
	if !ok {
		return nil, nil
	}
	return &part{key: key, settled: settled, data: slimmed}, nil
}

// planPart reads a part's data: ok when it is a todowrite call, with only
// what the plan reader reads of it (slimmed: not the output, which repeats
// the list), settled when its state is completed or error.
func planPart(data []byte) (slimmed []byte, settled, ok bool) {
	partFields := [4]string{"type", "tool", "callID", "state"}
	stateFields := [3]string{"status", "input", "time"}
	var f [4]string // type, tool, callID, state: their raw values
	d := jsonscan.New(string(data))
	if d.PeekKind() != jsonscan.KindObject {
		return nil, false, false
	}
	err := d.Object(func(key string) error {
		i := slices.Index(partFields[:], key)
		if i < 0 || f[i] != "" { // another field, or one repeated: the first counts
			return d.Skip()
		}
		raw, err := d.Raw()
		f[i] = raw
		return err
	})
	if err != nil || d.End() != nil || rawString(f[0]) != "tool" || rawString(f[1]) != "todowrite" {
		return nil, false, false
	}
	var st [3]string // the state's status, input and time
	if strings.HasPrefix(f[3], "{") {
		d := jsonscan.NewValid(f[3]) // checked whole above
		_ = d.Object(func(key string) error {
			i := slices.Index(stateFields[:], key)
			if i < 0 || st[i] != "" {
				return d.Skip()
			}
			raw, err := d.Raw()
			st[i] = raw
			return err
		})
	}
	status := rawString(st[0])
	return slim(partFields, f, stateFields, st), status == "completed" || status == "error", true
}

// rawString is the string the raw JSON value raw decodes to, "" when it is
// no string.
func rawString(raw string) string {
	if !strings.HasPrefix(raw, `"`) {
		return ""
	}
	s, _ := jsonscan.New(raw).String()
	return s
}

// slim is a todowrite part's data with only what the plan reader reads:
// type, tool, callID and the state's status, input and time, each value as
// it was written (f and st hold the raw values of partFields and
// stateFields, "" when absent).
func slim(partFields, f [4]string, stateFields, st [3]string) []byte {
	out := []byte{'{'}
	field := func(key, raw string) {
		if raw == "" {
			return
		}
		if out[len(out)-1] != '{' {
			out = append(out, ',')
		}
		out = append(append(append(out, '"'), key...), `":`...)
		out = append(out, raw...)
	}
	for i, k := range partFields[:3] {
		field(k, f[i])
	}
	if f[3] != "" {
		field("state", "{")
		for i, k := range stateFields {
			field(k, st[i])
		}
		out = append(out, '}')
	}
	return append(out, '}')
}

// seek puts the blob handle on part.data of row rowid.
func (r *reader) seek(rowid int64) error {
	if r.blob != nil {
		if err := r.blob.Reopen(rowid); err == nil {
			return nil
		}
		// A handle that failed to move is aborted: open another.
		_ = r.blob.Close()
		r.blob = nil
	}
	b, err := r.c.OpenBlob("main", "part", "data", rowid, false)
	if err != nil {
		return err
	}
	r.blob = b
	return nil
}

// take reads the next n bytes of the blob, within the read's budget.
func (r *reader) take(n int64) ([]byte, error) {
	if n > r.budget {
		return nil, fmt.Errorf("%w: %w (more than %d MiB of opencode parts in one read)", readgate.ErrTooLarge, errBudget, MaxRead>>20)
	}
	r.budget -= n
	b := make([]byte, n)
	if _, err := io.ReadFull(r.blob, b); err != nil {
		return nil, err
	}
	return b, nil
}

// same reports whether n, the row read again, is p for the plan.
func (p *part) same(n *part) bool {
	return p.id == n.id && p.settled == n.settled && p.msg == n.msg &&
		p.created == n.created && bytes.Equal(p.data, n.data)
}

// notPlan reports whether the start of a part's data says it is no
// todowrite call: its type is not "tool", or its tool is another. (The
// data starts with the part's type, as opencode writes it.)
func notPlan(head []byte) bool {
	if typ, ok := field(head, `"type":"`); ok && typ != "tool" {
		return true
	}
	if tool, ok := field(head, `"tool":"`); ok && tool != "todowrite" {
		return true
	}
	return false
}

// field finds key in head and returns the plain string after it (up to
// its closing quote); ok is false when it is not there whole.
func field(head []byte, key string) (string, bool) {
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return "", false
	}
	rest := head[i+len(key):]
	j := bytes.IndexAny(rest, `"\`)
	if j < 0 || rest[j] != '"' {
		return "", false
	}
	return string(rest[:j]), true
}

func writeString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}

// Problem says in a few words why the database at path could not be read
// (err, from Open or a read): the file's name, not its path, and what went
// wrong first ("opencode.db damaged: database disk image is malformed"),
// so that it fits a header. It is not neutralised: a view draws it.
func Problem(path string, err error) string {
	why := readgate.Reason(err)
	name := filepath.Base(path)
	for _, k := range []struct {
		err  error
		what string
	}{
		{sqliteview.ErrCorrupt, " damaged: "},
		{ErrNotOpencode, " has no opencode tables: "},
		{sqliteview.ErrChanging, " busy: "},
		{sqliteview.ErrTimeout, " too slow: "},
		{readgate.ErrTooLarge, " too large: "},
		{readgate.ErrNotRegular, " refused: "},
	} {
		if !errors.Is(err, k.err) {
			continue
		}
		// "not a valid SQLite database (database disk image is
		// malformed)": what is in the parentheses.
		detail := strings.TrimSpace(strings.TrimPrefix(why, k.err.Error()))
		if inner, ok := strings.CutPrefix(detail, "("); ok && strings.HasSuffix(inner, ")") {
			detail = strings.TrimSuffix(inner, ")")
		}
		if detail == "" {
			detail = k.err.Error()
		}
		return name + k.what + detail
	}
	return name + " not read: " + why
}
