package bashline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// optSpec is how a wrapper's options are read before the command it runs:
// short flags, short options with a value, long options (a long option
// with a value takes the next word unless given with =), and operands to
// skip after the options (timeout's duration, chroot's new root).
type optSpec struct {
	flags, valued string
	long          []string
	skip          int
}

// inlineWrappers are the wrappers whose command follows their options.
var inlineWrappers = map[string]optSpec{
	"builtin": {},
	"nohup":   {},
	"exec":    {flags: "cl", valued: "a"},
	"time":    {flags: "pvaqV", valued: "fo", long: []string{"format", "output", "append", "portability", "verbose", "quiet"}},
	"timeout": {flags: "v", valued: "sk", long: []string{"signal", "kill-after", "preserve-status", "foreground", "verbose"}, skip: 1},
	"stdbuf":  {valued: "ioe", long: []string{"input", "output", "error"}},
	"setsid":  {flags: "cfw", long: []string{"ctty", "fork", "wait"}},
	"ionice":  {flags: "t", valued: "cnpPu", long: []string{"class", "classdata", "ignore"}},
	"pkexec":  {long: []string{"user", "disable-internal-agent", "keep-cwd"}},
	"doas":    {flags: "ns", valued: "uC"},
	"chroot":  {long: []string{"userspec", "groups", "skip-chdir"}, skip: 1},
	"xargs": {flags: "0rtpxo", valued: "adEILnPs", long: []string{"null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty",
		"arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var", "show-limits"}},
}

// sudoSpec is sudo's options.
var sudoSpec = optSpec{flags: "AbEHiKklnPSsV", valued: "CDghpRrTtUu", long: []string{"user", "group", "chdir", "host", "prompt", "role", "type",
	"close-from", "other-user", "command-timeout", "preserve-env", "login", "shell", "non-interactive",
	"stdin", "askpass", "background", "set-home", "reset-timestamp", "remove-timestamp", "validate", "list"}}

// unwrapping is one command being looked at as a wrapper: its words after
// the name, whether each is static, and what it adds.
type unwrapping struct {
	r      *resolution
	name   string
	args   []string
	static []bool // static[j] is args[j]'s
	first  int    // the index of args[0] in the command's words
	c      *Command
	lang   syntax.LangVariant // the language of code it runs (sh, zsh…)
}

// at is the index in the command's words of args[j].
func (u *unwrapping) at(j int) int { return u.first + j }

// allStatic reports whether args from j on are all static.
func (u *unwrapping) allStatic(j int) bool {
	for _, s := range u.static[j:] {
		if !s {
			return false
		}
	}
	return true
}

// inner is the context of code the command runs through via.
func (u *unwrapping) inner(via string) *context {
	return &context{wrappers: append(append([]string(nil), u.c.Wrappers...), via), asOther: u.c.AsOther, lang: u.lang}
}

// run returns the function that adds the commands of code run through via
// (ok false: code is not known before the line runs).
func (u *unwrapping) run(code, via string, ok bool) func() {
	w, text, depth := u.r.w, u.r.text, u.r.depth
	ictx := u.inner(via)
	return func() {
		switch {
		case !ok:
			w.add(&Command{Text: text, Wrappers: ictx.wrappers, AsOther: ictx.asOther, Opaque: "the text " + via + " runs is not known before it runs"})
		case depth >= maxDepth:
			w.add(&Command{Text: text, Wrappers: ictx.wrappers, AsOther: ictx.asOther, Opaque: "strings run as code nest too deep"})
		default:
			w.code(code, ictx, depth+1, via)
		}
	}
}

// runner marks the command as one that runs code, and returns more.
func (u *unwrapping) runner(more ...func()) (int, []func()) {
	u.c.Runner = len(more) > 0
	return -1, more
}

// unwrap looks at a command named name at words[i]: for a wrapper that
// runs the command in its words it returns that command's index; else -1,
// and the functions that add the commands it runs from strings or files
// (sh -c, eval, find -exec…), to be called once the command is added.
func (r *resolution) unwrap(name string, words []string, static []bool, i int, c *Command) (int, []func()) {
	u := &unwrapping{r: r, name: name, args: words[i+1:], static: static[i+1:], first: i + 1, c: c, lang: syntax.LangBash}
	if spec, ok := inlineWrappers[name]; ok {
		return u.wrapped(spec)
	}
	switch name {
	case "command":
		return u.commandBuiltin()
	case "nice":
		return u.nice()
	case "sudo":
		return u.sudo()
	case "env":
		return u.env()
	case "eval":
		return u.runner(u.run(strings.Join(u.args, " "), "eval", u.allStatic(0)))
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "posh", "yash":
		u.lang = shellLang(name)
		return u.runner(r.shell(name, u.args, u.static, u.run)...)
	case "su", "runuser":
		return u.su()
	case "source", ".":
		if len(u.args) == 0 {
			return -1, nil
		}
		return u.runner(r.script(u.args[0], u.static[0], name, u.run))
	case "trap":
		return u.trap()
	case "alias":
		return u.alias()
	case "watch":
		return u.watch()
	case "find":
		return -1, r.find(words[i+1:], static[i+1:], c)
	}
	return -1, nil
}

// shellLang is the language a shell named name reads.
func shellLang(name string) syntax.LangVariant {
	switch name {
	case "zsh":
		return syntax.LangZsh
	case "ksh", "mksh":
		return syntax.LangMirBSDKorn
	case "sh", "dash", "ash", "posh", "yash":
		return syntax.LangPOSIX
	}
	return syntax.LangBash
}

