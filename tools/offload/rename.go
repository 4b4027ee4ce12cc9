package offload

import "os"

// linkRename renames by a hard link, which never replaces newpath, and the
// removal of oldpath.
func linkRename(oldpath, newpath string) error {
	if err := os.Link(oldpath, newpath); err != nil {
		return err
	}
	return os.Remove(oldpath)
}
