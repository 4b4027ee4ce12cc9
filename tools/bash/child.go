package bash

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// stateEnv names the file where a command's shell records, on its way out,
// whether it ran exit at its top level and the directory it ended in.
const stateEnv = "TODO_SHELL_STATE_FILE"

// statePrefix starts the name of every state file; the owner's pid follows,
// so leftovers of a process that was killed can be told apart.
const statePrefix = "todo-shell-cwd-"

// hiddenEnv are variables a command never sees: a model running `env` must
// not read the API credentials into its context (and the transcript).
var hiddenEnv = []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", stateEnv}

// forcedEnv are set for every command: output goes to a pipe, never to a
// pager waiting for a key that cannot come.
var forcedEnv = []string{"PAGER=cat", "GIT_PAGER=cat"}

// childEnv returns env without the hidden variables, with the forced ones
// and extra.
func childEnv(env []string, extra ...string) []string {
	out := make([]string, 0, len(env)+len(forcedEnv)+len(extra))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if hidden(name) {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, forcedEnv...)
	return append(out, extra...)
}

// withOldDir sets OLDPWD in env to the directory the runner's last `cd`
// left, or unsets it before any: `cd -` goes where this shell was, never
// to a directory inherited from the terminal it was started in.
func withOldDir(env []string, old string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "OLDPWD=") {
			out = append(out, kv)
		}
	}
	if old != "" {
		out = append(out, "OLDPWD="+old)
	}
	return out
}

func hidden(name string) bool {
	for _, h := range hiddenEnv {
		if name == h {
			return true
		}
	}
	for _, f := range forcedEnv {
		if n, _, _ := strings.Cut(f, "="); name == n {
			return true
		}
	}
	return false
}

// scriptFD is the descriptor a command's shell reads its script from:
// the first of exec.Cmd's ExtraFiles.
const scriptFD = 3

// bootstrap is the script given to the shell with -c. It sets up the
// bookkeeping, then reads the command from descriptor scriptFD and runs it
// with eval, the descriptor closed: a command of any length runs, where one
// argument of exec holds at most MAX_ARG_STRLEN (128 KiB), and line
// numbers in bash's error messages ("line 2: …") are the command's own, as
// eval counts from its text's first line. With bash, an exit function
// records that the top-level shell (not a subshell) ran exit; the EXIT trap
// records where the command left the shell.
func bootstrap(isBash bool) string {
	prefix := `trap 'if [ -n "${OLDPWD+x}" ]; then printf "oldpwd %s\0" "$OLDPWD" >> "$` + stateEnv + `"; fi; printf "cwd %s\n" "$PWD" >> "$` + stateEnv + `"' EXIT; `
	fd := strconv.Itoa(scriptFD)
	if !isBash {
		return prefix + `eval "$(cat <&` + fd + `)" ` + fd + `<&-`
	}
	prefix = `exit() { [ "$BASHPID" = "$$" ] && printf 'exit\n' >> "$` + stateEnv + `"; builtin exit "$@"; }; ` + prefix
	// $(<file) reads it without starting cat.
	return prefix + `eval "$(</dev/fd/` + fd + `)" ` + fd + `<&-`
}

// commandState is what a command's shell recorded on its way out.
type commandState struct {
	exited bool
	dir    string
	oldDir string // $OLDPWD, for the next command's `cd -`; "" when unset
}

func parseState(s string) commandState {
	var st commandState
	if rest, ok := strings.CutPrefix(s, "exit\n"); ok {
		st.exited, s = true, rest
	}
	if rest, ok := strings.CutPrefix(s, "oldpwd "); ok {
		if old, after, found := strings.Cut(rest, "\x00"); found {
			st.oldDir, s = old, after
		}
	}
	if dir, ok := strings.CutPrefix(s, "cwd "); ok {
		st.dir = strings.TrimSuffix(dir, "\n")
	}
	return st
}

// nearestDir returns dir when it is an existing directory, else its nearest
// existing ancestor (at worst "/"), and whether dir itself exists.
func nearestDir(dir string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d, d == dir
		}
		if d == filepath.Dir(d) {
			return string(filepath.Separator), false
		}
	}
}

// stateFilePrefix is the pattern for os.CreateTemp of this process's state
// files.
func stateFilePrefix() string { return statePrefix + strconv.Itoa(os.Getpid()) + "-*" }

// CleanStaleState removes state files that processes which are gone left
// in dir (os.TempDir() when ""): a todo-shell killed mid-command cannot
// remove its own. Files of live processes are left alone; files named the
// old way, without a pid, when they are more than an hour old. It returns
// how many it removed.
func CleanStaleState(dir string) int {
	if dir == "" {
		dir = os.TempDir()
	}
	names, _ := filepath.Glob(filepath.Join(dir, statePrefix+"*"))
	removed := 0
	for _, name := range names {
		rest := strings.TrimPrefix(filepath.Base(name), statePrefix)
		pidText, _, hasPid := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if hasPid && err == nil && pid > 0 {
			if pid == os.Getpid() || processAlive(pid) {
				continue
			}
		} else if fi, err := os.Stat(name); err != nil || time.Since(fi.ModTime()) < time.Hour {
			continue
		}
		if os.Remove(name) == nil {
			removed++
		}
	}
	return removed
}

// processAlive reports whether a process with pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// errGone formats the message for a working directory that was deleted.
func errGone(dir, now string) string {
	return fmt.Sprintf("working directory %s no longer exists; running in %s", dir, now)
}
