package offload

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFaultPlantedLinksAreNotFollowed: a link planted in the session
// directory at an offload file's or the transcript's name leads nowhere.
func TestFaultPlantedLinksAreNotFollowed(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), ".offload")
	dir, err := SessionDir(root, "s")
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o600)
	os.Symlink(victim, filepath.Join(dir, "toolu_l.md"))
	os.Symlink(victim, filepath.Join(dir, "transcript.jsonl"))

	s, _ := NewSpool(Config{Dir: root, Session: "s", Threshold: 10, FallbackDir: t.TempDir()}, "toolu_l")
	s.Write([]byte("attacker wants this in the victim\n"))
	sum := s.Close()
	if !sum.Offloaded || sum.File != filepath.Join(dir, "toolu_l-2.md") {
		t.Fatalf("%+v", sum)
	}
	res, err := OffloadToFile(resultMessage("toolu_l", &ResultContent{Text: "also this"}), "s", root)
	if err != nil || res.File != filepath.Join(dir, "toolu_l-3.md") {
		t.Fatalf("%v %s", err, res.File)
	}
	if f, err := OpenAppend(filepath.Join(dir, "transcript.jsonl")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		f.Close()
		t.Fatalf("transcript through a link: %v", err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "precious\n" {
		t.Fatalf("victim now holds %q", got)
	}
	// A plain transcript opens, appends and is 0600.
	f, err := OpenAppend(filepath.Join(dir, "t2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{}\n")
	f.Close()
	if fi, _ := os.Stat(filepath.Join(dir, "t2.jsonl")); fi.Mode().Perm() != 0o600 {
		t.Fatal(fi.Mode())
	}
}

// TestFaultSessionDirChecks: a session directory that is a link, or
// another user's, is refused with a message; a loose one is tightened.
func TestFaultSessionDirChecks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	elsewhere := t.TempDir()
	os.Symlink(elsewhere, filepath.Join(root, "linked"))
	if _, err := SessionDir(root, "linked"); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Fatalf("linked session dir: %v", err)
	}
	fb := t.TempDir()
	s, _ := NewSpool(Config{Dir: root, Session: "linked", Threshold: 1, FallbackDir: fb}, "toolu_1")
	s.Write([]byte("xx"))
	if sum := s.Close(); !sum.Offloaded || !strings.HasPrefix(sum.File, fb) || !strings.Contains(sum.Err.Error(), "symbolic link") {
		t.Fatalf("%+v", sum)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("wrote through the link: %v", entries)
	}

	loose := filepath.Join(root, "loose")
	os.Mkdir(loose, 0o777)
	os.Chmod(loose, 0o777)
	os.WriteFile(filepath.Join(loose, "todos.json"), []byte("{}"), 0o600) // someone else's file: kept
	if _, err := SessionDir(root, "loose"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(loose); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want 0700", fi.Mode())
	}
	if _, err := os.Stat(filepath.Join(loose, "todos.json")); err != nil {
		t.Fatal("a file in the session directory was removed")
	}

	if os.Geteuid() == 0 {
		other := filepath.Join(root, "other")
		os.Mkdir(other, 0o700)
		os.Chown(other, 4242, 4242)
		if _, err := SessionDir(root, "other"); err == nil || !strings.Contains(err.Error(), "belongs to user 4242") {
			t.Fatalf("another user's dir: %v", err)
		}
		// A root others may write to, not ours and not sticky: refused.
		shared := filepath.Join(t.TempDir(), "shared")
		os.Mkdir(shared, 0o777)
		os.Chmod(shared, 0o777)
		os.Chown(shared, 4242, 4242)
		if _, err := SessionDir(shared, "s"); err == nil || !strings.Contains(err.Error(), "belongs to user 4242") {
			t.Fatalf("shared root: %v", err)
		}
		// A sticky root of another user's: its owner may still move the
		// session directories in it, so it is refused too.
		sticky := filepath.Join(t.TempDir(), "sticky")
		os.Mkdir(sticky, 0o777)
		os.Chmod(sticky, 0o777|os.ModeSticky)
		os.Chown(sticky, 4242, 4242)
		if _, err := SessionDir(sticky, "s"); err == nil || !strings.Contains(err.Error(), "its owner could move your session directories") {
			t.Fatalf("sticky root of another user's: %v", err)
		}
		// A sticky root of the system's (as /tmp is) is fine.
		os.Chown(sticky, 0, 0)
		if _, err := SessionDir(sticky, "s"); err != nil {
			t.Fatalf("sticky root of root's: %v", err)
		}
	}
}

// TestOffloadDirGitIgnore: a new offload directory holds a .gitignore of
// "*", so `git status` does not list it; an existing one is left alone.
func TestOffloadDirGitIgnore(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	root := filepath.Join(repo, ".offload")
	s, _ := NewSpool(Config{Dir: root, Session: "s", Threshold: 1}, "toolu_g")
	s.Write([]byte("hello\n"))
	if sum := s.Close(); !sum.Offloaded {
		t.Fatalf("%+v", sum)
	}
	if got, err := os.ReadFile(filepath.Join(root, GitIgnore)); err != nil || string(got) != "*\n" {
		t.Fatalf("%q %v", got, err)
	}
	if git, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command(git, "-C", repo, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		out, err := exec.Command(git, "-C", repo, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
		if err != nil || len(out) != 0 {
			t.Fatalf("git status shows %q (%v)", out, err)
		}
	}
	mine := t.TempDir()
	if _, err := SessionDir(mine, "s"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(mine, GitIgnore)); err == nil {
		t.Fatal(".gitignore written into an existing directory")
	}
}
