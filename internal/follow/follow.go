// Package follow watches a live session on disk and reports each new
// version of its plan: a todo-shell session's todos.jsonl, or the newest
// Claude Code transcript of a project. It uses fsnotify (inotify on Linux),
// so it sleeps in the kernel until a file changes: no polling, no CPU while
// nothing happens. Only whole lines are read — a line still being written
// waits for its newline — so it never sees a half-written record. Files are
// opened through the reading gate (no symlink, no FIFO, regular files only)
// and a line longer than readgate.MaxLine is skipped with a warning, so
// memory is bounded by that cap and by a batch of versions, never by the
// file.
package follow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// Update is the state of the followed plan after a change. Its texts (the
// source's name, the note, the warnings, the items) are the files' own,
// untrusted: a view neutralises them where it draws them.
type Update struct {
	Source  string        // the session id or transcript file followed, as named on disk
	Version *plan.Version // the newest version; nil while there is none
	// New are the versions read since the last update, oldest first: at
	// most MaxBatch of them (a long file comes in several updates).
	New []*plan.Version
	// Note, when not empty, is one line saying why the source changed.
	Note string
	// Warnings name what was skipped since the last update: a file that
	// failed the reading gate, a line too long to read.
	Warnings []string
	// NoPlan is set when the followed transcript says its session has no
	// plan tool (a Claude Code 2.1 session without its plan tools).
	NoPlan bool
	// Recovered is set when the source was read again after a read that
	// failed: a warning about that failure no longer holds.
	Recovered bool
}

// MaxBatch is the most versions one Update carries in New.
const MaxBatch = 256

// Target says what to follow.
type Target interface {
	// root is the directory whose children are the candidates.
	root() string
	// pick returns the best candidate under root ("" for none).
	pick() (string, error)
	// isCandidate reports whether a path created under root is one.
	isCandidate(path string) bool
	// better reports whether the candidate next should replace cur, and
	// why, in a few words ("" for no reason worth saying).
	better(next, cur string) (bool, string)
	// file is the JSON-lines file of a candidate, and the directory to
	// watch for its changes.
	file(candidate string) (file, dir string)
	// journal reports whether the file is a todos.jsonl, whose newest
	// version is its last good line.
	journal() bool
	// newest reports whether following starts from the newest versions
	// instead of every version on disk.
	newest() bool
	// name is how a candidate is shown.
	name(candidate string) string
}

// Session follows todo-shell sessions in Dir (the offload directory): the
// one named ID, or with ID empty the most recent live session that has a
// plan (or, when none has, the most recent session), moving to another
// only when it is better: a live session with a plan is never left for one
// without a plan.
type Session struct {
	Dir string
	ID  string
	// Newest starts following from the newest version on disk (read from
	// the end of todos.jsonl) instead of reporting every version first: for
	// a view that shows only the newest.
	Newest bool
}

func (s Session) root() string { return s.Dir }

// rank orders sessions for watch: a live one with a plan first, then one
// with a plan, then a live one, then any.
func rank(path string) (int, time.Time) {
	info, ok := session.Stat(path)
	if !ok {
		return -1, time.Time{}
	}
	r := 0
	if info.HasPlan() {
		r += 2
	}
	if info.Live {
		r++
	}
	return r, info.LastChange
}

var rankWords = []string{"", "live", "with a plan", "live, with a plan"}

func (s Session) pick() (string, error) {
	if s.ID != "" {
		return filepath.Join(s.Dir, s.ID), nil
	}
	var best string
	bestRank, bestTime := -1, time.Time{}
	err := eachEntry(s.Dir, func(e fs.DirEntry) {
		p := filepath.Join(s.Dir, e.Name())
		if !e.IsDir() || !s.isCandidate(p) {
			return
		}
		r, t := rank(p)
		if r > bestRank || (r == bestRank && t.After(bestTime)) {
			best, bestRank, bestTime = p, r, t
		}
	})
	return best, err
}

// eachEntry calls f with each entry of dir, the first
// readgate.MaxDirEntries of a directory that holds more: the best among
// them is followed (a directory planted with millions of entries costs no
// more than that).
func eachEntry(dir string, f func(fs.DirEntry)) error {
	err := readgate.EachEntry(dir, readgate.MaxDirEntries, func(e fs.DirEntry) bool { f(e); return true })
	if errors.Is(err, readgate.ErrBudget) {
		return nil
	}
	return err
}

