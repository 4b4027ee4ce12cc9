package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// The real agent CLIs, installed from npm, run here against the scripted
// fake model API of internal/plan/testdata/record, on 127.0.0.1 only, in a
// network namespace of their own (loopback and nothing else) when the
// system allows one to be made: a process of this test binary is started
// in a new namespace (as root, or mapped to root in a new user namespace),
// brings its loopback up, starts the fake API there and runs the CLI with
// its standard streams (a pipe, or tmux's terminal). Nothing can leave the
// machine; without a namespace the fake API still listens on 127.0.0.1
// only.
//
// .ci/run installs the CLIs at pinned versions into .ci/tools
// (npm install --prefix .ci/tools); TODO_SHELL_CLAUDE, TODO_SHELL_CODEX and
// TODO_SHELL_GEMINI name other executables. A test whose CLI is missing is
// skipped, and fails under CI.

// Environment variables that make this test binary a helper process.
const (
	envOuter = "TODO_SHELL_E2E_CLI_OUTER" // a run's config file: make the namespace, then be the inner one
	envInner = "TODO_SHELL_E2E_CLI_INNER" // a run's config file: in the namespace, serve and run the CLI
)

// cliRun is one run of an agent CLI against the fake API.
type cliRun struct {
	Record  string   `json:"record"` // the fake API's executable
	Script  string   `json:"script"` // its script
	LogDir  string   `json:"log"`    // where it keeps each request
	HoldDir string   `json:"hold"`   // "" or where it waits before each turn
	Command []string `json:"command"`
	Env     []string `json:"env"` // NAME=value; {{URL}} is the fake API's address
	Dir     string   `json:"dir"`
	Note    string   `json:"note"` // a file the helper says how it ran in
}

// runCLIHelper runs this process as a helper when the environment says
// so, and reports its exit code.
func runCLIHelper() (int, bool) {
	if os.Getenv(envOuter) != "" || os.Getenv(envInner) != "" {
		// A signal from the terminal (Ctrl+C, a hang-up) is for the CLI:
		// the helpers wait for it to end, so nothing of it outlives them.
		signal.Notify(make(chan os.Signal, 1), syscall.SIGINT, syscall.SIGQUIT, syscall.SIGHUP, syscall.SIGTERM)
	}
	if cfg := os.Getenv(envOuter); cfg != "" {
		return outerHelper(cfg), true
	}
	if cfg := os.Getenv(envInner); cfg != "" {
		return innerHelper(cfg), true
	}
	return 0, false
}

// outerHelper starts this binary again in a network namespace of its own
// with the same standard streams, and waits for it. When the system makes
// no namespace (no root, no user namespaces), it runs it without one and
// says so in the run's note.
func outerHelper(cfg string) int {
	var run cliRun
	if b, err := os.ReadFile(cfg); err == nil {
		_ = json.Unmarshal(b, &run)
	}
	env := append(os.Environ(), envInner+"="+cfg, envOuter+"=")
	start := func(attr *syscall.SysProcAttr) (*exec.Cmd, error) {
		cmd := exec.Command(os.Args[0])
		cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
		cmd.SysProcAttr = attr
		return cmd, cmd.Start()
	}
	how := "netns"
	attr := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	if os.Getuid() != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		how = "userns+netns"
	}
	cmd, err := start(attr)
	if err != nil {
		how = "host loopback (no network namespace: " + err.Error() + ")"
		if cmd, err = start(nil); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 125
		}
	}
	if run.Note != "" {
		_ = os.WriteFile(run.Note, []byte(how), 0o600)
	}
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		return 125
	}
	return 0
}

// loopbackUp brings the loopback interface of this network namespace up.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// innerHelper serves the fake API on a free loopback port and runs the CLI.
func innerHelper(cfg string) int {
	var run cliRun
	b, err := os.ReadFile(cfg)
	if err == nil {
		err = json.Unmarshal(b, &run)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 125
	}
	_ = loopbackUp() // already up outside a namespace
	port, err := freePort()
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 125
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	args := []string{"-script", run.Script, "-addr", addr, "-log", run.LogDir}
	if run.HoldDir != "" {
		args = append(args, "-hold", run.HoldDir)
	}
	api := exec.Command(run.Record, args...)
	api.Stderr, _ = os.Create(filepath.Join(run.LogDir, "api.log"))
	if err := api.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 125
	}
	defer func() { _ = api.Process.Kill(); _ = api.Wait() }()
	answers := testwait.Until(5*time.Second, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	if !answers {
		fmt.Fprintln(os.Stderr, "helper: the fake API does not answer")
		return 125
	}
	cmd := exec.Command(run.Command[0], run.Command[1:]...)
	cmd.Dir = run.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	for _, e := range run.Env {
		cmd.Env = append(cmd.Env, strings.ReplaceAll(e, "{{URL}}", "http://"+addr))
	}
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 125
	}
	return 0
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

