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
	for _, c := range bashline.Commands(line, bashline.Options{}).Commands {
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
	switch {
	case name == "docker" || name == "podman" || name == "nerdctl":
		return len(args) > 0 && (args[0] == "run" || args[0] == "exec") && tty(args[1:])
	case name == "kubectl" || name == "oc":
		return len(args) > 0 && (args[0] == "exec" || args[0] == "run" || args[0] == "attach") && tty(args[1:])
	}
	if piped {
		return false
	}
	switch {
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		return interpreter(args, "i", "cm", "WXQ", true)
	case name == "node" || name == "nodejs":
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
	case name == "deno" || name == "bun":
		return len(args) == 0 && name == "deno" || len(args) > 0 && args[0] == "repl"
	case name == "ruby" || name == "lua" || name == "luajit" || name == "perl" || name == "php" || name == "julia":
		switch name {
		case "perl":
			if hasShort(args, 'd') {
				return true
			}
		case "php":
			return hasShort(args, 'a')
		}
		return interpreter(args, "i", "eE", "IrlCx", false)
	case name == "R":
		for _, a := range args {
			if a == "-e" || a == "-f" || strings.HasPrefix(a, "--file") || a == "CMD" || a == "--version" || a == "--help" {
				return false
			}
		}
		return true
	case name == "psql":
		for _, a := range args {
			if a == "-c" || strings.HasPrefix(a, "--command") || a == "-f" || strings.HasPrefix(a, "--file") ||
				a == "-l" || a == "--list" || a == "-V" || a == "--version" || a == "-?" || a == "--help" {
				return false
			}
		}
		return true
	case name == "sqlite3":
		valued := map[string]bool{"-cmd": true, "-separator": true, "-newline": true, "-nullvalue": true, "-init": true,
			"-vfs": true, "-mmap": true, "-lookaside": true, "-pagecache": true, "-maxsize": true, "-heap": true}
		i := operand(args, valued)
		for _, a := range args {
			if a == "-version" || a == "--version" || a == "-help" || a == "--help" {
				return false
			}
		}
		return i < 0 || operand(args[i+1:], valued) < 0 // a database, no SQL after it
	case name == "mysql" || name == "mariadb":
		for _, a := range args {
			if strings.HasPrefix(a, "-e") || strings.HasPrefix(a, "--execute") || a == "-V" || a == "--version" || a == "--help" {
				return false
			}
		}
		return true
	case name == "redis-cli" || name == "valkey-cli":
		return operand(args, map[string]bool{"-h": true, "-p": true, "-s": true, "-a": true, "-u": true, "-n": true,
			"-r": true, "-i": true, "-d": true, "--user": true, "--pass": true}) < 0
	case name == "mongosh" || name == "mongo":
		for _, a := range args {
			if a == "--eval" || a == "-f" || a == "--file" || strings.HasSuffix(a, ".js") || a == "--version" || a == "--help" {
				return false
			}
		}
		return true
	case name == "bash" || name == "sh" || name == "zsh" || name == "fish" || name == "dash" || name == "ksh" || name == "mksh":
		for _, a := range args {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, 'c') >= 0 || a == "--version" || a == "--help" {
				return false
			}
		}
		return operand(args, map[string]bool{"-o": true, "+o": true, "-O": true, "+O": true, "--rcfile": true, "--init-file": true}) < 0
	case name == "bc" || name == "dc" || name == "gdb" || name == "lldb" || name == "scala" || name == "sbt" || name == "clj" || name == "clojure" || name == "swift":
		for _, a := range args {
			if a == "--batch" || a == "-batch" || a == "--version" || a == "-v" || a == "-h" || a == "--help" {
				return false
			}
		}
		return name == "gdb" || name == "lldb" || operand(args, nil) < 0
	}
	return false
}

// interpreter reports whether an interpreter's arguments leave it reading
// a program from the terminal: no script operand and none of the options
// in code (which take the program as their value), or an option in
// inter (interactive anyway). Short options in valued take a value.
// scriptAndInter: with -i, a script runs first, then the REPL.
func interpreter(args []string, inter, code, valued string, scriptAndInter bool) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return i+1 >= len(args) || scriptAndInter && hasShort(args[:i], inter[0])
		}
		if a == "-" || len(a) < 2 || a[0] != '-' {
			return scriptAndInter && hasShort(args[:i], inter[0]) // a script
		}
		if a[1] == '-' {
			if a == "--version" || a == "--help" {
				return false
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			switch {
			case strings.IndexByte(inter, c) >= 0:
				return true
			case strings.IndexByte(code, c) >= 0:
				return false
			case c == 'V' || c == 'h' || c == 'v' && len(a) == 2:
				return false
			case strings.IndexByte(valued, c) >= 0:
				if k == len(a)-1 {
					i++ // the value is the next word
				}
				k = len(a)
			}
		}
	}
	return true
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