func (s Session) isCandidate(path string) bool {
	if s.ID != "" {
		return filepath.Base(path) == s.ID
	}
	if offload.CheckID("", filepath.Base(path)) != nil {
		return false
	}
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}

func (s Session) better(next, cur string) (bool, string) {
	if s.ID != "" {
		return next == filepath.Join(s.Dir, s.ID) && cur == "", ""
	}
	if cur == "" {
		return true, ""
	}
	nr, nt := rank(next)
	cr, ct := rank(cur)
	if nr < 0 || nr < cr || (nr == cr && !nt.After(ct)) {
		return false, ""
	}
	if nr == cr {
		why := "a newer session"
		if w := rankWords[nr]; w != "" {
			why += " (" + w + ")"
		}
		return true, why
	}
	// It ranks higher: say what it has that cur lacks.
	why := filepath.Base(next) + " is " + rankWords[nr]
	if cr&1 == 0 && nr&1 == 1 {
		why = filepath.Base(cur) + " has ended; " + why
	}
	return true, why
}

// candidates lists the session directories under Dir, for watching them
// all: an older session that gets a plan, or is picked up again, can then
// be followed. With an ID there is only that one.
func (s Session) candidates() []string {
	if s.ID != "" {
		return nil
	}
	var out []string
	_ = eachEntry(s.Dir, func(e fs.DirEntry) {
		p := filepath.Join(s.Dir, e.Name())
		if e.IsDir() && s.isCandidate(p) {
			out = append(out, p)
		}
	})
	return out
}

// ended reports whether a change to path, in the directory of the
// candidate followed, may have lowered its rank: its lock was released
// (the session ended) or taken again.
func (s Session) ended(path string) bool {
	return s.ID == "" && filepath.Base(path) == session.LockFile
}

func (s Session) file(c string) (string, string) { return filepath.Join(c, session.JournalFile), c }
func (s Session) journal() bool                  { return true }
func (s Session) newest() bool                   { return s.Newest }
func (s Session) name(c string) string           { return filepath.Base(c) }

// Claude follows the newest Claude Code transcript in a project directory
// (~/.claude/projects/<mangled dir>/<uuid>.jsonl), and each newer one that
// starts. Sub-agent transcripts (agent-*.jsonl) are not followed.
type Claude struct {
	ProjectDir string
}

func (c Claude) root() string { return c.ProjectDir }

func (c Claude) pick() (string, error) { return newestFile(c.ProjectDir, c.isCandidate) }

func (c Claude) isCandidate(path string) bool {
	b := filepath.Base(path)
	return strings.HasSuffix(b, ".jsonl") && !strings.HasPrefix(b, "agent-")
}

func (c Claude) better(next, cur string) (bool, string) {
	if cur == "" {
		return true, ""
	}
	return next != cur, "a newer transcript"
}

func (c Claude) file(cand string) (string, string) { return cand, filepath.Dir(cand) }
func (c Claude) journal() bool                     { return false }
func (c Claude) newest() bool                      { return false }
func (c Claude) name(cand string) string           { return filepath.Base(cand) }

