package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// planServer starts 'todo-shell mcp --plan PLAN' with its own session and
// connects the MCP go-sdk client to it under the name client.
func planServer(t testing.TB, dir, plan, client string, extra ...string) *mcp.ClientSession {
	t.Helper()
	args := append([]string{"mcp", "--plan", plan, "--session", client, "--offload-dir", filepath.Join(dir, "off")}, extra...)
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Errorf("todo-shell mcp did not exit when its input closed")
		}
	})
	c := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}

// TestMCPTaskOwnerIsTheClient: a task an MCP client starts is owned by the
// name it gave in initialize; another client cannot take it nor change
// any of its fields — status, subject, description, activeForm, blockers,
// metadata — (an is_error result naming the owner, never "unchanged");
// --owner overrides the name.
func TestMCPTaskOwnerIsTheClient(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := fmt.Sprintf("owners-%d", time.Now().UnixNano())
	alice := planServer(t, dir, plan, "alice")
	bob := planServer(t, dir, plan, "bob", "--owner", "builder")
	steps := []struct {
		cs    *mcp.ClientSession
		tool  string
		input string
		want  string
		isErr bool
	}{
		{alice, "TaskCreate", `{"subject":"Write the parser","description":""}`, "Task #1 created successfully: Write the parser", false},
		{bob, "TaskCreate", `{"subject":"Write the tests","description":""}`, "Task #2 created successfully: Write the tests", false},
		{alice, "TaskUpdate", `{"taskId":"1","status":"in_progress"}`, "Updated task #1 status, owner", false},
		{bob, "TaskUpdate", `{"taskId":"1","owner":"builder"}`, "Task #1 is owned by alice", true},
		{bob, "TaskUpdate", `{"taskId":"1","status":"completed"}`, "Task #1 is owned by alice; only they can change its status", true},
		{bob, "TaskUpdate", `{"taskId":"1","status":"in_progress"}`, "Task #1 is owned by alice; only they can change its status", true},
		{bob, "TaskUpdate", `{"taskId":"1","status":"pending"}`, "Task #1 is owned by alice; only they can change its status", true},
		{bob, "TaskUpdate", `{"taskId":"1","subject":"Skip the parser"}`, "Task #1 is owned by alice; only they can change its subject", true},
		{bob, "TaskUpdate", `{"taskId":"1","description":"not needed"}`, "Task #1 is owned by alice; only they can change its description", true},
		{bob, "TaskUpdate", `{"taskId":"1","activeForm":"Skipping"}`, "Task #1 is owned by alice; only they can change its activeForm", true},
		{bob, "TaskUpdate", `{"taskId":"1","addBlockedBy":["2"]}`, "Task #1 is owned by alice; only they can change its blockedBy", true},
		{bob, "TaskUpdate", `{"taskId":"1","metadata":{"note":"x"}}`, "Task #1 is owned by alice; only they can change its metadata", true},
		{bob, "TaskUpdate", `{"taskId":"2","status":"in_progress"}`, "Updated task #2 status, owner", false},
		{alice, "TaskList", `{}`, "#1 [in_progress] Write the parser (owner: alice)\n#2 [in_progress] Write the tests (owner: builder)", false},
		{bob, "TaskUpdate", `{"taskId":"2","status":"done"}`, "Invalid status 'done'. Must be one of: pending, in_progress, completed, deleted", true},
	}
	for i, s := range steps {
		got, isErr := callText(t, s.cs, s.tool, json.RawMessage(s.input))
		if got != s.want || isErr != s.isErr {
			t.Fatalf("step %d: %q (is_error %v), want %q", i, got, isErr, s.want)
		}
	}
}

// loadStats are what the load test measured.
type loadStats struct {
	calls, accepted, rejected int
	latencies                 []time.Duration
	wall                      time.Duration
}

