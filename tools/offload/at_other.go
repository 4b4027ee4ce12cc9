//go:build !linux

package offload

import "os"

func createTempAt(dir, prefix string) (*os.File, error) { return os.CreateTemp(dir, prefix+"*") }

func renameAt(oldpath, newpath string) error { return renameNoReplace(oldpath, newpath) }
