// Package interactive decides which command lines need the terminal: full
// screen programs, pagers, editors, remote shells, and REPLs run as REPLs.
// The shell hands the terminal over to those instead of running them with
// an empty stdin and captured output.
//
// A REPL is known by what the program is and how its arguments run it, not
// by its arguments being empty: `python3 -q`, `node --inspect` and
// `psql -d db` get the terminal; `python3 script.py`, `node -e …` and
// `psql -c …` do not, nor does a REPL whose input is a pipe or a file. The
// line is read with bash's grammar (bashline), so the program is found
// wherever it stands (`FOO=1 sudo htop`, `make && ssh host`).
package interactive

import (
	"path"
	"strings"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// Always lists programs that need the terminal whatever their arguments.
var Always = []string{
	"vi", "vim", "nvim", "view", "vimdiff", "nano", "pico", "emacs", "micro", "hx", "helix", "kak", "joe", "mcedit",
	"less", "more", "most", "man", "info",
	"top", "htop", "btop", "atop", "glances", "nmon", "iotop",
	"ssh", "mosh", "telnet", "tmux", "screen", "fzf", "tig", "lazygit", "ranger", "nnn", "mc", "watch",
	"irb", "ghci", "utop", "jshell", "iex", "erl", "ipython", "bpython", "ptpython", "pgcli", "mycli", "litecli",
	"ftp", "sftp", "tclsh", "wish", "guile", "racket", "sbcl", "octave",
}

// Detector tells interactive lines apart.
type Detector struct {
	always map[string]bool
}

// New returns a Detector over the default list plus extra, a list of
// program names separated by blanks, commas or colons (the value of
// TODO_SHELL_INTERACTIVE).
func New(extra string) *Detector {
	d := &Detector{always: map[string]bool{}}
	for _, n := range Always {
		d.always[n] = true
	}
	for _, n := range strings.FieldsFunc(extra, func(r rune) bool { return r == ' ' || r == ',' || r == ':' || r == '\t' }) {
		d.always[n] = true
	}
	return d
}

// Needs reports whether a command line runs a program that needs the
// terminal, in any of its commands.
func (d *Detector) Needs(line string) bool {
	cmds := bashline.Commands(line, bashline.Options{}).Commands
	for i := range cmds {
		c := &cmds[i]
		if len(c.Words) == 0 || !c.Static[0] {
			continue
		}
		name, args := path.Base(c.Words[0]), c.Words[1:]
		if d.always[name] || repl(name, args, c.Piped) {
			return true
		}
		if name == "git" && gitAsks(gitSubcommand(args)) {
			return true // opens an editor or asks
		}
	}
	return false
}

// repl reports whether a program that can be a REPL is run as one: by
// what the program is and how its arguments run it. A REPL whose input is
// a pipe or a file (piped) reads that instead.
func repl(name string, args []string, piped bool) bool {
	if asks, ok := ttyFlags[name]; ok {
		return asks(args)
	}
	if piped {
		return false
	}
	if strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy") {
		return interpreter(args, "i", "cm", "WXQ", true)
	}
	if asks, ok := repls[name]; ok {
		return asks(args)
	}
	return false
}

// ttyFlags are programs that ask for a terminal with flags (-it).
var ttyFlags = map[string]func(args []string) bool{
	"docker":  containerTTY("run", "exec"),
	"podman":  containerTTY("run", "exec"),
	"nerdctl": containerTTY("run", "exec"),
	"kubectl": containerTTY("exec", "run", "attach"),
	"oc":      containerTTY("exec", "run", "attach"),
}

// containerTTY: a subcommand among subs given -t and -i.
func containerTTY(subs ...string) func([]string) bool {
	return func(args []string) bool {
		if len(args) == 0 {
			return false
		}
		for _, s := range subs {
			if args[0] == s {
				return tty(args[1:])
			}
		}
		return false
	}
}