// TestPlanLoadEightMCPServers: 8 'todo-shell mcp --plan' processes, each
// driven by the go-sdk client with random TaskCreate and TaskUpdate calls on
// one plan. No update is lost, ids are unique and dense, no task has two
// owners, and the final plan is the serial replay of the journal. The
// throughput and latency go to the log (BENCHMARKS.md quotes them).
func TestPlanLoadEightMCPServers(t *testing.T) {
	t.Parallel()
	const servers = 8
	// 200 calls each in the suite: every check below (no update lost,
	// dense ids, owners kept, the serial replay) already meets hundreds
	// of races between the eight processes at that count. The figures in
	// docs/BENCHMARKS.md are of 1,000 each (TODO_SHELL_LOAD_CALLS=1000).
	perServer := 200
	if testing.Short() {
		perServer = 100
	}
	if n, err := strconv.Atoi(os.Getenv("TODO_SHELL_LOAD_CALLS")); err == nil && n > 0 {
		perServer = n
	}
	dir := t.TempDir()
	plan := fmt.Sprintf("load-%d", time.Now().UnixNano())
	clients := make([]*mcp.ClientSession, servers)
	for i := range clients {
		clients[i] = planServer(t, dir, plan, fmt.Sprintf("agent-%d", i), "--max-items", "1000000")
	}
	var maxID atomic.Int64
	created := regexp.MustCompile(`^Task #(\d+) created successfully: `)
	stats := make([]loadStats, servers)
	var createdIDs sync.Map
	var wg sync.WaitGroup
	start := time.Now()
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 18))
			me := fmt.Sprintf("agent-%d", i)
			st := &stats[i]
			for n := range perServer {
				name, args := randomCall(r, me, n, maxID.Load())
				t0 := time.Now()
				res, err := clients[i].CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
				st.latencies = append(st.latencies, time.Since(t0))
				if err != nil {
					t.Errorf("%s: %s: %v", me, name, err)
					return
				}
				text := res.Content[0].(*mcp.TextContent).Text
				st.calls++
				switch {
				case res.IsError:
					st.rejected++
				case strings.Contains(text, "is unchanged"):
				default:
					st.accepted++
				}
				if m := created.FindStringSubmatch(text); m != nil {
					id, _ := strconv.Atoi(m[1])
					if _, dup := createdIDs.LoadOrStore(id, me); dup {
						t.Errorf("id %d given twice", id)
					}
					for {
						cur := maxID.Load()
						if int64(id) <= cur || maxID.CompareAndSwap(cur, int64(id)) {
							break
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	if t.Failed() {
		return
	}

	var all []time.Duration
	total := loadStats{wall: wall}
	for _, s := range stats {
		total.calls += s.calls
		total.accepted += s.accepted
		total.rejected += s.rejected
		all = append(all, s.latencies...)
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration { return all[min(len(all)-1, int(float64(len(all))*p))] }
	t.Logf("%d servers × %d calls: %d calls in %v = %.0f calls/s (%d accepted = %.0f updates/s, %d rejected); latency p50 %v, p99 %v, max %v",
		servers, perServer, total.calls, wall.Round(time.Millisecond), float64(total.calls)/wall.Seconds(),
		total.accepted, float64(total.accepted)/wall.Seconds(), total.rejected, pct(0.50), pct(0.99), all[len(all)-1])

	// The journal, read back: every accepted call is one version.
	pdir := filepath.Join(os.Getenv("XDG_STATE_HOME"), "todo-shell", "plans", plan)
	var recs []task.Record
	final, err := task.ReadDir(pdir, func(_ task.State, r task.Record) { recs = append(recs, r) })
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != total.accepted {
		t.Fatalf("lost updates: %d accepted, %d versions in the journal", total.accepted, len(recs))
	}
	creates := 0
	for i, r := range recs {
		if r.Version != uint64(i+1) {
			t.Fatalf("version %d at line %d", r.Version, i+1)
		}
		if r.Tool == task.CreateName {
			creates++
			if r.Set[0].ID != strconv.Itoa(creates) {
				t.Fatalf("ids not dense: create %d made #%s", creates, r.Set[0].ID)
			}
		}
	}
	n := 0
	createdIDs.Range(func(_, _ any) bool { n++; return true })
	if n != creates || final.NextID != creates+1 {
		t.Fatalf("%d ids answered, %d creates, next id %d", n, creates, final.NextID)
	}
	// No task ever changes hands except from its owner (or by release).
	owner := map[string]string{}
	for _, r := range recs {
		for _, tk := range r.Set {
			if prev := owner[tk.ID]; prev != "" && tk.Owner != "" && tk.Owner != prev && r.By != prev {
				t.Fatalf("task #%s taken from %s by %s (version %d)", tk.ID, prev, tk.Owner, r.Version)
			}
			owner[tk.ID] = tk.Owner
		}
	}
	// The final plan is the serial replay of the journal's calls.
	reg, store := tools.NewRegistry(), task.NewStore(nil)
	if err := task.Register(reg, store, task.Options{Limits: todo.Limits{MaxItems: 1_000_000, MaxContentLength: 200, MaxInProgress: 1}}); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if res := reg.Execute(task.WithCaller(context.Background(), r.By), r.ToolUseID, r.Tool, r.Input); res.IsError {
			t.Fatalf("replay of version %d rejected: %s", r.Version, res.Content)
		}
	}
	if got := store.Snapshot(); !reflect.DeepEqual(got, final) {
		t.Fatalf("serial replay differs from the plan")
	}
	if os.Getenv("TODO_SHELL_LOAD_MIN_RATE") != "" {
		minRate, _ := strconv.ParseFloat(os.Getenv("TODO_SHELL_LOAD_MIN_RATE"), 64)
		if rate := float64(total.calls) / wall.Seconds(); rate < minRate {
			t.Fatalf("%.0f calls/s, want at least %.0f", rate, minRate)
		}
	}
}

// randomCall picks one random TaskCreate or TaskUpdate call for agent me.
func randomCall(r *rand.Rand, me string, n int, maxID int64) (string, json.RawMessage) {
	if maxID == 0 || r.IntN(100) < 30 {
		return task.CreateName, json.RawMessage(fmt.Sprintf(`{"subject":"%s task %d","description":"made by the load test","activeForm":"Doing %s task %d"}`, me, n, me, n))
	}
	id := strconv.FormatInt(1+r.Int64N(maxID), 10)
	var in string
	switch k := r.IntN(100); {
	case k < 25:
		in = fmt.Sprintf(`{"taskId":%q,"owner":%q}`, id, me)
	case k < 50:
		in = fmt.Sprintf(`{"taskId":%q,"status":"in_progress"}`, id)
	case k < 72:
		in = fmt.Sprintf(`{"taskId":%q,"status":"completed"}`, id)
	case k < 80:
		in = fmt.Sprintf(`{"taskId":%q,"addBlockedBy":[%q]}`, id, strconv.FormatInt(1+r.Int64N(maxID), 10))
	case k < 90:
		in = fmt.Sprintf(`{"taskId":%q,"metadata":{"touched_by":%q,"n":%d}}`, id, me, n)
	case k < 95:
		in = fmt.Sprintf(`{"taskId":%q,"status":"pending","owner":""}`, id)
	default:
		in = fmt.Sprintf(`{"taskId":%q,"status":"deleted"}`, id)
	}
	return task.UpdateName, json.RawMessage(in)
}
