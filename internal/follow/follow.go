// Package follow watches a live session on disk and reports each new
// version of its plan: a todo-shell session's todos.jsonl, or the newest
// Claude Code transcript of a project. It uses fsnotify (inotify on Linux),
// so it sleeps in the kernel until a file changes: no polling, no CPU while
// nothing happens. Only whole lines are read — a line still being written
// waits for its newline — so it never sees a half-written record.
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
)

// Update is the state of the followed plan after a change.
type Update struct {
	Source  string        // the session id or transcript file followed
	Version *plan.Version // the newest version; nil while there is none
	New     []*plan.Version
}

// Target says what to follow.
type Target interface {
	// root is the directory whose children are the candidates.
	root() string
	// pick returns the newest candidate under root ("" for none).
	pick() (string, error)
	// isCandidate reports whether a path created under root is one.
	isCandidate(path string) bool
	// file is the JSON-lines file of a candidate, and the directory to
	// watch for its changes.
	file(candidate string) (file, dir string)
	// name is how a candidate is shown.
	name(candidate string) string
}

// Session follows todo-shell sessions in Dir (the offload directory): the
// one named ID, or with ID empty the most recent one and then each newer
// one that starts.
type Session struct {
	Dir string
	ID  string
}

func (s Session) root() string { return s.Dir }

func (s Session) pick() (string, error) {
	if s.ID != "" {
		return filepath.Join(s.Dir, s.ID), nil
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return "", err
	}
	var best string
	var bestTime time.Time
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(s.Dir, e.Name())
		t := newest(p, p+"/todos.jsonl", p+"/session.json")
		if best == "" || t.After(bestTime) {
			best, bestTime = p, t
		}
	}
	return best, nil
}