// wrapped is the command after an inline wrapper's options.
func (u *unwrapping) wrapped(spec optSpec) (int, []func()) {
	j := options(u.args, spec.flags, spec.valued, spec.long...)
	if j < 0 {
		return -1, nil
	}
	return u.command(j + spec.skip)
}

// command is the command at args[j], if there is one.
func (u *unwrapping) command(j int) (int, []func()) {
	if j >= len(u.args) {
		return -1, nil // nothing to run: the wrapper is the command (xargs alone runs echo)
	}
	return u.at(j), nil
}

// nice is nice -n N, nice -N, nice --adjustment=N.
func (u *unwrapping) nice() (int, []func()) {
	j := 0
	for j < len(u.args) && (u.args[j] == "-n" || strings.HasPrefix(u.args[j], "--adjustment") || isNiceNumber(u.args[j])) {
		if u.args[j] == "-n" {
			j++
		}
		j++
	}
	if j < len(u.args) && u.args[j] == "--" {
		j++
	}
	return u.command(j)
}

// assignments skips NAME=value words from j (whatever the value: env
// PATH=$PATH x), noting the names.
func (u *unwrapping) assignments(j int) int {
	for j < len(u.args) && isAssignment(u.args[j]) {
		u.c.Assigns = append(u.c.Assigns, u.args[j][:strings.IndexByte(u.args[j], '=')])
		j++
	}
	return j
}

// sudo is sudo [options] [NAME=value…] command; sudo -e edits files.
func (u *unwrapping) sudo() (int, []func()) {
	j := options(u.args, sudoSpec.flags, sudoSpec.valued, sudoSpec.long...)
	if j < 0 || hasFlag(u.args[:j], 'e') || containsWord(u.args[:j], "--edit") {
		return -1, nil // sudoedit: the command is sudo itself
	}
	return u.command(u.assignments(j))
}

// env is env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=value…] [command].
func (u *unwrapping) env() (int, []func()) {
	j, split, splitStatic := 0, "", true
	for ; j < len(u.args); j++ {
		a := u.args[j]
		if a == "--" {
			j++
			break
		}
		if a == "-" {
			continue
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		switch {
		case a == "-u" || a == "-C" || a == "--unset" || a == "--chdir":
			j++
		case a == "-S" || a == "--split-string":
			if j+1 < len(u.args) {
				split, splitStatic = u.args[j+1], u.static[j+1]
			}
			j++
		case strings.HasPrefix(a, "--split-string="):
			split = strings.TrimPrefix(a, "--split-string=")
		case strings.HasPrefix(a, "-S"):
			split = a[2:]
		}
	}
	j = u.assignments(j)
	if split == "" {
		return u.command(j)
	}
	rest := []string{split}
	for _, a := range u.args[min(j, len(u.args)):] {
		rest = append(rest, Quote(a))
	}
	return -1, []func(){u.run(strings.Join(rest, " "), "env -S", splitStatic && u.allStatic(min(j, len(u.args))))}
}

// su is su [-c CMD] [user] and runuser -u USER -- command.
func (u *unwrapping) su() (int, []func()) {
	u.c.AsOther = true
	for j, a := range u.args {
		switch {
		case a == "-c" || a == "--command":
			if j+1 >= len(u.args) {
				return -1, nil
			}
			return u.runner(u.run(u.args[j+1], u.name+" -c", u.static[j+1]))
		case strings.HasPrefix(a, "--command="):
			return u.runner(u.run(strings.TrimPrefix(a, "--command="), u.name+" -c", u.static[j]))
		case a == "-u" && u.name == "runuser":
			if k := options(u.args, "", "ugGcsw"); k >= 0 && k < len(u.args) {
				return u.at(k), nil
			}
		}
	}
	return -1, nil
}

// commandBuiltin is the command builtin: command [-p] NAME runs NAME; command
// -v NAME looks a name up.
func (u *unwrapping) commandBuiltin() (int, []func()) {
	j := options(u.args, "pvV", "")
	if j < 0 || hasFlag(u.args[:j], 'v') || hasFlag(u.args[:j], 'V') {
		return -1, nil
	}
	return u.command(j)
}

// trap ARG SIGNAL…: ARG is code run later.
func (u *unwrapping) trap() (int, []func()) {
	j := options(u.args, "lp", "")
	if j < 0 || j+1 >= len(u.args) || u.args[j] == "-" || u.args[j] == "" {
		return -1, nil
	}
	return u.runner(u.run(u.args[j], "trap", u.static[j]))
}

// watch [options] COMMAND…: the words are run by sh -c, again and again.
func (u *unwrapping) watch() (int, []func()) {
	j := options(u.args, "bcdeEfgprtwx", "nqs", "interval", "differences", "chgexit", "errexit", "precise", "no-title", "exec", "color", "beep")
	if j < 0 || j >= len(u.args) {
		return -1, nil
	}
	return u.runner(u.run(strings.Join(u.args[j:], " "), "watch", u.allStatic(j)))
}

// alias NAME=VALUE…: each value is code a later line may run.
func (u *unwrapping) alias() (int, []func()) {
	var more []func()
	for j, a := range u.args {
		if k := strings.IndexByte(a, '='); k > 0 {
			more = append(more, u.run(a[k+1:], "alias", u.static[j]))
		}
	}
	return u.runner(more...)
}
