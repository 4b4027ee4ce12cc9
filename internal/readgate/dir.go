package readgate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxDirEntries is how many entries of one directory a listing reads by
// default (sessions, session candidates, transcripts): far more than a
// person or an agent makes, and few enough that the listing stays within
// tens of megabytes and a second or two whatever was planted there.
const MaxDirEntries = 20_000

// dirBatch is how many entries are read from the directory at once: the
// memory a listing holds is this batch and what f keeps, never the whole
// directory.
const dirBatch = 256

// EachEntry calls f with each entry of dir, in the directory's order, up
// to most entries (every entry counts, kept or not). When the directory
// holds more, it stops there and returns an error wrapping ErrBudget that
// says so: what f took of the first most entries stands. f returning false
// stops the listing early, with no error.
func EachEntry(dir string, most int, f func(fs.DirEntry) bool) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }() // read only: nothing to lose
	seen := 0
	for {
		batch, err := d.ReadDir(dirBatch)
		for _, e := range batch {
			if seen == most {
				return fmt.Errorf("%s: %w (more than %d entries: the first %d read)", dir, ErrBudget, most, most)
			}
			seen++
			if !f(e) {
				return nil
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
