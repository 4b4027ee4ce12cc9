package sqlitefile

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead reads damaged databases: the bytes as the main file, or cut in
// two as the main file and its -wal. Every table is scanned, every index
// looked up and every row found again by its rowid; none of it may panic,
// hang or allocate past the caps (the seeds are databases SQLite wrote,
// WAL frames included).
func FuzzRead(f *testing.F) {
	for _, flags := range [][]string{nil, {"keep"}} {
		path, _ := build(f, "wal", 4, 512, flags...) // small: the mutator is slow on large inputs
		db, _ := os.ReadFile(path)
		w, _ := os.ReadFile(path + "-wal")
		f.Add(append(db, w...), uint32(len(db)))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint32) { readAll(t, data, cut) })
}

// readAll is FuzzRead's work on one input.
func readAll(t *testing.T, data []byte, cut uint32) {
	{
		dir := t.TempDir()
		path := filepath.Join(dir, "x.db")
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
		file, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		s, err := file.Read()
		if err != nil {
			return
		}
		for _, e := range s.Schema() {
			if e.Type == "index" && e.Root > 0 {
				_ = s.IndexEqual(e.Root, "key1", func(int64) error { return nil })
			}
			tb, ok := s.Table(e.Name)
			if !ok {
				continue
			}
			_ = tb.Scan(func(rowid int64, r *Record) error {
				for i := 0; i < r.Len(); i++ {
					_, _ = r.Int(i)
					_ = r.Bytes(i)
				}
				_, err := tb.Row(rowid, func(*Record) error { return nil })
				return err
			})
		}
	}
}
