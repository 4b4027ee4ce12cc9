package opencodedb

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
	"github.com/todo-shell/todo-shell/internal/sqliteview"
)

// TestHostileDatabase: the attacks of issue 27 on opencode's database. A
// part whose overflow page number is 0 (the hand-written reader panicked:
// slice bounds out of range) is one error naming the file; a page full of
// copies of one cell whose 16 MiB data, or session_id, sits on one shared
// overflow chain (3 GB and a fatal out-of-memory for 80 copies; 55 ms a
// row, 26 minutes a page) costs the same as one such cell: the plan's two
// good versions are read, the long todowrite part is skipped and said so,
// in well under a second, with little memory.
func TestHostileDatabase(t *testing.T) {
	tests := []struct {
		name    string
		attack  opencodetest.Attack
		cells   int
		err     error
		skipped string
	}{
		{"overflow page number 0", opencodetest.ZeroOverflow, 0, sqliteview.ErrCorrupt, ""},
		{"80 cells sharing a 16 MiB data chain", opencodetest.SharedData, 80, nil, "80 todowrite part(s) skipped: over 4 MiB"},
		// SQLite takes at most (page size - 8) / 6 cells on a page.
		{"10,919 cells sharing a 16 MiB data chain", opencodetest.SharedData, 10919, nil, "10919 todowrite part(s) skipped: over 4 MiB"},
		{"a full 64 KiB page of such cells (over 28,000)", opencodetest.SharedData, 0, sqliteview.ErrCorrupt, ""},
		{"400 cells sharing a 16 MiB session_id chain", opencodetest.SharedSessionID, 400, nil, ""},
		{"10,919 cells sharing a 16 MiB session_id chain", opencodetest.SharedSessionID, 10919, nil, ""},
		{"a full 64 KiB page of such cells", opencodetest.SharedSessionID, 0, sqliteview.ErrCorrupt, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := opencodetest.Hostile(t, t.TempDir(), "/src/app", tt.attack, tt.cells)
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			db, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, read := range []struct {
				what string
				run  func() (int, error)
			}{
				{"Newest", func() (int, error) { _, vs, _, err := db.Newest("/src/app"); return len(vs), err }},
				{"Live", func() (int, error) {
					_, vs, err := db.Live(time.UnixMilli(0))
					if len(vs) == 0 {
						return 0, err
					}
					return len(vs[0]), err
				}},
				{"NewestWithPlan", func() (int, error) {
					doc, _, _, err := db.NewestWithPlan()
					return strings.Count(string(doc), `"todowrite"`), err
				}},
			} {
				n, err := read.run()
				switch {
				case tt.err != nil:
					if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
						t.Errorf("%s: %v, want one line naming the file, wrapping %v", read.what, err, tt.err)
					}
				case err != nil || n != 2:
					t.Errorf("%s: %d versions, %v; want the 2 good ones", read.what, n, err)
				}
			}
			if skipped := strings.Join(db.Skipped(), "\n"); !strings.Contains(skipped, tt.skipped) {
				t.Errorf("skipped: %q, want %q", skipped, tt.skipped)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if d := time.Since(start); d > 3*time.Second && !raceOn {
				t.Errorf("%v to read", d)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("%d MiB allocated", grew>>20)
			}
			t.Logf("%v, %d KiB allocated", time.Since(start), (after.TotalAlloc-before.TotalAlloc)>>10)
		})
	}
}
