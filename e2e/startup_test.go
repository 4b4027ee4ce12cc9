package e2e

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestStartupInitIsCheap keeps todo-shell's own package initialisation
// small: `--help` must start in a few milliseconds (BenchmarkProcessHelp
// measures it), and an init that builds a table at every start (as a
// 1.1 M-code-point walk once did, 10 ms) is caught here by what it
// allocates, which, unlike time, does not depend on how busy the machine is.
func TestStartupInitIsCheap(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "--help")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("--help: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs`)
	const maxBytes, maxAllocs = 16 << 10, 200
	seen := 0
	for _, l := range strings.Split(string(out), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil || !strings.HasPrefix(m[1], "github.com/todo-shell/todo-shell") {
			continue
		}
		seen++
		bytes, _ := strconv.Atoi(m[2])
		allocs, _ := strconv.Atoi(m[3])
		if bytes > maxBytes || allocs > maxAllocs {
			t.Errorf("init of %s: %d bytes, %d allocs (at most %d bytes, %d allocs)", m[1], bytes, allocs, maxBytes, maxAllocs)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of todo-shell's packages in:\n%s", out)
	}
}