// repls are the programs that are REPLs unless their arguments give them
// something else to run, each with how to tell.
var repls = map[string]func(args []string) bool{
	"node":       node,
	"nodejs":     node,
	"deno":       func(a []string) bool { return len(a) == 0 || a[0] == "repl" },
	"bun":        func(a []string) bool { return len(a) > 0 && a[0] == "repl" },
	"ruby":       script,
	"lua":        script,
	"luajit":     script,
	"julia":      script,
	"perl":       func(a []string) bool { return hasShort(a, 'd') || script(a) },
	"php":        func(a []string) bool { return hasShort(a, 'a') },
	"R":          noneOf("-e", "-f", "--file", "CMD", "--version", "--help"),
	"psql":       noneOf("-c", "--command", "-f", "--file", "-l", "--list", "-V", "--version", "-?", "--help"),
	"mysql":      noneOf("-e", "--execute", "-V", "--version", "--help"),
	"mariadb":    noneOf("-e", "--execute", "-V", "--version", "--help"),
	"mongosh":    mongo,
	"mongo":      mongo,
	"sqlite3":    sqlite,
	"redis-cli":  redis,
	"valkey-cli": redis,
	"bash":       shell,
	"sh":         shell,
	"zsh":        shell,
	"fish":       shell,
	"dash":       shell,
	"ksh":        shell,
	"mksh":       shell,
	"gdb":        noneOf("--batch", "-batch", "--version", "-v", "-h", "--help"),
	"lldb":       noneOf("--batch", "-batch", "--version", "-v", "-h", "--help"),
	"bc":         bare,
	"dc":         bare,
	"scala":      bare,
	"sbt":        bare,
	"clj":        bare,
	"clojure":    bare,
	"swift":      bare,
}

// script: no script operand and no -e: the program comes from the
// terminal; -i: a REPL.
func script(args []string) bool { return interpreter(args, "i", "eE", "IrlCx", false) }

// bare: a REPL when it has no operand.
func bare(args []string) bool {
	return noneOf("--version", "-v", "-h", "--help")(args) && operand(args, nil) < 0
}

// noneOf: a REPL unless one of these options (or its --opt=value form) is given.
func noneOf(opts ...string) func([]string) bool {
	return func(args []string) bool {
		for _, a := range args {
			for _, o := range opts {
				if a == o || strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"=") || o == "-e" && strings.HasPrefix(a, "-e") {
					return false
				}
			}
		}
		return true
	}
}

// node: -i is a REPL; -e, -p, -c, --test or a script are not.
func node(args []string) bool {
	for _, a := range args {
		switch a {
		case "-i", "--interactive":
			return true
		case "-e", "--eval", "-p", "--print", "-c", "--check", "-v", "--version", "-h", "--help", "--test", "--run":
			return false
		}
	}
	return operand(args, map[string]bool{"-r": true, "--require": true, "--import": true, "--loader": true,
		"--experimental-loader": true, "-C": true, "--conditions": true, "--env-file": true, "--title": true}) < 0
}

// mongo: --eval, -f or a .js script run and end.
func mongo(args []string) bool {
	for _, a := range args {
		if a == "--eval" || a == "-f" || a == "--file" || strings.HasSuffix(a, ".js") || a == "--version" || a == "--help" {
			return false
		}
	}
	return true
}

// sqlite: a database and no SQL after it.
func sqlite(args []string) bool {
	valued := map[string]bool{"-cmd": true, "-separator": true, "-newline": true, "-nullvalue": true, "-init": true,
		"-vfs": true, "-mmap": true, "-lookaside": true, "-pagecache": true, "-maxsize": true, "-heap": true}
	if !noneOf("-version", "--version", "-help", "--help")(args) {
		return false
	}
	i := operand(args, valued)
	return i < 0 || operand(args[i+1:], valued) < 0
}

// redis: no command after the options.
func redis(args []string) bool {
	return operand(args, map[string]bool{"-h": true, "-p": true, "-s": true, "-a": true, "-u": true, "-n": true,
		"-r": true, "-i": true, "-d": true, "--user": true, "--pass": true}) < 0
}

