package permission

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/internal/jsonscan"
)

// part is one command of a Bash call as the policy judges it.
type part struct {
	cmd *bashline.Command
	// risky says why the part asks even under a prefix rule ("" when it
	// does not): only a rule that names the exact command allows it.
	risky string
	// quiet is set when the reason is plain from the command itself (rm,
	// sudo, git push --force): the question does not repeat it.
	quiet bool
	// protected is a protected path the part writes ("" when none): it
	// asks in every mode but bypassPermissions.
	protected, protectedWhy string
	// opaque says why what the part runs is not known.
	opaque string
}

// text is the part as written.
func (pt part) text() string {
	if pt.cmd.Text != "" {
		return pt.cmd.Text
	}
	return strings.Join(pt.cmd.Words, " ")
}

// bashCommand is the command of a Bash input, as encoding/json decodes
// the input into {"command": string} ("" for an input that is not such an
// object: a bad input is the tool's to refuse).
func bashCommand(input json.RawMessage) string {
	if cmd, ok := scanCommand(string(input)); ok {
		return cmd
	}
	var in struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(input, &in)
	return in.Command
}

// errUnusual stops scanCommand at an input it leaves to encoding/json.
var errUnusual = errors.New("not the usual input")

// scanCommand reads the usual Bash input with jsonscan, which accepts
// exactly what encoding/json accepts and decodes strings as it does: an
// object whose "command" members hold strings (the last one counts, as
// for encoding/json). ok is false for anything else — invalid JSON, not
// an object, a "command" that is not a string, or another key that
// encoding/json, matching names without regard to case, could take for
// "command" — which encoding/json then decodes itself.
func scanCommand(s string) (cmd string, ok bool) {
	d := jsonscan.New(s)
	if d.Peek() != '{' {
		return "", false
	}
	err := d.Object(func(key string) error {
		switch {
		case key == "command":
			if d.PeekKind() != jsonscan.KindString {
				return errUnusual
			}
			v, err := d.String()
			cmd = v
			return err
		case strings.EqualFold(key, "command") || !isASCII(key):
			return errUnusual
		}
		return d.Skip()
	})
	if err != nil || d.End() != nil {
		return "", false
	}
	return cmd, true
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// maxScript bounds a script file read to judge `source FILE`.
const maxScript = 64 << 10

// readScript reads a script the line runs, relative to the working
// directory: a regular file of at most maxScript bytes.
func (p *Policy) readScript(name string) (string, error) {
	if strings.HasPrefix(name, "~/") && p.home != "" {
		name = filepath.Join(p.home, name[2:])
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(p.dir, name)
	}
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }() // only read
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScript {
		return "", fmt.Errorf("%s: not a small regular file", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxScript+1))
	if err != nil || len(b) > maxScript {
		return "", fmt.Errorf("%s: not a small regular file", name)
	}
	return string(b), nil
}

// parts appends the commands of a Bash line to out, with what makes each
// risky.
func (p *Policy) parts(line bashline.Line, out []part) []part {
	for i := range line.Commands {
		c := &line.Commands[i]
		out = append(out, part{cmd: c, opaque: c.Opaque})
		if pt := &out[len(out)-1]; pt.opaque == "" {
			pt.risky = p.risk(c, line.ChangesDir, pt)
		}
	}
	if line.Opaque != "" {
		out = append(out, part{cmd: &bashline.Command{}, opaque: line.Opaque})
	}
	for _, a := range line.Assigns {
		if dangerousVar(a) {
			out = append(out, part{cmd: &bashline.Command{Text: a + "=…"}, risky: "sets " + a + ", which changes what later commands run"})
		}
	}
	return out
}

// riskNotes collects why a command asks even under a prefix rule.
type riskNotes struct {
	p          *Policy
	pt         *part
	changesDir bool
	why        []string
	loud       bool // a reason the command does not make plain
}

// note adds a reason.
func (n *riskNotes) note(s string) {
	if s != "" && !slices.Contains(n.why, s) {
		n.why = append(n.why, s)
	}
}

// write judges a file the command writes.
func (n *riskNotes) write(target string, static bool) {
	prot, protWhy, w := n.p.writeRisk(target, static, n.changesDir)
	if prot != "" && n.pt.protected == "" {
		n.pt.protected, n.pt.protectedWhy = prot, protWhy
	}
	n.loud = n.loud || w != "" || prot != ""
	n.note(w)
}