var (
	recordOnce sync.Once
	recordPath string
	recordErr  error
)

// recordBinary builds the fake API once.
func recordBinary(t *testing.T) string {
	t.Helper()
	recordOnce.Do(func() {
		recordPath = filepath.Join(filepath.Dir(binary), "record")
		out, err := exec.Command("go", "build", "-o", recordPath, "../internal/plan/testdata/record").CombinedOutput()
		if err != nil {
			recordErr = fmt.Errorf("build the fake API: %w\n%s", err, out)
		}
	})
	if recordErr != nil {
		t.Fatal(recordErr)
	}
	return recordPath
}

// agentCLI finds an agent CLI: $env, else what .ci/run installed in
// .ci/tools. Missing, the test is skipped (failed under CI).
func agentCLI(t *testing.T, env, bin, pkg string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	p, err := filepath.Abs(filepath.Join("..", ".ci", "tools", "node_modules", ".bin", bin))
	if err == nil {
		if _, err = os.Stat(p); err == nil {
			return p
		}
	}
	skipUnlessCI(t, fmt.Sprintf("%s is not installed: .ci/run installs it (npm install --prefix .ci/tools %s), or set %s", bin, pkg, env))
	return ""
}

// cliScenario is a run's files: a fresh HOME and project, the fake API's
// script and request log.
type cliScenario struct {
	t     *testing.T
	dir   string
	home  string
	proj  string
	state string // XDG_STATE_HOME (todo-shell's plans and hook state)
	run   cliRun
}

func newCLIScenario(t *testing.T, script any) *cliScenario {
	t.Helper()
	dir := t.TempDir()
	s := &cliScenario{t: t, dir: dir, home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj"), state: filepath.Join(dir, "state")}
	for _, d := range []string{s.home, s.proj, s.state, filepath.Join(dir, "log")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(script)
	if err != nil {
		t.Fatal(err)
	}
	s.write("script.json", string(b))
	s.run = cliRun{Record: recordBinary(t), Script: filepath.Join(dir, "script.json"), LogDir: filepath.Join(dir, "log"), Dir: s.proj, Note: filepath.Join(dir, "how")}
	return s
}

// write writes a file of the scenario (a path relative to its directory).
func (s *cliScenario) write(name, content string) string {
	s.t.Helper()
	p := filepath.Join(s.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// config writes the run's config and returns the command that runs it
// (this test binary as the outer helper).
func (s *cliScenario) config() string {
	b, _ := json.Marshal(s.run)
	return s.write("run.json", string(b))
}

// exec runs the CLI to its end and returns its output.
func (s *cliScenario) exec() (string, error) {
	s.t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envOuter+"="+s.config())
	out, err := cmd.CombinedOutput()
	how, _ := os.ReadFile(s.run.Note)
	s.t.Logf("ran in %s", how)
	return string(out), err
}

// apiRequest is one request the fake API received, as much as the tests
// read of it: the conversation of any of the three wires (Anthropic
// messages, OpenAI Responses input, Gemini contents).
type apiRequest struct {
	Tools    []json.RawMessage `json:"tools"`
	Messages []json.RawMessage `json:"messages"`
	Input    []json.RawMessage `json:"input"`
	Contents []json.RawMessage `json:"contents"`
	body     string
}

// last is the request's last message, as JSON.
func (r apiRequest) last() string {
	for _, list := range [][]json.RawMessage{r.Messages, r.Input, r.Contents} {
		if len(list) > 0 {
			return string(list[len(list)-1])
		}
	}
	return ""
}

// requests are the requests of the agent's main loop (those that offer it
// tools), in order.
func (s *cliScenario) requests() []apiRequest {
	s.t.Helper()
	entries, err := os.ReadDir(s.run.LogDir)
	if err != nil {
		s.t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []apiRequest
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(s.run.LogDir, n))
		if err != nil {
			s.t.Fatal(err)
		}
		var r apiRequest
		if json.Unmarshal(b, &r) != nil || len(r.Tools) == 0 {
			continue
		}
		r.body = string(b)
		out = append(out, r)
	}
	return out
}

// jsonText is s as it appears inside a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