func (s Session) isCandidate(path string) bool {
	if s.ID != "" {
		return filepath.Base(path) == s.ID
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func (s Session) file(c string) (string, string) { return filepath.Join(c, "todos.jsonl"), c }
func (s Session) name(c string) string           { return filepath.Base(c) }

// Claude follows the newest Claude Code transcript in a project directory
// (~/.claude/projects/<mangled dir>/<uuid>.jsonl), and each newer one that
// starts. Sub-agent transcripts (agent-*.jsonl) are not followed.
type Claude struct {
	ProjectDir string
}

func (c Claude) root() string { return c.ProjectDir }

func (c Claude) pick() (string, error) {
	entries, err := os.ReadDir(c.ProjectDir)
	if err != nil {
		return "", err
	}
	var best string
	var bestTime time.Time
	for _, e := range entries {
		p := filepath.Join(c.ProjectDir, e.Name())
		if e.IsDir() || !c.isCandidate(p) {
			continue
		}
		t := newest(p)
		if best == "" || t.After(bestTime) {
			best, bestTime = p, t
		}
	}
	return best, nil
}

func (c Claude) isCandidate(path string) bool {
	b := filepath.Base(path)
	return strings.HasSuffix(b, ".jsonl") && !strings.HasPrefix(b, "agent-")
}

func (c Claude) file(cand string) (string, string) { return cand, filepath.Dir(cand) }
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

// newest returns the latest modification time of the paths that exist.
func newest(paths ...string) time.Time {
	var t time.Time
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.ModTime().After(t) {
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
	p       plan.Parser
	buf     []byte
}

// read feeds the new whole lines to the parser and returns the versions
// they complete. A file replaced or cut shorter is read again from the start.
func (t *tail) read() ([]*plan.Version, error) {
	fi, err := os.Stat(t.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil // not written yet
		}
		return nil, err
	}
	if t.f != nil {
		if cur, err := t.f.Stat(); err != nil || !os.SameFile(cur, fi) || fi.Size() < t.off {
			t.reset()
		}
	}
	if t.f == nil {
		f, err := os.Open(t.path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
			return nil, err
		}
		t.f = f
	}
	var out []*plan.Version
	emit := func(e plan.Event) {
		if e.Kind == plan.KindVersion {
			out = append(out, e.Version)
		}
	}
	if t.buf == nil {
		t.buf = make([]byte, 64<<10)
	}
	for {
		n, err := t.f.ReadAt(t.buf, t.off)
		t.off += int64(n)
		chunk := t.buf[:n]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				t.partial = append(t.partial, chunk...)
				break
			}
			line := chunk[:i]
			if len(t.partial) > 0 {
				t.partial = append(t.partial, line...)
				line = t.partial
			}
			_ = t.p.Feed(line, emit) // an unreadable line is skipped
			t.partial = t.partial[:0]
			chunk = chunk[i+1:]
		}
		if errors.Is(err, io.EOF) || n == 0 {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

func (t *tail) reset() {
	if t.f != nil {
		_ = t.f.Close() // only read
	}
	*t = tail{path: t.path, buf: t.buf}
}

func (t *tail) close() {
	if t.f != nil {
		_ = t.f.Close() // only read
	}
}

// Once reads the target's current plan without following it.
func Once(target Target) (Update, error) {
	cand, err := target.pick()
	if err != nil {
		return Update{}, err
	}
	if cand == "" {
		return Update{}, nil
	}
	file, _ := target.file(cand)
	t := &tail{path: file}
	defer t.close()
	vs, err := t.read()
	if err != nil {
		return Update{}, err
	}
	u := Update{Source: target.name(cand), New: vs}
	if len(vs) > 0 {
		u.Version = vs[len(vs)-1]
	}
	return u, nil
}

// Follow reports the target's plan through send: once at the start (with
// the versions already on disk in New), then after every change, until ctx
// ends. A target that does not exist yet is waited for.
func Follow(ctx context.Context, target Target, send func(Update)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer func() { _ = w.Close() }() // nothing left to do if the watcher fails to close

	root := target.root()
	// Until root exists, watch the nearest directory above it that does.
	waitingFor := ""
	watchRoot := func() error {
		if err := w.Add(root); err == nil {
			waitingFor = ""
			return nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("watch %s: %w", root, err)
		}
		dir := filepath.Dir(root)
		for {
			if err := w.Add(dir); err == nil {
				waitingFor = dir
				return nil
			}
			up := filepath.Dir(dir)
			if up == dir {
				return fmt.Errorf("watch %s: no directory above it exists", root)
			}
			dir = up
		}
	}
	if err := watchRoot(); err != nil {
		return err
	}

	var cur string // the candidate followed
	var t *tail
	var last *plan.Version
	defer func() {
		if t != nil {
			t.close()
		}
	}()
	switchTo := func(cand string) {
		if t != nil {
			t.close()
			_, dir := target.file(cur)
			if dir != root {
				_ = w.Remove(dir) // it may be gone already
			}
		}
		cur, last = cand, nil
		file, dir := target.file(cand)
		if dir != root {
			_ = w.Add(dir) // may not exist yet: its creation in root brings us back
		}
		t = &tail{path: file}
	}
	readNew := func() {
		if t == nil {
			return
		}
		vs, err := t.read()
		if err != nil || len(vs) == 0 {
			return
		}
		last = vs[len(vs)-1]
		send(Update{Source: target.name(cur), Version: last, New: vs})
	}
	start := func() {
		if waitingFor != "" {
			send(Update{})
			return
		}
		if cand, err := target.pick(); err == nil && cand != "" {
			switchTo(cand)
			if vs, err := t.read(); err == nil && len(vs) > 0 {
				last = vs[len(vs)-1]
				send(Update{Source: target.name(cur), Version: last, New: vs})
				return
			}
			send(Update{Source: target.name(cur)})
			return
		}
		send(Update{})
	}
	start()

	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			return fmt.Errorf("watch: %w", err)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if waitingFor != "" {
				// Something appeared on the way to root: try again.
				if ev.Has(fsnotify.Create) {
					_ = w.Remove(waitingFor) // it may be gone already
					if err := watchRoot(); err != nil {
						return err
					}
					if waitingFor == "" {
						start()
					}
				}
				continue
			}
			dir := filepath.Dir(ev.Name)
			switch {
			case dir == root && ev.Has(fsnotify.Create) && ev.Name != cur && target.isCandidate(ev.Name):
				// A newer session started (or the named one appeared).
				switchTo(ev.Name)
				send(Update{Source: target.name(cur)})
				readNew()
			case t != nil && ev.Name == t.path:
				readNew()
			case t != nil && ev.Name == cur && ev.Has(fsnotify.Create):
				// The named session's directory appeared: watch inside it.
				if _, d := target.file(cur); d != root {
					_ = w.Add(d) // gone again: its next creation brings us back
				}
				readNew()
			}
		}
	}
}