// risk says why a command asks even under a prefix rule, or "". It also
// notes a protected path the command writes in pt.
func (p *Policy) risk(c *bashline.Command, changesDir bool, pt *part) string {
	n := &riskNotes{p: p, pt: pt, changesDir: changesDir}
	for _, w := range c.Writes {
		n.write(w.Path, w.Static)
	}
	for _, a := range c.Assigns {
		if dangerousVar(a) {
			n.loud = true
			n.note("sets " + a + ", which changes what the command runs")
		}
	}
	if c.AsOther {
		n.note("runs as another user")
	}
	if len(c.Words) > 0 && c.Static[0] {
		n.command(path.Base(c.Words[0]), c.Words[1:], c.Static[1:])
	}
	pt.quiet = !n.loud
	return strings.Join(n.why, "; ")
}

// command notes what makes a command risky by its name and arguments.
func (n *riskNotes) command(name string, args []string, static []bool) {
	switch name {
	case "rm", "rmdir", "shred", "unlink", "truncate", "dd", "srm", "wipe":
		n.note(name + " deletes or overwrites files")
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		n.note(name + " changes who may use files")
	case "find":
		n.find(args)
	case "sed", "perl":
		n.inPlace(name, args, static)
	case "tee":
		n.tee(args, static)
	case "cp", "mv", "install", "rsync", "ln":
		n.copies(name, args, static)
	case "git":
		n.note(gitRisk(args))
	case "hash", "enable":
		n.note(name + " changes which program a name runs")
	case "sudoedit":
		n.note("sudoedit edits files as another user")
	}
	if name == "mkfs" || strings.HasPrefix(name, "mkfs.") {
		n.note(name + " overwrites a file system")
	}
	for i, a := range args {
		if out, ok := outputFlag(name, args, i); ok {
			n.note(a + " writes a file")
			if out != "" {
				n.write(out, static[min(i+1, len(static)-1)])
			}
		}
	}
}

// tee judges the files tee writes.
func (n *riskNotes) tee(args []string, static []bool) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") || a == "-" {
			n.write(a, static[i])
		}
	}
}

// copies judges where cp, mv, install, rsync and ln write; ln -s asks.
func (n *riskNotes) copies(name string, args []string, static []bool) {
	if name == "ln" && (hasShort(args, 's') || slices.Contains(args, "--symbolic")) {
		n.note("ln -s makes a link that a later write can follow")
	}
	if dest, ok := destination(args, static); dest != "" || !ok {
		n.write(dest, ok)
	}
}

// find notes find's actions that delete or write files.
func (n *riskNotes) find(args []string) {
	for _, a := range args {
		switch a {
		case "-delete":
			n.note("find -delete deletes files")
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			n.note("find " + a + " writes a file")
		}
	}
}

// inPlace notes sed -i and perl -i, and the files they rewrite.
func (n *riskNotes) inPlace(name string, args []string, static []bool) {
	for _, a := range args {
		if a == "--in-place" || strings.HasPrefix(a, "--in-place=") ||
			len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], 'i') >= 0 {
			n.note(name + " -i rewrites files in place")
			for _, f := range editedFiles(args, static) {
				n.write(f.path, f.static)
			}
			return
		}
	}
}

// operand is a word of a command that names a file.
type operand struct {
	path   string
	static bool
}

// editedFiles are the files sed -i or perl -i rewrites: the operands after
// the script (the first operand, unless -e or -f gave it).
func editedFiles(args []string, static []bool) []operand {
	var out []operand
	script := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "-f" || a == "-E" || a == "--expression" || a == "--file":
			script = true
			i++
		case strings.HasPrefix(a, "--expression=") || strings.HasPrefix(a, "--file="):
			script = true
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if c := a[len(a)-1]; c == 'e' || c == 'f' || c == 'E' { // -ne SCRIPT, -pie CODE
				script = true
				i++
			}
		case !script:
			script = true // the script itself
		default:
			out = append(out, operand{a, static[i]})
		}
	}
	return out
}

