package follow

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fsnotify/fsnotify"

	"github.com/todo-shell/todo-shell/internal/opencodedb"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/readgate"
)

// Opencode follows the newest opencode session of a project directory in
// opencode's database (opencode.db, SQLite in WAL mode): its todowrite
// plan, read with internal/opencodedb. It watches the database's
// directory with fsnotify for writes to the database and its -wal file
// (no polling): each write is read at once, the database as of its last
// commit. A newer session of the directory is followed when it starts.
type Opencode struct {
	DB  string // the database: <opencode data dir>/opencode.db
	Dir string // the project directory, absolute
}

func (o Opencode) root() string                   { return filepath.Dir(o.DB) }
func (o Opencode) pick() (string, error)          { return o.DB, nil }
func (o Opencode) isCandidate(path string) bool   { return path == o.DB }
func (o Opencode) file(c string) (string, string) { return c, filepath.Dir(c) }
func (o Opencode) name(id string) string {
	if id == "" {
		return ""
	}
	return "opencode session " + id
}
func (o Opencode) journal() bool                        { return false }
func (o Opencode) newest() bool                         { return false }
func (o Opencode) better(string, string) (bool, string) { return false, "" }

// ocState is one Follow's (or Once's) reading of the database.
type ocState struct {
	o       Opencode
	db      *opencodedb.DB
	info    os.FileInfo // the database file open
	cur     string      // the session followed
	sent    int         // its versions sent
	last    *plan.Version
	refused string // why the last read failed, once said
}

func (s *ocState) close() {
	if s.db != nil {
		_ = s.db.Close()
		s.db = nil
	}
}

// read reads the database as it is now and returns the update to send,
// if any (ok false: nothing new). A read that fails (a damaged file, one
// that changed during every try) is said once, in a warning beside the
// last good version, which stays on screen.
func (s *ocState) read() (u Update, ok bool) {
	gone, err := s.open()
	if gone {
		return Update{}, false
	}
	if err != nil {
		return s.warn(err)
	}
	sess, vs, found, err := s.db.Newest(s.o.Dir)
	if err != nil {
		return s.warn(err)
	}
	recovered := s.refused != ""
	s.refused = ""
	if !found {
		if recovered {
			return Update{Source: s.o.name(s.cur), Version: s.last, Recovered: true}, true
		}
		return Update{}, false
	}
	note := ""
	if id := sess.ID; id != s.cur {
		if s.cur != "" {
			note = "switched from " + s.o.name(s.cur) + " to " + s.o.name(id) + ": a newer session"
		}
		s.cur, s.sent, s.last = id, 0, nil
	}
	u = Update{Source: s.o.name(s.cur), Note: note, Recovered: recovered}
	u.Warnings = append(u.Warnings, s.db.Skipped()...)
	switch {
	case len(vs) > s.sent:
		u.New = vs[s.sent:]
		if len(u.New) > MaxBatch {
			u.New = u.New[len(u.New)-MaxBatch:]
		}
	case len(vs) > 0 && !plan.SameList(vs[len(vs)-1], s.last):
		u.New = vs[len(vs)-1:] // the newest changed (a call that was running failed)
	case note == "" && s.sent > 0 && len(u.Warnings) == 0 && !recovered:
		return Update{}, false
	}
	s.sent = len(vs)
	if len(vs) > 0 {
		s.last = vs[len(vs)-1]
	}
	u.Version = s.last
	return u, true
}

// open opens the database (anew when the file was replaced); gone is true
// when there is no file.
func (s *ocState) open() (gone bool, err error) {
	fi, err := os.Lstat(s.o.DB)
	if err != nil {
		s.close()
		return true, nil
	}
	if s.db != nil && !os.SameFile(fi, s.info) {
		s.close() // replaced: what was read of the old one is no use
	}
	if s.db == nil {
		db, err := opencodedb.Open(s.o.DB)
		if err != nil {
			return false, err
		}
		s.db, s.info = db, fi
	}
	return false, nil
}

// warn makes an update of a read that failed, once for each reason (a
// damaged file, one checkpointed during every try): the last good version
// stays, with the reason beside it. The next change reads again.
func (s *ocState) warn(err error) (Update, bool) {
	why := readgate.Reason(err)
	if errors.Is(err, fs.ErrNotExist) || why == s.refused {
		return Update{}, false
	}
	s.refused = why
	say := opencodedb.Problem(s.o.DB, err)
	return Update{Source: s.o.name(s.cur), Version: s.last, Warnings: []string{say}}, true
}

func (o Opencode) once() (Update, error) {
	s := &ocState{o: o}
	defer s.close()
	u, _ := s.read()
	if s.refused != "" {
		// The one read failed: there is no version to show beside it.
		return Update{}, fmt.Errorf("%s not read: %s", o.DB, s.refused)
	}
	if len(u.New) > 2 {
		u.New = u.New[len(u.New)-2:]
	}
	return u, nil
}

func (o Opencode) follow(ctx context.Context, send func(Update)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer func() { _ = w.Close() }()
	d := &dbWatch{w: w, dir: filepath.Dir(o.DB)}
	d.watch()
	s := &ocState{o: o}
	defer s.close()
	if u, ok := s.read(); ok {
		send(u)
	} else {
		send(Update{Source: s.o.name(s.cur)})
	}
	return watchEvents(ctx, w, func(ev fsnotify.Event) error {
		relevant := o.isDB(ev.Name)
		if d.watching != d.dir && ev.Has(fsnotify.Create) {
			d.watch()
			relevant = true
		}
		if relevant = o.drainEvents(w) || relevant; relevant {
			if u, ok := s.read(); ok {
				send(u)
			}
		}
		return nil
	})
}

// isDB reports whether name is the database, its WAL or its rollback
// journal (a read waits while one holds a commit: its removal reads again).
func (o Opencode) isDB(name string) bool {
	return name == o.DB || name == o.DB+"-wal" || name == o.DB+"-journal"
}

// drainEvents takes the events already queued on w, one read for a burst
// of writes (a transaction writes many frames), and reports whether one
// names the database or its WAL.
func (o Opencode) drainEvents(w *fsnotify.Watcher) bool {
	relevant := false
	for {
		select {
		case ev := <-w.Events:
			relevant = relevant || o.isDB(ev.Name)
		default:
			return relevant
		}
	}
}

// dbWatch watches the database's directory or, until it exists, the
// nearest directory above it.
type dbWatch struct {
	w        *fsnotify.Watcher
	dir      string // the database's directory
	watching string // the directory watched now; "" for none
}

// watch watches the nearest existing directory from dir up, in place of
// the one watched before.
func (d *dbWatch) watch() {
	for dir := d.dir; ; dir = filepath.Dir(dir) {
		if err := d.w.Add(dir); err == nil {
			if d.watching != "" && d.watching != dir {
				_ = d.w.Remove(d.watching)
			}
			d.watching = dir
			return
		}
		if dir == filepath.Dir(dir) {
			return
		}
	}
}
