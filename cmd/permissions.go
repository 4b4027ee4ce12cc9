package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/todo-shell/todo-shell/internal/permission"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools"
)

// permissionFlags are the agent's permission flags, by Claude Code's names.
type permissionFlags struct {
	Allowed, Disallowed []string
	Mode                string
	SkipPermissions     bool // --dangerously-skip-permissions
}

// newPolicy builds the agent's permission policy: the settings files'
// rules (the user's, then the project's), then the flags'; the mode from
// --permission-mode, or bypass with --dangerously-skip-permissions (said on
// stderr at start).
func newPolicy(o *Options, f permissionFlags, exec *tools.Executor) (*permission.Policy, error) {
	mode, err := permission.ParseMode(f.Mode)
	if err != nil {
		return nil, &UsageError{err}
	}
	if f.SkipPermissions {
		mode = permission.ModeBypass
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("permissions: the working directory: %w", err)
	}
	var allow, ask, deny []permission.Rule
	for _, path := range permission.SettingsPaths(dir, o.Getenv) {
		data, err := readgate.ReadFile(path, readgate.SmallFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("settings: %w", err)
		}
		a, q, d, err := permission.ParseSettings(data)
		if err != nil {
			return nil, fmt.Errorf("settings %s: %w", path, err)
		}
		allow, ask, deny = append(allow, a...), append(ask, q...), append(deny, d...)
	}
	a, err := permission.ParseRules(f.Allowed)
	if err != nil {
		return nil, &UsageError{fmt.Errorf("--allowedTools: %w", err)}
	}
	d, err := permission.ParseRules(f.Disallowed)
	if err != nil {
		return nil, &UsageError{fmt.Errorf("--disallowedTools: %w", err)}
	}
	allow, deny = append(allow, a...), append(deny, d...)
	if mode == permission.ModeBypass {
		fmt.Fprintln(o.Streams.ErrOut, "todo-shell: --dangerously-skip-permissions: every tool call runs without asking (deny rules still hold)")
	}
	configDir := ""
	if paths := permission.SettingsPaths(dir, o.Getenv); len(paths) > 1 {
		configDir = filepath.Dir(paths[0]) // $XDG_CONFIG_HOME/todo-shell
	}
	return permission.New(permission.Config{
		Allow: allow, Ask: ask, Deny: deny, Mode: mode, Dir: dir, Home: permission.Home(o.Getenv), ConfigDir: configDir,
		ReadOnly: func(name string) bool {
			def, ok := exec.Lookup(name)
			return ok && def.ReadOnly
		},
	}), nil
}
