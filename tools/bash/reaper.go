package bash

import (
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
)

// reaperScript runs in a small shell of its own for as long as todo-shell
// runs. It learns each command's process group ("+ PGID", "- PGID" once the
// group is empty) on its standard input; when that input ends — todo-shell
// exited, or was killed, even with SIGKILL, which no handler sees — it kills
// every group still listed. It ignores the signals a closing terminal or a
// Ctrl+C sends, so that it outlives todo-shell long enough to do its job.
const reaperScript = `trap '' INT HUP TERM QUIT TSTP
live=' '
while read -r op pg; do
  case $op in
    +) live="$live$pg " ;;
    -) case $live in *" $pg "*) live="${live%% $pg *} ${live#* $pg }" ;; esac ;;
  esac
done
for pg in $live; do kill -KILL -"$pg" 2>/dev/null; done
`

// reaper keeps the process groups that may still have processes running and
// kills them on the way out, in process (killAll) and, through its shell,
// when todo-shell dies without a chance to.
type reaper struct {
	mu   sync.Mutex
	w    io.WriteCloser // the shell's standard input; nil when it could not start
	live map[int]bool
}

// startReaper starts the reaper's shell. Should that fail, the reaper still
// kills the groups it knows of when asked, but nothing outlives todo-shell.
func startReaper(shell string) *reaper {
	rp := &reaper{live: make(map[int]bool)}
	cmd := exec.Command(shell, "-c", reaperScript)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		return rp
	}
	if err := cmd.Start(); err != nil {
		return rp
	}
	go func() { _ = cmd.Wait() }() // reap it should it end first
	rp.w = w
	return rp
}

// watch records a command's process group.
func (rp *reaper) watch(pgid int) {
	if rp == nil {
		return
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.prune()
	rp.live[pgid] = true
	rp.send("+", pgid)
}

// forgetIfGone drops pgid once no process of its group is left; a command's
// background jobs keep it listed.
func (rp *reaper) forgetIfGone(pgid int) {
	if rp == nil {
		return
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if syscall.Kill(-pgid, 0) == syscall.ESRCH {
		delete(rp.live, pgid)
		rp.send("-", pgid)
	}
}

// prune forgets groups that have ended since they were last looked at, so a
// process group id the system gives out again is never killed by mistake.
func (rp *reaper) prune() {
	for pg := range rp.live {
		if syscall.Kill(-pg, 0) == syscall.ESRCH {
			delete(rp.live, pg)
			rp.send("-", pg)
		}
	}
}

// killAll kills every group still listed.
func (rp *reaper) killAll() {
	if rp == nil {
		return
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	for pg := range rp.live {
		_ = syscall.Kill(-pg, syscall.SIGKILL) // ESRCH: already gone
		delete(rp.live, pg)
		rp.send("-", pg)
	}
}

func (rp *reaper) send(op string, pgid int) {
	if rp.w != nil {
		fmt.Fprintf(rp.w, "%s %d\n", op, pgid)
	}
}
