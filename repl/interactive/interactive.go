// Package interactive decides which command lines need the terminal: full
// screen programs, pagers, editors, remote shells and REPLs run with no
// arguments. The shell hands the terminal over to those instead of running
// them with an empty stdin and captured output.
package interactive

import (
	"path/filepath"
	"strings"
)

// Always lists programs that need the terminal whatever their arguments.
var Always = []string{
	"vi", "vim", "nvim", "view", "vimdiff", "nano", "pico", "emacs", "micro", "hx", "helix", "kak", "joe", "mcedit",
	"less", "more", "most", "man", "info",
	"top", "htop", "btop", "atop", "glances", "nmon", "iotop",
	"ssh", "mosh", "telnet", "tmux", "screen", "fzf", "tig", "lazygit", "ranger", "nnn", "mc", "watch",
}

// Bare lists programs (mostly REPLs) that need the terminal when run with
// no arguments.
var Bare = []string{
	"python", "python3", "ipython", "node", "deno", "bun", "irb", "ruby", "ghci", "lua", "R",
	"psql", "sqlite3", "mysql", "redis-cli", "mongosh", "bash", "sh", "zsh", "fish", "bc",
}

// Detector tells interactive lines apart.
type Detector struct {
	always map[string]bool
	bare   map[string]bool
}

// New returns a Detector over the default lists plus extra, a list of
// program names separated by blanks, commas or colons (the value of
// TODO_SHELL_INTERACTIVE).
func New(extra string) *Detector {
	d := &Detector{always: map[string]bool{}, bare: map[string]bool{}}
	for _, n := range Always {
		d.always[n] = true
	}
	for _, n := range Bare {
		d.bare[n] = true
	}
	for _, n := range strings.FieldsFunc(extra, func(r rune) bool { return r == ' ' || r == ',' || r == ':' || r == '\t' }) {
		d.always[n] = true
	}
	return d
}

// Needs reports whether a command line runs a program that needs the
// terminal, in any of its pipelines' or lists' commands.
func (d *Detector) Needs(line string) bool {
	for _, cmd := range commands(line) {
		words := strings.Fields(cmd)
		// Skip what runs the program: assignments and wrappers.
		for len(words) > 0 && (strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "=") ||
			words[0] == "sudo" || words[0] == "exec" || words[0] == "command" || words[0] == "env" ||
			words[0] == "time" || words[0] == "nice" || words[0] == "(" || words[0] == "{") {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		name := filepath.Base(strings.Trim(words[0], `"'(`))
		if d.always[name] {
			return true
		}
		if d.bare[name] && len(words) == 1 {
			return true
		}
		if name == "git" && gitAsks(gitSubcommand(words[1:])) {
			return true // opens an editor or asks
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

// commands splits a line at |, ;, &, && and || and newlines outside quotes.
func commands(line string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '|' || c == ';' || c == '&' || c == '\n':
			out = append(out, line[start:i])
			start = i + 1
		}
	}
	return append(out, line[start:])
}
