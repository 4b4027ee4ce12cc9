package e2e

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// faultUser is the second, unprivileged user of the two-user fault tests.
const faultUser = "todo-shell-fault"

// otherUser returns the uid and gid of a real second user, creating it
// with useradd when it is missing; the test is skipped, saying why, where
// that cannot be done.
func otherUser(t *testing.T) (uid, gid int) {
	t.Helper()
	u, err := user.Lookup(faultUser)
	if err != nil {
		if os.Geteuid() != 0 {
			t.Skipf("two-user case: user %s is missing and only root can create it", faultUser)
		}
		out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", faultUser).CombinedOutput()
		if err != nil {
			t.Skipf("two-user case: cannot create user %s: %v %s", faultUser, err, out)
		}
		if u, err = user.Lookup(faultUser); err != nil {
			t.Skipf("two-user case: user %s made but not found: %v", faultUser, err)
		}
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid
}

// asUser runs name args as uid:gid.
func asUser(uid, gid int, name string, args ...string) error {
	c := exec.Command(name, args...)
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := c.CombinedOutput()
	if err != nil {
		return errors.New(err.Error() + ": " + strings.TrimSpace(string(out)))
	}
	return nil
}

// TestFaultOffloadDirOfAnotherUser: user B owns a sticky, world-writable
// directory; user A (this process's user) pointed at it with --offload-dir
// is refused with a message naming the owner, and writes nothing there,
// since B could rename A's session directory away and plant a link to A's
// own files. In a sticky directory of A's own (or of root's, as /tmp) B
// cannot move A's session directory: the rename fails.
func TestFaultOffloadDirOfAnotherUser(t *testing.T) {
	t.Parallel()
	uid, gid := otherUser(t)
	if uid == os.Geteuid() {
		t.Skip("two-user case: the second user is this user")
	}
	base := t.TempDir()
	os.Chmod(base, 0o755)
	shared := filepath.Join(base, "shared")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o777|os.ModeSticky)
	if err := os.Chown(shared, uid, gid); err != nil {
		t.Skipf("two-user case: cannot give %s to %s: %v", shared, faultUser, err)
	}
	todoWrite := `TodoWrite '{"todos":[{"content":"a","activeForm":"b","status":"pending"}]}'`
	out, err := exec.Command(binary, "--offload-dir", shared, "--session", "proj", "-c", todoWrite).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "offload directory "+shared+" belongs to user "+strconv.Itoa(uid)) {
		t.Fatalf("%v: %s", err, out)
	}
	if entries, _ := os.ReadDir(shared); len(entries) != 0 {
		t.Fatalf("wrote into another user's directory: %v", entries)
	}

	// A sticky directory of A's own: A's session is saved there, and B
	// cannot rename it away.
	own := filepath.Join(base, "own")
	os.Mkdir(own, 0o777)
	os.Chmod(own, 0o777|os.ModeSticky)
	if out, err := exec.Command(binary, "--offload-dir", own, "--session", "proj", "-c", todoWrite).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(own, "proj", "todos.json")); err != nil {
		t.Fatal(err)
	}
	if err := asUser(uid, gid, "mv", filepath.Join(own, "proj"), filepath.Join(own, "stolen")); err == nil {
		t.Fatal("the other user moved the session directory out of a sticky directory")
	}
}
