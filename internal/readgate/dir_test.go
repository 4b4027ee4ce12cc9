package readgate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestEachEntry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 600 {
		if err := os.Mkdir(filepath.Join(dir, strconv.Itoa(i)), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		max    int
		stopAt int // f returns false at this entry (0: never)
		want   int
		budget bool
	}{
		{"all of them", 1000, 0, 600, false},
		{"exactly max", 600, 0, 600, false},
		{"over max, across batches", 300, 0, 300, true},
		{"over max, within a batch", 10, 0, 10, true},
		{"stopped by f", 1000, 5, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			err := EachEntry(dir, tt.max, func(fs.DirEntry) bool {
				n++
				return n != tt.stopAt
			})
			if n != tt.want || errors.Is(err, ErrBudget) != tt.budget || (err != nil) != tt.budget {
				t.Errorf("%d entries, %v; want %d, budget error %v", n, err, tt.want, tt.budget)
			}
		})
	}
	if err := EachEntry(filepath.Join(dir, "none"), 10, func(fs.DirEntry) bool { return true }); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing directory: %v", err)
	}
}
