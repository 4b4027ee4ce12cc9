package cmd

import (
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version is set at build time: the Makefile passes
// -ldflags "-X github.com/todo-shell/todo-shell/cmd.Version=$(git describe --tags --always --dirty)".
var Version = ""

func newCmdVersion(o *Options) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print todo-shell's version (also --version)",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := o.Streams.Out.Write([]byte("todo-shell " + version() + "\n"))
			return err
		},
	}
}

// version is Version when the build set it; otherwise what the Go toolchain
// recorded: the module version (go install …@v1.2.3), else the commit it was
// built from (with "-dirty" for uncommitted changes), else "(devel)".
func version() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionFrom(info)
}

func versionFrom(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, when string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "(devel) " + rev
	if dirty {
		v += "-dirty"
	}
	if when != "" {
		v += " " + when
	}
	return v
}
