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

// Session is one opencode session.
type Session struct {
	ID        string
	Directory string
	Updated   time.Time
}

// part is what is kept of one part row between reads.
type part struct {
	updated int64
	plan    bool   // a todowrite tool part
	msg     string // its message
	created int64
	data    []byte // plan parts: the JSON data
}

// DB is an opencode database held open between reads.
type DB struct {
	f     *sqlitefile.File
	s     *sqlitefile.Snapshot
	parts map[string]map[int64]*part // session -> rowid -> part
}

// Open opens the database at path (through the reading gate).
func Open(path string) (*DB, error) {
	f, err := sqlitefile.Open(path)
	if err != nil {
		return nil, err
	}
	return &DB{f: f, parts: map[string]map[int64]*part{}}, nil
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
// (plan's opencode reader; a call still running counts).
func (d *DB) Versions(id string) ([]*plan.Version, error) {
	doc, err := d.planDoc(id)
	if err != nil {
		return nil, err
	}
	var p plan.Parser
	var vs []*plan.Version
	emit := func(e plan.Event) {
		if e.Kind == plan.KindVersion {
			vs = append(vs, e.Version)
		}
	}
	if err := p.Feed(doc, emit); err != nil {
		return nil, err
	}
	p.Flush(emit)
	return vs, nil
}

// planDoc builds the session's export document with only its plan parts:
// {"info":{"id":…},"messages":[{"info":{"id","role","time"},"parts":[…]}]}.
func (d *DB) planDoc(id string) ([]byte, error) {
	t, c, err := d.table("part", "id", "message_id", "session_id", "time_created", "time_updated", "data")
	if err != nil {
		return nil, err
	}
	cache := d.parts[id]
	if cache == nil {
		cache = map[int64]*part{}
		d.parts[id] = cache
	}
	seen := map[int64]bool{}
	var ids []string
	byID := map[string]*part{}
	visit := func(rowid int64, r *sqlitefile.Record) error {
		if r.String(c[2]) != id {
			return r.Err()
		}
		seen[rowid] = true
		updated, _ := r.Int(c[4])
		pt := cache[rowid]
		if pt == nil || pt.updated != updated {
			pt = readPart(r, c, updated)
			if err := r.Err(); err != nil {
				return err
			}
			cache[rowid] = pt
		}
		if pt.plan {
			pid := r.String(c[0])
			ids = append(ids, pid)
			byID[pid] = pt
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
	for rowid := range cache {
		if !seen[rowid] {
			delete(cache, rowid)
		}
	}
	// Part ids are made in time order: sorted, they are the session's.
	sort.Strings(ids)
	var b bytes.Buffer
	b.WriteString(`{"info":{"id":`)
	writeString(&b, id)
	b.WriteString(`},"messages":[`)
	msg := ""
	for i, pid := range ids {
		pt := byID[pid]
		if pt.msg != msg || i == 0 {
			if i > 0 {
				b.WriteString(`]},`)
			}
			msg = pt.msg
			b.WriteString(`{"info":{"id":`)
			writeString(&b, msg)
			fmt.Fprintf(&b, `,"role":"assistant","time":{"created":%d}},"parts":[`, pt.created)
		} else {
			b.WriteByte(',')
		}
		b.Write(pt.data)
	}
	if len(ids) > 0 {
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return b.Bytes(), nil
}

// readPart reads what is kept of a part row: whether it is a todowrite
// call, from the start of its data when that says (so the overflow pages
// of a long output are not read), and then its data.
func readPart(r *sqlitefile.Record, c []int, updated int64) *part {
	pt := &part{updated: updated}
	if head, whole := r.Prefix(c[5], 512); whole || !notPlan(head) {
		data := r.Bytes(c[5])
		var p fastjson.Parser
		v, err := p.ParseBytes(data)
		if err != nil || v.Type() != fastjson.TypeObject ||
			string(v.GetStringBytes("type")) != "tool" || string(v.GetStringBytes("tool")) != "todowrite" {
			return pt
		}
		pt.plan = true
		pt.data = append([]byte(nil), data...)
		pt.msg = r.String(c[1])
		pt.created, _ = r.Int(c[3])
	}
	return pt
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