// ClaudeProjectDir returns where Claude Code keeps the transcripts of
// sessions started in dir: root/<dir with every character that is not an
// ASCII letter or digit turned into "-">. ("/home/me/my_app.v2" becomes
// "-home-me-my-app-v2".)
func ClaudeProjectDir(root, dir string) string {
	// Claude Code replaces each UTF-16 code unit that is not [A-Za-z0-9]
	// (a JavaScript regular expression), so a character outside the BMP
	// becomes two dashes.
	var b strings.Builder
	for _, r := range dir {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	return filepath.Join(root, b.String())
}

// newestFile returns the file in dir, accepted by ok, changed last ("" for
// none).
func newestFile(dir string, ok func(path string) bool) (string, error) {
	var best string
	var bestTime time.Time
	err := eachEntry(dir, func(e fs.DirEntry) {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() || !ok(p) {
			return
		}
		if t := newest(p); best == "" || t.After(bestTime) {
			best, bestTime = p, t
		}
	})
	return best, err
}

// newest returns the latest modification time of the paths that exist.
func newest(paths ...string) time.Time {
	var t time.Time
	for _, p := range paths {
		if fi, err := os.Lstat(p); err == nil && fi.ModTime().After(t) {
			t = fi.ModTime()
		}
	}
	return t
}

// tail reads the whole lines added to a file since the last read.
type tail struct {
	path    string
	f       *os.File
	off     int64
	partial []byte
	long    bool   // the line being read is over the cap: skipped to its end
	refused string // why the gate refused the file, once said
	p       plan.Parser
	buf     []byte
}

// read feeds the new whole lines to the parser and calls emit for each
// version they complete, warn for what it skips. A file replaced or cut
// shorter is read again from the start; one that fails the gate is not
// read (warn says why, once).
func (t *tail) read(emit func(*plan.Version), warn func(string)) error {
	fi, err := os.Lstat(t.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // not written yet
		}
		return err
	}
	if t.f != nil {
		if cur, err := t.f.Stat(); err != nil || !os.SameFile(cur, fi) || fi.Size() < t.off {
			t.reset()
		}
	}
	if t.f == nil {
		f, _, err := readgate.Open(t.path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if why := readgate.Reason(err); why != t.refused {
				t.refused = why
				warn(t.path + " skipped: " + why)
			}
			return nil
		}
		t.f, t.refused = f, ""
	}
	handle := func(e plan.Event) {
		if e.Kind == plan.KindVersion {
			emit(e.Version)
		}
	}
	if t.buf == nil {
		t.buf = make([]byte, 64<<10)
	}
	for {
		n, err := t.f.ReadAt(t.buf, t.off)
		t.off += int64(n)
		t.lines(t.buf[:n], handle, warn)
		if err == io.EOF || n == 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// lines feeds the whole lines of chunk to the parser, keeping a line not
// yet ended for the next chunk, up to readgate.MaxLine.
func (t *tail) lines(chunk []byte, emit func(plan.Event), warn func(string)) {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			if !t.long && len(t.partial)+len(chunk) > readgate.MaxLine {
				t.long, t.partial = true, nil
			}
			if !t.long {
				t.keep(chunk)
			}
			return
		}
		line := chunk[:i]
		chunk = chunk[i+1:]
		switch {
		case t.long || len(t.partial)+len(line) > readgate.MaxLine:
			t.p.Skip()
			warn(fmt.Sprintf("%s line %d skipped: longer than %d MiB", filepath.Base(t.path), t.p.Lines(), readgate.MaxLine>>20))
			t.long, t.partial = false, nil
			continue
		case len(t.partial) > 0:
			t.keep(line)
			line = t.partial
		}
		_ = t.p.Feed(line, emit) // an unreadable line is skipped
		t.partial = t.partial[:0]
		if cap(t.partial) > 1<<20 {
			t.partial = nil // do not hold a long line's buffer for the next
		}
	}
}

// keep adds b to the line not yet ended, doubling its buffer as it grows
// (append grows a large slice by a quarter: five times the line allocated
// on the way to the cap).
func (t *tail) keep(b []byte) {
	if n := len(t.partial) + len(b); n > cap(t.partial) {
		grown := make([]byte, len(t.partial), min(max(2*cap(t.partial), n), readgate.MaxLine+1))
		copy(grown, t.partial)
		t.partial = grown
	}
	t.partial = append(t.partial, b...)
}

func (t *tail) reset() {
	if t.f != nil {
		_ = t.f.Close()
	}
	*t = tail{path: t.path, buf: t.buf, refused: t.refused}
}

func (t *tail) close() {
	if t.f != nil {
		_ = t.f.Close()
	}
}

// Once reads the target's current plan without following it. New holds the
// newest version and the one before it (for what changed), when there are
// such. A todos.jsonl is read from its end, so the time and memory it takes
// do not grow with the number of versions.
func Once(target Target) (Update, error) {
	if s, ok := target.(selfFollower); ok {
		return s.once()
	}
	cand, err := target.pick()
	if err != nil {
		return Update{}, err
	}
	if cand == "" {
		return Update{}, nil
	}
	file, _ := target.file(cand)
	u := Update{Source: target.name(cand)}
	warn := func(w string) { u.Warnings = append(u.Warnings, w) }
	keep := func(v *plan.Version) {
		if len(u.New) == 2 {
			u.New = append(u.New[:0], u.New[1], v)
		} else {
			u.New = append(u.New, v)
		}
	}
	if target.journal() {
		_, err = lastVersions(file, keep, warn)
	} else {
		t := &tail{path: file}
		err = t.read(keep, warn)
		t.close()
		u.NoPlan = t.p.KeepsNoPlan()
	}
	if err != nil {
		return Update{}, err
	}
	if len(u.New) > 0 {
		u.Version = u.New[len(u.New)-1]
	}
	return u, nil
}

