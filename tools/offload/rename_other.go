//go:build !linux

package offload

// renameNoReplace renames oldpath to newpath unless newpath exists.
func renameNoReplace(oldpath, newpath string) error { return linkRename(oldpath, newpath) }
