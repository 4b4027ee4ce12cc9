package permission

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"
)

// line1KB is a command line of about 1 KB as a model writes one: a
// compound command with pipes, quotes, a substitution, a here-string and
// redirections.
func line1KB() string {
	var b strings.Builder
	for b.Len() < 1000 {
		b.WriteString(`cd src && go test ./... -run 'TestParse|TestCheck' 2>&1 | grep -v "^ok" | head -n 40; `)
		b.WriteString(`git log --oneline -n 5 -- "$(git rev-parse --show-toplevel)/README.md" > /dev/null && echo done; `)
	}
	return strings.TrimSuffix(b.String(), "; ")
}

// BenchmarkCheck1KB: the time to judge a 1 KB Bash line (issue 26: ≤ 100
// µs), with a few prefix rules.
func BenchmarkCheck1KB(b *testing.B) {
	line := line1KB()
	in, _ := json.Marshal(map[string]string{"command": line})
	allow, _ := ParseRules([]string{"Bash(cd:*)", "Bash(go test:*)", "Bash(grep:*)", "Bash(head:*)", "Bash(git log:*)", "Bash(git rev-parse:*)", "Bash(echo:*)"})
	deny, _ := ParseRules([]string{"Bash(rm:*)"})
	p := New(Config{Allow: allow, Deny: deny, Dir: b.TempDir()})
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if d := p.Check("Bash", in); d.Verdict != Allowed {
			b.Fatalf("%v %s", d.Verdict, d.Why)
		}
	}
	// The process's CPU time per check: on a loaded machine the wall time
	// counts the waits for a core, this does not.
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkJSONBaseline1KB decodes a 1 KB JSON object with encoding/json:
// the machine's yardstick (docs/BENCHMARKS.md gives results against it).
func BenchmarkJSONBaseline1KB(b *testing.B) {
	in, _ := json.Marshal(map[string]string{"command": line1KB()})
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal(in, &v); err != nil {
			b.Fatal(err)
		}
	}
}
