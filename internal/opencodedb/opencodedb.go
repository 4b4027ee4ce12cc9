// Package opencodedb reads the plans of opencode 1.x sessions from the
// database opencode keeps them in (~/.local/share/opencode/opencode.db,
// SQLite in WAL mode), live, while opencode writes it: through
// internal/sqlitefile, read-only, without SQLite and without a lock.
//
// The tables, as opencode's drizzle schema declares them
// (packages/opencode/src/session/session.sql.ts in github.com/sst/opencode):
// session (id, directory, parent_id, time_updated, time_archived, …),
// message (id, session_id, data JSON) and part (id, message_id, session_id,
// time_created, time_updated, data JSON: a part as `opencode export`
// prints it, less its ids). The plan is the session's todowrite tool parts,
// each a version as in the export (plan's opencode reader reads them); the
// todo table holds only the present list, so it is not read. A session's
// parts are found through the part_session_idx index (session_id), so a
// read costs the pages of one session, not the database.
package opencodedb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"path/filepath"
	"sort"
	"time"

	"github.com/valyala/fastjson"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/sqlitefile"
)

// FileName is the database's name in opencode's data directory.
const FileName = "opencode.db"

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

// part is what is kept of one part row between reads. A row is read
// again when its time_updated, its size or the bytes of it on its own
// page differ, or while it is a todowrite call still running: a writer
// may update the row in place (running to completed) within the same
// millisecond, its time_updated unchanged.
type part struct {
	id      string
	updated int64
	size    int    // the record's size
	sum     uint64 // a hash of the record's bytes on its own page
	plan    bool   // a todowrite tool part
	settled bool   // its call has its result (completed or error)
	msg     string // its message
	created int64
	data    []byte // plan parts: the JSON data
}

// session is what is kept of one session between reads: its parts, and
// the plan parser fed with its plan parts in order, as far as they are
// settled (a call still running waits for its result).
type session struct {
	parts    map[int64]*part // by rowid
	p        plan.Parser
	fed      []*part // the plan parts fed to p, in order
	versions []*plan.Version
}

// DB is an opencode database held open between reads.
type DB struct {
	f        *sqlitefile.File
	s        *sqlitefile.Snapshot
	sessions map[string]*session
	seed     maphash.Seed // for part.sum
}

// Open opens the database at path (through the reading gate).
func Open(path string) (*DB, error) {
	f, err := sqlitefile.Open(path)
	if err != nil {
		return nil, err
	}
	return &DB{f: f, sessions: map[string]*session{}, seed: maphash.MakeSeed()}, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.f.Close() }

// Refresh takes the database as it is now for the reads that follow.
func (d *DB) Refresh() error {
	s, err := d.f.Read()
	if err != nil {
		return err
	}
	d.s = s
	return nil
}

func (d *DB) table(name string, cols ...string) (*sqlitefile.Table, []int, error) {
	if d.s == nil {
		if err := d.Refresh(); err != nil {
			return nil, nil, err
		}
	}
	t, ok := d.s.Table(name)
	if !ok {
		return nil, nil, fmt.Errorf("%w: no %s table (not an opencode database?)", sqlitefile.ErrCorrupt, name)
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		if idx[i] = t.Col(c); idx[i] < 0 {
			return nil, nil, fmt.Errorf("%w: the %s table has no column %s", sqlitefile.ErrCorrupt, name, c)
		}
	}
	return t, idx, nil
}