// outputFlag reports whether args[i] makes the command write a file (the
// kin of --output), and the file when it is in the same or the next word.
func outputFlag(name string, args []string, i int) (string, bool) {
	a := args[i]
	if !strings.HasPrefix(a, "--") && name != "sort" && name != "curl" && name != "wget" && name != "uniq" {
		return "", false
	}
	next := func() string {
		if i+1 < len(args) {
			return args[i+1]
		}
		return ""
	}
	long, v, hasValue := strings.Cut(a, "=")
	switch long {
	case "--output", "--output-file", "--output-document", "--outfile", "--out-file", "--log-file", "--logfile", "--result-file":
		if hasValue {
			return v, true
		}
		return next(), true
	}
	switch name {
	case "sort", "curl", "wget", "uniq":
		if a == "-o" || (name == "wget" && (a == "-O" || a == "-a")) {
			return next(), true
		}
		if name == "curl" && (a == "-O" || a == "--remote-name" || a == "--remote-name-all") {
			return "", true
		}
	}
	return "", false
}

// destination is where cp, mv, install, rsync and ln write: -t DIR,
// --target-directory=DIR, or the last operand. ok is false when it is not
// static.
func destination(args []string, static []bool) (string, bool) {
	last, lastOK := "", true
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-t" || a == "--target-directory":
			if i+1 < len(args) {
				return args[i+1], static[i+1]
			}
		case strings.HasPrefix(a, "--target-directory="):
			return strings.TrimPrefix(a, "--target-directory="), static[i]
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			last, lastOK = a, static[i]
			operands++
		}
	}
	if operands < 2 {
		return "", true
	}
	if strings.Contains(last, ":") && !strings.HasPrefix(last, "/") && !strings.HasPrefix(last, ".") {
		return "", true // host:path, another machine's
	}
	return last, lastOK
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

// gitRisk says why a git command asks even under a prefix rule, or "".
func gitRisk(args []string) string {
	args, why := gitGlobals(args)
	if why != "" || len(args) == 0 {
		return why
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "push":
		for _, a := range rest {
			if forcePush(a) {
				return "git push " + a + " overwrites or deletes remote history"
			}
		}
	case "reset":
		if slices.Contains(rest, "--hard") {
			return "git reset --hard throws changes away"
		}
	case "clean":
		return "git clean deletes files"
	case "config":
		if !gitConfigReads(rest) {
			return "git config changes settings that can run commands"
		}
	}
	return ""
}

// forcePush reports whether an argument of git push overwrites or deletes
// what the remote has.
func forcePush(a string) bool {
	switch {
	case a == "-f" || a == "--force" || strings.HasPrefix(a, "--force-with-lease") || a == "--force-if-includes",
		a == "--mirror" || a == "--delete" || a == "-d" || hasShort([]string{a}, 'f'):
		return true
	}
	return !strings.HasPrefix(a, "-") && (strings.HasPrefix(a, "+") || strings.HasPrefix(a, ":"))
}

// gitGlobals skips git's global options, saying why one of them asks
// (-c with a key that can run a command, --exec-path).
func gitGlobals(args []string) ([]string, string) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		args = args[1:]
		if strings.HasPrefix(a, "--exec-path=") || strings.HasPrefix(a, "--config-env") {
			return nil, "git " + a + " may run a command"
		}
		switch a {
		case "-c":
			if len(args) > 0 && !safeGitConfig(args[0]) {
				return nil, "git -c " + args[0] + " may run a command"
			}
			fallthrough
		case "-C", "--git-dir", "--work-tree", "--namespace", "--exec-path":
			if len(args) > 0 {
				args = args[1:]
			}
		}
	}
	return args, ""
}