// lastVersions gives keep the two newest good versions of the todos.jsonl
// at path, oldest first, reading from the end, and returns the offset just
// past the newest one's line (0 when there is none): where to go on
// reading from.
func lastVersions(path string, keep func(*plan.Version), warn func(string)) (int64, error) {
	f, info, err := readgate.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		warn(path + " skipped: " + readgate.Reason(err))
		return 0, nil
	}
	defer func() { _ = f.Close() }()
	var found []*plan.Version // newest first
	var end int64
	var p plan.Parser
	err = readgate.LastLines(f, info.Size(), readgate.MaxLine, func(start int64, line []byte, long bool) (bool, error) {
		if long {
			n, _ := readgate.LineNumber(f, start)
			warn(fmt.Sprintf("%s line %d skipped: longer than %d MiB", filepath.Base(path), n, readgate.MaxLine>>20))
			return false, nil
		}
		_ = p.Feed(line, func(e plan.Event) {
			if e.Kind == plan.KindVersion {
				if len(found) == 0 {
					end = min(start+int64(len(line))+1, info.Size())
				}
				found = append(found, e.Version)
			}
		})
		return len(found) == 2, nil
	})
	for i := len(found) - 1; i >= 0; i-- {
		keep(found[i])
	}
	return end, err
}

// Follow reports the target's plan through send: once at the start (with
// the versions already on disk in New, a batch at a time), then after every
// change, until ctx ends. A target that does not exist yet is waited for.
func Follow(ctx context.Context, target Target, send func(Update)) error {
	if s, ok := target.(selfFollower); ok {
		return s.follow(ctx, send)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	f := &follower{target: target, send: send, w: w, root: target.root(), watched: map[string]bool{}}
	defer f.close()
	if err := f.watchRoot(); err != nil {
		return err
	}
	f.start()
	if _, ok := target.(lister); !ok {
		return watchEvents(ctx, w, f.event)
	}
	// A session whose process was killed (SIGKILL, a closed terminal's
	// SIGHUP) writes nothing as it ends: the kernel releases its lock
	// silently. Look at the lock of the one followed as `sessions` does
	// (session.Live), every livenessEvery, and take its end as the
	// lock's change an ordinary exit makes.
	tick := time.NewTicker(livenessEvery)
	defer tick.Stop()
	events := make(chan fsnotify.Event)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			select {
			case <-ctx.Done():
				return
			case events <- fsnotify.Event{Name: livenessProbe, Op: fsnotify.Chmod}:
			}
		}
	}()
	return watchEventsAnd(ctx, w, events, func(ev fsnotify.Event) error {
		if ev.Name == livenessProbe {
			f.checkLive()
			return nil
		}
		return f.event(ev)
	})
}

// livenessEvery is how often Follow looks whether the process of the
// session followed is still there.
const livenessEvery = 500 * time.Millisecond

// livenessProbe names the event of Follow's ticker (no path has it).
const livenessProbe = "\x00liveness"

// watchEvents hands each event of w to handle until ctx ends or w closes
// (nil), or handle or w fails (the error).
func watchEvents(ctx context.Context, w *fsnotify.Watcher, handle func(fsnotify.Event) error) error {
	return watchEventsAnd(ctx, w, nil, handle)
}

// watchEventsAnd is watchEvents with more events, from more, handed to
// handle in turn with w's.
func watchEventsAnd(ctx context.Context, w *fsnotify.Watcher, more <-chan fsnotify.Event, handle func(fsnotify.Event) error) error {
	for {
		var ev fsnotify.Event
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			return fmt.Errorf("watch: %w", err)
		case e, ok := <-w.Events:
			if !ok {
				return nil
			}
			ev = e
		case ev = <-more:
		}
		if err := handle(ev); err != nil {
			return err
		}
	}
}

// follower is the state of one Follow: the watcher, the candidate followed
// and its file.
type follower struct {
	target     Target
	send       func(Update)
	w          *fsnotify.Watcher
	root       string
	waitingFor string          // a directory above root, watched until root exists
	cur        string          // the candidate followed
	t          *tail           // its file
	last       *plan.Version   // its newest version
	watched    map[string]bool // candidate directories watched besides cur's
	warnings   []string        // to go with the next update
	liveOf     string          // the candidate curLive is about
	curLive    bool            // whether liveOf was live when last looked at
}

