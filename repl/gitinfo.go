package repl

// The prompt's git branch, read from the .git directory (or a worktree's
// .git file) without running git.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// gitBranch returns the branch checked out in the repository containing dir:
// the branch name, a short commit id when HEAD is detached, or "" outside a
// repository.
func gitBranch(dir string) string {
	gitDir := gitDirOf(dir)
	if gitDir == "" {
		return ""
	}
	head, err := readgate.ReadFile(filepath.Join(gitDir, "HEAD"), readgate.SmallFile)
	if err != nil {
		return ""
	}
	head = bytes.TrimSpace(head)
	if ref, ok := bytes.CutPrefix(head, []byte("ref: ")); ok {
		return strings.TrimPrefix(string(ref), "refs/heads/")
	}
	if len(head) >= 7 {
		return string(head[:7]) // detached
	}
	return ""
}

// gitDirOf walks up from dir to the git directory: a .git directory, or the
// directory a .git file ("gitdir: …", as in worktrees and submodules)
// points to.
func gitDirOf(dir string) string {
	dir = filepath.Clean(dir)
	for {
		p := filepath.Join(dir, ".git")
		if info, err := os.Stat(p); err == nil {
			if info.IsDir() {
				return p
			}
			b, err := readgate.ReadFile(p, readgate.SmallFile)
			if err != nil {
				return ""
			}
			target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if !ok {
				return ""
			}
			target = strings.TrimSpace(target)
			if !filepath.IsAbs(target) {
				target = filepath.Join(dir, target)
			}
			return target
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