// safeGitConfig reports whether git -c KEY=VALUE sets a key that runs
// nothing.
func safeGitConfig(kv string) bool {
	k := strings.ToLower(kv)
	for _, p := range []string{"user.", "color.", "advice.", "init.defaultbranch", "core.quotepath", "core.autocrlf", "log.", "format.pretty", "safe.directory", "commit.gpgsign=false", "tag.gpgsign=false"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// gitConfigReads reports whether git config's arguments only read.
func gitConfigReads(args []string) bool {
	operands := 0
	for _, a := range args {
		switch {
		case a == "--get" || a == "--get-all" || a == "--get-regexp" || a == "--list" || a == "-l" ||
			a == "--get-urlmatch" || a == "--get-color" || a == "--get-colorbool" || strings.HasPrefix(a, "--show-"):
			return true
		case a == "get" || a == "list":
			return operands == 0
		case !strings.HasPrefix(a, "-"):
			operands++
		}
	}
	return operands < 2
}

// dangerousVar reports whether setting a variable changes which program
// runs or what it runs: PATH, LD_PRELOAD, BASH_ENV, PAGER, GIT_SSH…
func dangerousVar(name string) bool {
	switch name {
	case "PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "IFS", "CDPATH", "GLOBIGNORE",
		"PAGER", "MANPAGER", "EDITOR", "VISUAL", "BROWSER", "SHELL", "HOME", "XDG_CONFIG_HOME", "ZDOTDIR",
		"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB", "PERLLIB",
		"RUBYOPT", "RUBYLIB", "LESSOPEN", "LESSCLOSE", "GCONV_PATH", "SSH_ASKPASS", "SUDO_ASKPASS", "TERMINFO":
		return true
	}
	for _, p := range []string{"LD_", "DYLD_", "GIT_", "BASH_FUNC_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return strings.HasSuffix(name, "_PAGER") || strings.HasSuffix(name, "_EDITOR")
}

// writeRisk judges a file a command writes: the protected path it is (and
// what it is), or why writing it asks even under a prefix rule.
func (p *Policy) writeRisk(target string, static, changesDir bool) (protected, what, risky string) {
	if !static {
		return "", "", "writes a file whose name is known only when it runs: " + target
	}
	if target == "" || target == "/dev/null" || target == "/dev/stdout" || target == "/dev/stderr" || target == "/dev/tty" ||
		strings.HasPrefix(target, "/dev/fd/") {
		return "", "", ""
	}
	t := target
	if t == "~" || strings.HasPrefix(t, "~/") {
		if p.home == "" {
			return "", "", "writes under a home directory that is not known: " + target
		}
		t = filepath.Join(p.home, strings.TrimPrefix(t[1:], "/"))
	}
	if !filepath.IsAbs(t) && changesDir {
		if prot, what := p.protectedName(t); prot {
			return target, what, ""
		}
		return "", "", "writes " + target + " after changing directory"
	}
	abs := p.resolve(t)
	if prot, what := p.Protected(abs); prot {
		return p.display(abs), what, ""
	}
	if !within(abs, p.dir) {
		return "", "", "writes outside the working directory: " + abs
	}
	return "", "", ""
}

// Protected reports whether abs (absolute, symbolic links resolved) is a
// path the agent may not write without asking in any mode but
// bypassPermissions, and what it is: todo-shell's own settings, a git
// repository's insides (hooks, config), a shell start-up file, ~/.ssh.
func (p *Policy) Protected(abs string) (bool, string) {
	for _, dir := range p.configDirs {
		if within(abs, dir) {
			return true, "todo-shell's own settings"
		}
	}
	if p.home != "" {
		home := p.home
		if h, err := filepath.EvalSymlinks(home); err == nil {
			home = h
		}
		if within(abs, filepath.Join(home, ".ssh")) {
			return true, "ssh's keys and settings"
		}
		if filepath.Dir(abs) == home && startupFile(filepath.Base(abs)) {
			return true, "a shell start-up file"
		}
		if within(abs, filepath.Join(home, ".config", "fish")) {
			return true, "a shell start-up file"
		}
	}
	if abs == "/etc/profile" || abs == "/etc/bash.bashrc" || abs == "/etc/zshrc" || abs == "/etc/zsh/zshrc" || within(abs, "/etc/profile.d") {
		return true, "a shell start-up file"
	}
	return p.protectedName(abs)
}

// protectedName judges a path by its names alone: a .todo-shell or .git
// directory anywhere in it, a shell start-up file's name.
func (p *Policy) protectedName(name string) (bool, string) {
	parts := strings.Split(filepath.ToSlash(name), "/")
	for i, d := range parts {
		if i == len(parts)-1 && d != ".git" && d != ".todo-shell" {
			break
		}
		switch d {
		case ".todo-shell":
			return true, "todo-shell's own settings"
		case ".git":
			return true, "a git repository's insides (hooks, config)"
		}
	}
	if !filepath.IsAbs(name) && startupFile(path.Base(name)) {
		return true, "a shell start-up file"
	}
	return false, ""
}

// startupFile reports whether a file in a home directory is read by a
// shell as it starts (or ends).
func startupFile(base string) bool {
	switch base {
	case ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".bash_aliases", ".bash_env",
		".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".inputrc":
		return true
	}
	return false
}
