package permission

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// The differential test of issue 26: lines generated from a grammar of
// the shell's constructs run under bash itself, in a scratch directory
// whose PATH holds only recording stubs (and the real wrappers: env,
// xargs, find, sh…). Each stub records its name and its first argument,
// an id naming the line and the place in it. Every command bash ran must
// be one the checker saw and judged: a deny rule naming it (Bash(NAME
// ID:*)) refuses the line in bypassPermissions mode, or the checker said
// the line runs what it cannot see, and asks.
//
// TODO_SHELL_DIFF_LINES sets how many lines (default 1500, about ten
// seconds), TODO_SHELL_DIFF_SEED the seed (default fixed); `make fuzz`
// runs a longer one with a seed of the clock.

// leaves are the recording stubs' names.
var leaves = []string{"rm", "touch", "ls", "cat", "grep", "mkdir", "cp", "chmod", "head", "wc"}

// gen generates lines. Each leaf command gets an id unique in the run.
type gen struct {
	r     *rand.Rand
	line  int
	n     int
	have  map[string]bool // the wrappers installed
	files map[string]string
}

// id is a fresh id for the current line.
func (g *gen) id() string {
	g.n++
	return fmt.Sprintf("L%d_%d", g.line, g.n)
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// name spells a command name the ways bash unquotes.
func (g *gen) name(n string) string {
	switch g.r.IntN(9) {
	case 0:
		return `\` + n
	case 1:
		return "'" + n + "'"
	case 2:
		return `"` + n + `"`
	case 3:
		return n[:1] + `"` + n[1:] + `"`
	case 4:
		return "$'" + n + "'"
	case 5:
		return n[:1] + "''" + n[1:]
	}
	return n
}

// leaf is one stub call, maybe with assignments and wrappers before it.
func (g *gen) leaf(depth int) string {
	n := g.pick(leaves...)
	call := g.name(n) + " " + g.id()
	if g.r.IntN(3) == 0 {
		call += " " + g.pick("-f", "x", "'a b'", "$HOME", "--", "\"$X\"")
	}
	for i := g.r.IntN(3); i > 0 && !strings.ContainsAny(call[:1], "(") && !strings.Contains(call, "|"); i-- {
		call = g.wrap(call)
	}
	if g.r.IntN(6) == 0 {
		call = g.pick("X=1 ", "LANG=C ", "A=$(true) ", "B='x y' ") + call
	}
	return call
}

// wrap puts a wrapper command before call.
func (g *gen) wrap(call string) string {
	var opts []string
	for _, w := range []struct{ name, form string }{
		{"", "command %s"}, {"", "time %s"}, {"env", "env %s"}, {"env", "env -u HOME X=1 %s"}, {"env", "env -i PATH=$PATH DIFF_LOG=$DIFF_LOG %s"},
		{"nice", "nice -n 1 %s"}, {"nohup", "nohup %s 2>/dev/null"}, {"timeout", "timeout 10 %s"}, {"stdbuf", "stdbuf -o0 %s"},
		{"setsid", "setsid -w %s"}, {"sudo", "sudo -u root %s"}, {"doas", "doas %s"}, {"", "(exec %s)"},
		{"xargs", "echo z | xargs %s"}, {"xargs", "echo z | xargs -n 1 %s"},
	} {
		if w.name == "" || g.have[w.name] {
			opts = append(opts, w.form)
		}
	}
	return fmt.Sprintf(g.pick(opts...), call)
}

// stmt is a command made of the shell's constructs, depth deep at most.
func (g *gen) stmt(depth int) string {
	if depth <= 0 || g.r.IntN(4) == 0 {
		return g.leaf(depth)
	}
	d := depth - 1
	a := func() string { return g.stmt(d) }
	q := bashline.Quote
	forms := []func() string{
		func() string { return a() + " | " + a() },
		func() string { return a() + " && " + a() },
		func() string { return "false || " + a() },
		func() string { return a() + "; " + a() },
		func() string { return a() + " & wait" },
		func() string { return "if true; then " + a() + "; fi" },
		func() string { return "if false; then :; else " + a() + "; fi" },
		func() string { return "for i in 1; do " + a() + "; done" },
		func() string { return "n=0; while [ $n -lt 1 ]; do " + a() + "; n=$((n+1)); done" },
		func() string { return "until true; do :; done; " + a() },
		func() string { return "case x in x) " + a() + ";; esac" },
		func() string { return "{ " + a() + "; }" },
		func() string { return "( " + a() + " )" },
		func() string { f := fmt.Sprintf("f%d_%d", g.line, g.n); return f + "() { " + a() + "; }; " + f },
		func() string { return "echo () { " + g.name(g.pick(leaves...)) + " " + g.id() + "; }; echo" },
		func() string { return "echo $( " + a() + "\n)" },
		func() string { return "echo \"$( " + a() + "\n)\"" },
		func() string { return "echo `" + g.leaf(d) + "`" },
		func() string { return "echo <( " + a() + "\n)" },
		func() string { return "echo x > >( " + a() + "\n)" },
		func() string { return "echo $(( 1 + $( " + a() + "\n) 0 ))" },
		func() string { return ": <<EOF\n$( " + a() + "\n)\nEOF" },
		func() string { return "V=$( " + a() + "\n)" },
		func() string { return "echo ${U:-$( " + a() + "\n)}" },
		func() string { return "[[ -n $( " + a() + "\n) ]]" },
		func() string { return "! " + a() },
		func() string { return "sh -c " + q(a()) },
		func() string { return "bash -c " + q(a()) },
		func() string { return "eval " + q(a()) },
		func() string { return "find . -maxdepth 0 -exec " + g.pick(leaves...) + " " + g.id() + " {} \\;" },
		func() string { return "( trap " + q(a()) + " EXIT; true )" },
		func() string { return a() + " #'\n" + a() + " #'" },
		func() string { return a() + " #\"\n" + a() },
		func() string { return "echo $'\\'';" + a() + ";#'" },
		func() string { return "bash <<'EOF'\n" + a() + "\nEOF" },
		func() string { return "sh <<< " + q(a()) },
		func() string {
			f := "s" + g.id() + ".sh" // a name of its own, never the one of a script inside
			g.files[f] = a() + "\n"
			return g.pick("source ", ". ./", "bash ") + f
		},
	}
	return forms[g.r.IntN(len(forms))]()
}

// setupStubs makes the scratch directory's bin: recording stubs and the
// real wrappers. It returns the bin directory and the wrappers installed.
func setupStubs(t *testing.T, bin string) map[string]bool {
	t.Helper()
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	stub := "#!/bin/sh\nprintf '%s %s\\n' \"${0##*/}\" \"$1\" >> \"$DIFF_LOG\"\n"
	for _, n := range leaves {
		if err := os.WriteFile(filepath.Join(bin, n), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// sudo and doas run their command as it is: the test runs as whoever
	// it is.
	runAs := "#!/bin/sh\nwhile [ $# -gt 0 ]; do case \"$1\" in -u|-g|-C) shift 2;; -*) shift;; *) break;; esac; done\nexec \"$@\"\n"
	have := map[string]bool{"sudo": true, "doas": true}
	for _, n := range []string{"sudo", "doas"} {
		if err := os.WriteFile(filepath.Join(bin, n), []byte(runAs), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"env", "nice", "nohup", "timeout", "stdbuf", "setsid", "xargs", "find", "sh", "bash", "dash", "true", "false", "sleep"} {
		p, err := exec.LookPath(n)
		if err != nil {
			continue
		}
		if err := os.Symlink(p, filepath.Join(bin, n)); err != nil {
			t.Fatal(err)
		}
		have[n] = true
	}
	return have
}

func TestDifferentialAgainstBash(t *testing.T) {
	bashPath, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	lines, seed := 1500, uint64(26)
	if s := os.Getenv("TODO_SHELL_DIFF_LINES"); s != "" {
		lines, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("TODO_SHELL_DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	if testing.Short() {
		lines = 200
	}
	scratch := t.TempDir()
	bin := filepath.Join(scratch, "bin")
	work := filepath.Join(scratch, "work")
	home := filepath.Join(scratch, "home")
	for _, d := range []string{work, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := &gen{r: rand.New(rand.NewPCG(seed, seed)), have: setupStubs(t, bin), files: map[string]string{}}
	text := make([]string, lines)
	var script strings.Builder
	for i := range text {
		g.line, g.n = i, 0
		text[i] = g.stmt(3)
		f := filepath.Join(scratch, fmt.Sprintf("line%d", i))
		if err := os.WriteFile(f, []byte(text[i]), 0o644); err != nil {
			t.Fatal(err)
		}
		// As the Bash tool runs a command: eval of its text, in a shell of
		// its own (here a subshell), waiting for what it left running.
		fmt.Fprintf(&script, "( eval \"$(< %s)\"; wait ) </dev/null >/dev/null 2>&1\n", bashline.Quote(f))
	}
	for name, body := range g.files {
		if strings.Contains(body, name) {
			t.Fatalf("the script %s runs itself: %q", name, body)
		}
		if err := os.WriteFile(filepath.Join(work, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A guard against a generated line that would run for ever or
	// multiply: every bash the lines start reads BASH_ENV first, and ends
	// itself past a depth no line needs; the whole batch is killed, its
	// process group with it, after two minutes.
	guard := filepath.Join(scratch, "guard.sh")
	if err := os.WriteFile(guard, []byte("[ \"${SHLVL:-0}\" -gt 40 ] && exit 99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(scratch, "log")
	batch := filepath.Join(scratch, "batch.sh")
	if err := os.WriteFile(batch, []byte(script.String()+"wait\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bashPath, batch)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + bin, "HOME=" + home, "DIFF_LOG=" + log, "LANG=C", "BASH_ENV=" + guard, "FUNCNEST=100"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the lines ran for more than two minutes: killed\n%s", out)
	}
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	ran := map[int][][2]string{} // line → (name, id) bash ran
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	total := 0
	for sc.Scan() {
		name, id, _ := strings.Cut(sc.Text(), " ")
		var line, k int
		if _, err := fmt.Sscanf(id, "L%d_%d", &line, &k); err != nil {
			t.Fatalf("a stub ran without an id: %q", sc.Text())
		}
		ran[line] = append(ran[line], [2]string{name, id})
		total++
	}
	f.Close()

	var missed, opaque, judged int
	shown := 0
	for i, l := range text {
		if len(ran[i]) == 0 {
			if shown < 8 && os.Getenv("TODO_SHELL_DIFF_SHOW") != "" {
				shown++
				t.Logf("ran nothing: %s", l)
			}
			continue
		}
		p := New(Config{Dir: work, Home: home})
		parsed := bashline.Commands(l, bashline.Options{ReadFile: p.readScript})
		seen := map[[2]string]bool{}
		blind := parsed.Err != nil || parsed.Opaque != ""
		for _, c := range parsed.Commands {
			if c.Opaque != "" {
				blind = true
			}
			if len(c.Words) > 1 {
				seen[[2]string{path.Base(c.Words[0]), c.Words[1]}] = true
			}
		}
		if blind {
			opaque++
		}
		for _, r := range ran[i] {
			// Judged: a deny rule naming it refuses the line, in
			// bypassPermissions mode; or the checker asks for a line it
			// cannot see through.
			deny, _ := ParseRule("Bash(" + r[0] + " " + r[1] + ":*)")
			d := New(Config{Dir: work, Home: home, Mode: ModeBypass, Deny: []Rule{deny}}).Check("Bash", bash(l))
			switch {
			case seen[r] && d.Verdict == Denied:
				judged++
			case blind && d.Verdict != Allowed:
				judged++
			default:
				missed++
				if missed <= 10 {
					t.Errorf("bash ran %s %s, which the checker did not judge (%v %s):\n%s", r[0], r[1], d.Verdict, d.Why, l)
				}
			}
		}
	}
	t.Logf("%d lines (seed %d), %d commands run by bash: %d judged, %d missed; %d lines the checker could not see through (asked)", lines, seed, total, judged, missed, opaque)
	if len(ran)*10 < lines*9 {
		t.Fatalf("only %d of %d lines ran a command: the stubs or the generator are broken", len(ran), lines)
	}
	if opaque*5 > lines {
		t.Fatalf("%d of %d lines were opaque to the checker: the test would prove little", opaque, lines)
	}
}
