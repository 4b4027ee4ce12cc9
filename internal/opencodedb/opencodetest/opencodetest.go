// Package opencodetest gives tests the databases the real opencode wrote
// (internal/opencodedb/testdata: name.db or name.db.gz, and
// name.db-wal.gz), placed where a test reads them.
package opencodetest

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Gunzip returns the uncompressed content of the gzip file at path.
func Gunzip(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // only read
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Place copies the fixture name of the testdata directory (as the test's
// package sees it) into a new directory as opencode.db, with its -wal
// when wal is set (its first walLen bytes when walLen > 0: the file as it
// was at that moment of the run), and returns the database's path.
func Place(t testing.TB, testdata, name string, wal bool, walLen int64) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "opencode.db")
	src := filepath.Join(testdata, name)
	main, err := os.ReadFile(src + ".db")
	if os.IsNotExist(err) {
		main, err = Gunzip(t, src+".db.gz"), nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, main, 0o600); err != nil {
		t.Fatal(err)
	}
	if wal {
		w := Gunzip(t, src+".db-wal.gz")
		if walLen > 0 {
			w = w[:walLen]
		}
		if err := os.WriteFile(db+"-wal", w, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return db
}
