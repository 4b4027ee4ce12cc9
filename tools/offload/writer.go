package offload

import (
	"errors"
	"os"
	"path/filepath"
)

// FileWriter is where offloaded text goes. Tests inject one that fails.
type FileWriter interface {
	// MkdirAll creates dir and its parents as needed.
	MkdirAll(dir string) error
	// WriteFile writes data to path, replacing any file there, so that the
	// file is either whole or absent.
	WriteFile(path string, data []byte) error
}

// OSWriter writes to the operating system's files: directories 0700, files
// 0600, written to a temporary file in the same directory and renamed into
// place, so a failure leaves no partial file. It does not fsync: an offload
// file is a convenience copy, not a database.
type OSWriter struct{}

var _ FileWriter = OSWriter{}

// MkdirAll creates dir with mode 0700.
func (OSWriter) MkdirAll(dir string) error { return os.MkdirAll(dir, 0o700) }

// WriteFile writes data atomically with mode 0600.
func (OSWriter) WriteFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
