package replayui

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/todo-shell/todo-shell/internal/opencodedb"
	"github.com/todo-shell/todo-shell/render"
)

// sqliteMagic starts every SQLite 3 database file.
const sqliteMagic = "SQLite format 3\x00"

// opencodeDBFormat is what replay's output calls opencode's database.
const opencodeDBFormat = "opencode database"

// isSQLiteWAL reports whether head, a file's first 4 bytes or more,
// starts a SQLite write-ahead log (a -wal file): its magic, 0x377f0682 or
// 0x377f0683.
func isSQLiteWAL(head []byte) bool {
	return len(head) >= 4 && binary.BigEndian.Uint32(head)&^1 == 0x377f0682
}

// opencodeDBAsExport replays opencode's database (opencode.db) as the
// export of one of its sessions: session, or else the most recently
// updated top-level one with a todowrite plan. f is the file open at path; when it is no SQLite
// database it is returned as it is. name is what the output calls it:
// path#session. A SQLite -wal file is refused, naming the database to
// replay instead.
func opencodeDBAsExport(f *os.File, path, session string) (out *os.File, cleanup func(), name string, err error) {
	head := make([]byte, len(sqliteMagic))
	n, _ := f.ReadAt(head, 0)
	if isSQLiteWAL(head[:n]) {
		db := "the database beside it"
		if base, ok := strings.CutSuffix(path, "-wal"); ok && base != "" {
			db = base
		}
		return nil, nil, "", fmt.Errorf("%s is the write-ahead log of a SQLite database, not a transcript: replay %s", render.Sanitize(path), render.Sanitize(db))
	}
	if n < len(head) || string(head) != sqliteMagic {
		if session != "" {
			return nil, nil, "", fmt.Errorf("%s is no opencode database to find session %s in", render.Sanitize(path), render.Sanitize(session))
		}
		return f, func() {}, path, nil
	}
	db, err := opencodedb.Open(path)
	if err != nil {
		return nil, nil, "", err
	}
	defer func() { _ = db.Close() }()
	doc, session, err := opencodeExport(db, path, session)
	if err != nil {
		return nil, nil, "", err
	}
	tmp, err := os.CreateTemp("", "todo-shell-replay-*.json")
	if err != nil {
		return nil, nil, "", err
	}
	done := func() { _ = tmp.Close(); _ = os.Remove(tmp.Name()) }
	if _, err := io.Copy(tmp, bytes.NewReader(append(doc, '\n'))); err != nil {
		done()
		return nil, nil, "", err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		done()
		return nil, nil, "", err
	}
	return tmp, done, path + "#" + render.Sanitize(session), nil
}

// opencodeExport is the export of session, or, when session is "", of the
// most recently updated top-level session with a todowrite call (the
// newest sessions of a database often keep no plan).
func opencodeExport(db *opencodedb.DB, path, session string) (doc []byte, id string, err error) {
	if session != "" {
		if ok, err := db.HasSession(session); err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("%s holds no opencode session %s", render.Sanitize(path), render.Sanitize(session))
			}
			return nil, "", err
		}
		doc, _, err = db.Export(session)
		if err != nil {
			return nil, "", err // it names the file
		}
		return doc, session, nil
	}
	doc, id, n, err := db.NewestWithPlan()
	switch {
	case err != nil:
		return nil, "", err // it names the file
	case id != "":
		return doc, id, nil
	case n == 0:
		return nil, "", fmt.Errorf("%s holds no opencode session", render.Sanitize(path))
	case n == 1:
		return nil, "", fmt.Errorf("%s holds one opencode session, with no todowrite plan", render.Sanitize(path))
	}
	return nil, "", fmt.Errorf("%s holds %d opencode sessions, none with a todowrite plan", render.Sanitize(path), n)
}