func (f *follower) close() {
	if f.t != nil {
		f.t.close()
	}
	_ = f.w.Close()
}

// checkLive: when the session followed was live and no process holds it
// now, it has ended without a word (killed): handle it as the change of
// its lock an ordinary exit makes.
func (f *follower) checkLive() {
	if f.cur == "" {
		f.curLive = false
		return
	}
	live, _ := session.Live(f.cur)
	was := f.curLive || f.liveOf != f.cur
	f.curLive, f.liveOf = live, f.cur
	if was && !live {
		_ = f.event(fsnotify.Event{Name: filepath.Join(f.cur, session.LockFile), Op: fsnotify.Write})
	}
}

// watchRoot watches root or, until it exists, the nearest directory above
// it that does. A directory made below that one between the two watches
// (mkdir -p makes the whole path at once) brings no event: after each
// watch it looks again, and goes down while the path goes on.
func (f *follower) watchRoot() error {
	for prev := ""; ; {
		err := f.w.Add(f.root)
		if err == nil {
			f.waitingFor = ""
			return nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("watch %s: %w", f.root, err)
		}
		dir := filepath.Dir(f.root)
		for f.w.Add(dir) != nil {
			up := filepath.Dir(dir)
			if up == dir {
				return fmt.Errorf("watch %s: no directory above it exists", f.root)
			}
			dir = up
		}
		// The same directory again: the one below exists and cannot be
		// watched (a permission); wait here rather than go round.
		if _, err := os.Stat(nextToward(dir, f.root)); err != nil || dir == prev {
			f.waitingFor = dir
			return nil
		}
		_ = f.w.Remove(dir) // made meanwhile: watch further down
		prev = dir
	}
}

// nextToward is the directory directly under dir on the way to root.
func nextToward(dir, root string) string {
	rel, err := filepath.Rel(dir, root)
	if err != nil {
		return root
	}
	first, _, _ := strings.Cut(rel, string(filepath.Separator))
	return filepath.Join(dir, first)
}

// lister is a Target whose candidates are directories to watch from the
// start (todo-shell sessions), not only once they are created, and that
// says which change of the candidate followed may make another better.
type lister interface {
	candidates() []string
	ended(path string) bool
}

// start follows the best candidate there is and reports what it holds.
func (f *follower) start() {
	if l, ok := f.target.(lister); ok && f.waitingFor == "" {
		// Every session there is watched (its directory, not its files: a
		// few bytes of kernel memory each), so that an older live session
		// that gets a plan, or one picked up again, is seen. A watch
		// refused (the inotify limit) leaves that session unseen until the
		// next pick.
		for _, c := range l.candidates() {
			if _, dir := f.target.file(c); dir != f.root && !f.watched[dir] {
				if f.w.Add(dir) == nil {
					f.watched[dir] = true
				}
			}
		}
	}
	if f.waitingFor == "" {
		if cand, err := f.target.pick(); err == nil && cand != "" {
			f.switchTo(cand, "")
			return
		}
	}
	f.send(Update{})
}

// switchTo follows cand from now on, says so (note: why, for a switch from
// another candidate) and reports the versions on disk.
func (f *follower) switchTo(cand, note string) {
	if f.t != nil {
		f.t.close()
		if _, dir := f.target.file(f.cur); dir != f.root && !f.watched[dir] {
			_ = f.w.Remove(dir)
		}
		if note != "" {
			note = "switched from " + f.target.name(f.cur) + " to " + f.target.name(cand) + ": " + note
		}
	}
	f.cur, f.last = cand, nil
	file, dir := f.target.file(cand)
	if dir != f.root {
		_ = f.w.Add(dir) // may not exist yet: its creation in root brings us back
	}
	f.t = &tail{path: file}
	if f.target.newest() && f.startAtNewest(file, note) {
		return
	}
	if !f.readNew(note) {
		f.send(Update{Source: f.target.name(cand), Note: note, Warnings: f.takeWarnings(), NoPlan: f.t.p.KeepsNoPlan()})
	}
}