// shell: no -c and no script.
func shell(args []string) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, 'c') >= 0 || a == "--version" || a == "--help" {
			return false
		}
	}
	return operand(args, map[string]bool{"-o": true, "+o": true, "-O": true, "+O": true, "--rcfile": true, "--init-file": true}) < 0
}

// interpreter reports whether an interpreter's arguments leave it reading
// a program from the terminal: no script operand and none of the options
// in code (which take the program as their value), or an option in
// inter (interactive anyway). Short options in valued take a value.
// scriptAndInter: with -i, a script runs first, then the REPL.
func interpreter(args []string, inter, code, valued string, scriptAndInter bool) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return i+1 >= len(args) || scriptAndInter && hasShort(args[:i], inter[0])
		case a == "-" || len(a) < 2 || a[0] != '-':
			return scriptAndInter && hasShort(args[:i], inter[0]) // a script
		case a == "--version" || a == "--help":
			return false
		case a[1] == '-':
			continue
		}
		verdict, decided, takesNext := cluster(a, inter, code, valued)
		if decided {
			return verdict
		}
		if takesNext {
			i++
		}
	}
	return true
}

// cluster reads a cluster of short options (-qX): whether it decides
// (interactive, or given a program), and whether its last option takes the
// next word as its value.
func cluster(a, inter, code, valued string) (verdict, decided, takesNext bool) {
	for k := 1; k < len(a); k++ {
		c := a[k]
		switch {
		case strings.IndexByte(inter, c) >= 0:
			return true, true, false
		case strings.IndexByte(code, c) >= 0:
			return false, true, false
		case c == 'V' || c == 'h' || c == 'v' && len(a) == 2:
			return false, true, false
		case strings.IndexByte(valued, c) >= 0:
			return false, false, k == len(a)-1
		}
	}
	return false, false, false
}

// operand returns the index of args' first operand (not an option, nor an
// option's value per valued), or -1.
func operand(args []string, valued map[string]bool) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			return i
		}
		if valued[a] {
			i++
		}
	}
	return -1
}

// tty reports whether docker/kubectl-style options ask for a terminal
// (-t with -i: -it, -ti, --tty --interactive).
func tty(args []string) bool {
	t, i := false, false
	for _, a := range args {
		switch {
		case a == "--tty":
			t = true
		case a == "--interactive" || a == "--stdin":
			i = true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			t = t || strings.IndexByte(a, 't') >= 0
			i = i || strings.IndexByte(a, 'i') >= 0
		case !strings.HasPrefix(a, "-"):
			return t && i
		}
	}
	return t && i
}

// hasShort reports whether a short option cluster among args holds f.
func hasShort(args []string, f byte) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], f) >= 0 {
			return true
		}
	}
	return false
}

// gitAsks reports whether a git subcommand with its arguments (words, the
// subcommand first) opens an editor or asks questions.
func gitAsks(words []string) bool {
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "add":
		return hasFlag(words[1:], "-p", "--patch", "-i", "--interactive")
	case "commit":
		return !hasFlag(words[1:], "-m", "--message", "-F", "--file", "--no-edit", "-C", "--reuse-message", "--fixup")
	}
	return false
}

// gitValued reports whether a global option of git may take the next word
// as its value.
func gitValued(opt string) bool {
	switch opt {
	case "-c", "-C", "--git-dir", "--work-tree", "--namespace":
		return true
	}
	return false
}

// gitSubcommand returns git's arguments (words, after "git") from its
// subcommand on, past the global options: `git -c user.name=t -C dir
// --git-dir=.git commit` runs commit.
func gitSubcommand(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "-") {
		w := words[0]
		words = words[1:]
		if w == "--" {
			break
		}
		if gitValued(w) && len(words) > 0 { // `-c k=v`, `--git-dir dir`; `--git-dir=dir` is one word
			words = words[1:]
		}
	}
	return words
}

func hasFlag(words []string, flags ...string) bool {
	for _, w := range words {
		for _, f := range flags {
			if w == f || strings.HasPrefix(w, f+"=") || (len(f) == 2 && strings.HasPrefix(w, f) && !strings.HasPrefix(w, "--")) {
				return true
			}
		}
	}
	return false
}
