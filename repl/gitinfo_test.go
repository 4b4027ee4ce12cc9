package repl

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGitBranch(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	os.MkdirAll(filepath.Join(repo, ".git", "worktrees", "wt"), 0o755)
	os.MkdirAll(filepath.Join(repo, "sub", "deep"), 0o755)
	os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	wt := filepath.Join(root, "wt")
	os.MkdirAll(wt, 0o755)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+filepath.Join(repo, ".git", "worktrees", "wt")+"\n"), 0o644)
	os.WriteFile(filepath.Join(repo, ".git", "worktrees", "wt", "HEAD"), []byte("ref: refs/heads/feature/x\n"), 0o644)
	det := filepath.Join(root, "det")
	os.MkdirAll(filepath.Join(det, ".git"), 0o755)
	os.WriteFile(filepath.Join(det, ".git", "HEAD"), []byte("0f38b56a1b2c3d4e5f60718293a4b5c6d7e8f901\n"), 0o644)
	rel := filepath.Join(root, "rel")
	os.MkdirAll(filepath.Join(rel, "gd"), 0o755)
	os.WriteFile(filepath.Join(rel, ".git"), []byte("gitdir: gd"), 0o644)
	os.WriteFile(filepath.Join(rel, "gd", "HEAD"), []byte("ref: refs/heads/rel"), 0o644)
	cases := []struct{ dir, want string }{
		{repo, "main"},
		{filepath.Join(repo, "sub", "deep"), "main"},
		{wt, "feature/x"},
		{det, "0f38b56"},
		{rel, "rel"},
		{root, ""},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.dir), func(t *testing.T) {
			if got := gitBranch(c.dir); got != c.want {
				t.Fatalf("Branch = %q, want %q", got, c.want)
			}
		})
	}
}
