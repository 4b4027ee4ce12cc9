package opencodedb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
)

// FuzzDatabase reads damaged opencode databases through SQLite: the bytes
// as the main file, or cut in two as the main file and its -wal (the seeds
// are small databases SQLite wrote, with and without their rows in the
// -wal). Every read the watchers and replay make — the newest session of
// a directory with its plan, the live sessions, the newest with a plan, a
// session by id — ends with versions or an error naming the file, in one
// line: no panic, no hang (the read's own time cap is 10 s).
func FuzzDatabase(f *testing.F) {
	for _, wal := range []bool{false, true} {
		db, w := opencodetest.Small(f, "/src/app", wal)
		f.Add(append(db, w...), uint32(len(db)))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint32) {
		dir := t.TempDir()
		path := filepath.Join(dir, FileName)
		main, wal := data, []byte(nil)
		if int(cut) < len(data) && cut > 0 {
			main, wal = data[:cut], data[cut:]
		}
		if err := os.WriteFile(path, main, 0o600); err != nil {
			t.Fatal(err)
		}
		if wal != nil {
			if err := os.WriteFile(path+"-wal", wal, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, err error) {
			t.Helper()
			if err != nil && (!strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n")) {
				t.Fatalf("%s: %q: not one line naming the file", what, err)
			}
		}
		_, vs, _, err := db.Newest("/src/app")
		check("Newest", err)
		for i, v := range vs {
			if v.N != i+1 {
				t.Fatalf("version %d numbered %d", i+1, v.N)
			}
		}
		_, _, err = db.Live(time.UnixMilli(0))
		check("Live", err)
		_, _, _, err = db.NewestWithPlan()
		check("NewestWithPlan", err)
		_, err = db.HasSession("ses_small")
		check("HasSession", err)
		_, err = db.Versions("ses_small")
		check("Versions", err)
	})
}