// startAtNewest reports the newest versions of the todos.jsonl file, read
// from its end, and makes the tail go on from there: a view that shows only
// the newest version starts at once, however many versions the file holds.
// It reports false when the file has no version yet.
func (f *follower) startAtNewest(file, note string) bool {
	var newest []*plan.Version
	end, err := lastVersions(file, func(v *plan.Version) { newest = append(newest, v) }, func(w string) { f.warnings = append(f.warnings, w) })
	if err != nil || len(newest) == 0 {
		return false
	}
	f.t.off = end
	f.last = newest[len(newest)-1]
	f.send(Update{Source: f.target.name(f.cur), Version: f.last, New: newest, Note: note, Warnings: f.takeWarnings()})
	f.readNew("")
	return true
}

// readNew reads what was added to the followed file and sends it, a batch
// at a time; it reports whether it sent anything.
func (f *follower) readNew(note string) bool {
	if f.t == nil {
		return false
	}
	var batch []*plan.Version
	sent := false
	noPlan := f.t.p.KeepsNoPlan()
	flush := func() {
		noPlan = f.t.p.KeepsNoPlan()
		f.send(Update{Source: f.target.name(f.cur), Version: f.last, New: batch, Note: note, Warnings: f.takeWarnings(), NoPlan: noPlan})
		batch, note, sent = nil, "", true
	}
	_ = f.t.read(func(v *plan.Version) {
		f.last = v
		batch = append(batch, v)
		if len(batch) == MaxBatch {
			flush()
		}
	}, func(w string) { f.warnings = append(f.warnings, w) })
	if len(batch) > 0 || len(f.warnings) > 0 || noPlan != f.t.p.KeepsNoPlan() {
		flush()
	}
	return sent
}

func (f *follower) takeWarnings() []string {
	w := f.warnings
	f.warnings = nil
	return w
}

// event handles one change under the watched directories.
func (f *follower) event(ev fsnotify.Event) error {
	if f.waitingFor != "" {
		return f.onAncestorEvent(ev)
	}
	dir := filepath.Dir(ev.Name)
	switch {
	case dir == f.root && ev.Has(fsnotify.Create) && ev.Name != f.cur && f.target.isCandidate(ev.Name):
		f.onNewCandidate(ev.Name)
	case f.t != nil && ev.Name == f.t.path:
		f.readNew("")
	case dir == f.cur && f.endedOf(ev.Name):
		// The session followed ended (or started again): another may now
		// rank higher.
		if cand, err := f.target.pick(); err == nil && cand != "" && cand != f.cur {
			f.onCandidateChange(cand)
		}
	case f.t != nil && ev.Name == f.cur && ev.Has(fsnotify.Create):
		// The named session's directory appeared: watch inside it.
		if _, d := f.target.file(f.cur); d != f.root {
			_ = f.w.Add(d)
		}
		f.readNew("")
	case ev.Name == f.cur && ev.Has(fsnotify.Remove|fsnotify.Rename):
		f.onGone()
	case f.watched[dir]:
		f.onCandidateChange(dir)
	}
	return nil
}

// endedOf reports whether a change to path in the candidate followed may
// have lowered its rank.
func (f *follower) endedOf(path string) bool {
	l, ok := f.target.(lister)
	return ok && l.ended(path)
}

// onGone: the candidate followed went away (an empty session is removed
// when it ends): follow the best one left, if any.
func (f *follower) onGone() {
	if cand, err := f.target.pick(); err == nil && cand != "" && cand != f.cur {
		f.switchTo(cand, "the one followed went away")
	}
}

// onAncestorEvent: something appeared on the way to root; try again.
func (f *follower) onAncestorEvent(ev fsnotify.Event) error {
	if !ev.Has(fsnotify.Create) {
		return nil
	}
	_ = f.w.Remove(f.waitingFor)
	if err := f.watchRoot(); err != nil {
		return err
	}
	if f.waitingFor == "" {
		f.start()
	}
	return nil
}

// onNewCandidate: a session or transcript started under root. Follow it if
// it is better than the one followed; a session directory is watched
// either way, so that when it gets a plan it can be.
func (f *follower) onNewCandidate(cand string) {
	if _, dir := f.target.file(cand); dir != f.root && dir != f.cur {
		if err := f.w.Add(dir); err == nil {
			f.watched[dir] = true
		}
	}
	f.onCandidateChange(cand)
}

// onCandidateChange: something changed in a candidate not followed.
func (f *follower) onCandidateChange(cand string) {
	if cand == f.cur {
		return
	}
	if ok, why := f.target.better(cand, f.cur); ok {
		f.switchTo(cand, why)
	}
}