// Sessions returns the top-level sessions (not a task's sub-session, not
// archived), the most recently updated first; dir, when not empty, keeps
// only those of that directory.
func (d *DB) Sessions(dir string) ([]Session, error) {
	t, c, err := d.table("session", "id", "directory", "time_updated")
	if err != nil {
		return nil, err
	}
	parent, archived := t.Col("parent_id"), t.Col("time_archived")
	var out []Session
	err = t.Scan(func(_ int64, r *sqlitefile.Record) error {
		if !r.IsNull(parent) || !r.IsNull(archived) {
			return r.Err()
		}
		directory := r.String(c[1])
		if dir != "" && directory != dir {
			return r.Err()
		}
		ms, _ := r.Int(c[2])
		out = append(out, Session{ID: r.String(c[0]), Directory: directory, Updated: time.UnixMilli(ms)})
		return r.Err()
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, err
}

// Versions returns the plan versions of the session id, oldest first: its
// todowrite parts in the order opencode made them, read as its export is
// (plan's opencode reader), each once its call has its result. What was
// read before is kept: a read parses only the parts that are new.
func (d *DB) Versions(id string) ([]*plan.Version, error) {
	ss := d.sessions[id]
	if ss == nil {
		ss = &session{parts: map[int64]*part{}}
		d.sessions[id] = ss
	}
	plans, err := d.planParts(id, ss)
	if err != nil {
		return nil, err
	}
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
	t, c, err := d.table("session", "id")
	if err != nil {
		return false, err
	}
	found := false
	err = t.Scan(func(_ int64, r *sqlitefile.Record) error {
		found = found || r.String(c[0]) == id
		return r.Err()
	})
	return found, err
}

// Export returns the plan of the session id as one line of what
// `opencode export` prints: its todowrite parts, each with what plan's
// reader reads, in the order opencode made them (a call still running
// included: the reader waits for its result). Replay reads it as an
// export. calls is how many todowrite calls it holds.
func (d *DB) Export(id string) (doc []byte, calls int, err error) {
	plans, err := d.planParts(id, &session{parts: map[int64]*part{}})
	if err != nil {
		return nil, 0, err
	}
	return planDoc(id, plans), len(plans), nil
}

// planParts reads the session's parts (those not changed since the last
// read are kept) and returns its plan parts in order.
func (d *DB) planParts(id string, ss *session) ([]*part, error) {
	t, c, err := d.table("part", "id", "message_id", "session_id", "time_created", "time_updated", "data")
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var plans []*part
	visit := func(rowid int64, r *sqlitefile.Record) error {
		if r.String(c[2]) != id {
			return r.Err()
		}
		seen[rowid] = true
		updated, _ := r.Int(c[4])
		size, sum := r.Size(), maphash.Bytes(d.seed, r.OnPage())
		pt := ss.parts[rowid]
		if pt == nil || pt.updated != updated || pt.size != size || pt.sum != sum || (pt.plan && !pt.settled) {
			n := readPart(r, c, updated)
			if err := r.Err(); err != nil {
				return err
			}
			n.size, n.sum = size, sum
			if pt != nil && pt.same(n) {
				// Unchanged for the plan: keep the part fed before.
				pt.updated, pt.size, pt.sum = updated, size, sum
			} else {
				pt = n
				ss.parts[rowid] = pt
			}
		}
		if pt.plan {
			plans = append(plans, pt)
		}
		return r.Err()
	}
	if root := d.s.Index("part_session_idx"); root != 0 {
		err = d.s.IndexEqual(root, id, func(rowid int64) error {
			_, err := t.Row(rowid, func(r *sqlitefile.Record) error { return visit(rowid, r) })
			return err
		})
	} else {
		err = t.Scan(visit)
	}
	if err != nil {
		return nil, err
	}
	for rowid := range ss.parts {
		if !seen[rowid] {
			delete(ss.parts, rowid)
		}
	}
	// Part ids are made in time order: sorted, they are the session's.
	sort.Slice(plans, func(i, j int) bool { return plans[i].id < plans[j].id })
	return plans, nil
}

// same reports whether n, the row read again, is p for the plan.
func (p *part) same(n *part) bool {
	return p.id == n.id && p.plan == n.plan && p.settled == n.settled && p.msg == n.msg &&
		p.created == n.created && bytes.Equal(p.data, n.data)
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

// readPart reads what is kept of a part row: whether it is a todowrite
// call, from the start of its data when that says (so the overflow pages
// of a long output are not read), and then its data.
func readPart(r *sqlitefile.Record, c []int, updated int64) *part {
	pt := &part{id: r.String(c[0]), updated: updated}
	if head, whole := r.Prefix(c[5], 512); whole || !notPlan(head) {
		data := r.Bytes(c[5])
		var p fastjson.Parser
		v, err := p.ParseBytes(data)
		if err != nil || v.Type() != fastjson.TypeObject ||
			string(v.GetStringBytes("type")) != "tool" || string(v.GetStringBytes("tool")) != "todowrite" {
			return pt
		}
		pt.plan = true
		st := string(v.GetStringBytes("state", "status"))
		pt.settled = st == "completed" || st == "error"
		// Only what the plan reader reads: not the output, which repeats
		// the list.
		pt.data = slim(v)
		pt.msg = r.String(c[1])
		pt.created, _ = r.Int(c[3])
	}
	return pt
}

// slim is a todowrite part's data with only what the plan reader reads:
// type, tool, callID and the state's status, input and time.
func slim(v *fastjson.Value) []byte {
	var a fastjson.Arena
	o := a.NewObject()
	for _, k := range []string{"type", "tool", "callID"} {
		if x := v.Get(k); x != nil {
			o.Set(k, x)
		}
	}
	if st := v.Get("state"); st != nil {
		so := a.NewObject()
		for _, k := range []string{"status", "input", "time"} {
			if x := st.Get(k); x != nil {
				so.Set(k, x)
			}
		}
		o.Set("state", so)
	}
	return o.MarshalTo(nil)
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
