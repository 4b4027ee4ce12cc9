#!/usr/bin/env python3
"""Wall and CPU time (user+sys, from wait4's rusage, to the microsecond) of
`todo-shell hook` (a Stop) and `todo-shell statusline` on long transcripts,
cold (no state) and after an append of one round, beside `todo-shell
version` and `wc -l` of the same file: medians of 21 runs. CPU time is
what the machine's load barely changes (/usr/bin/time counts in 10 ms).

    HOLD_BIG_TRANSCRIPT=/tmp/big.jsonl go test -run TestWriteBigTranscript ./internal/hold
    HOLD_BIG_TRANSCRIPT=/tmp/bigtasks.jsonl HOLD_BIG_TASKS=1 go test -run TestWriteBigTranscript ./internal/hold
    go build -o /tmp/todo-shell . && e2e/bench/hookcpu.py /tmp/todo-shell /tmp/big.jsonl /tmp/bigtasks.jsonl
"""
import os, shutil, sys, tempfile, time, statistics, glob
if len(sys.argv) < 3:
    sys.exit("usage: hookcpu.py TODO-SHELL TRANSCRIPT...")
B = os.path.abspath(sys.argv[1]); N = 21
def call(argv, inp, env):
    r, w = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.dup2(r, 0); os.close(w)
        devnull = os.open("/dev/null", os.O_WRONLY); os.dup2(devnull, 1)
        os.execve(argv[0], argv, env)
    os.close(r); os.write(w, inp.encode()); os.close(w)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    assert os.waitstatus_to_exitcode(status) == 0, argv
    return wall * 1000, (ru.ru_utime + ru.ru_stime) * 1000
for src in sys.argv[2:]:
    W = tempfile.mkdtemp()
    P = f"{W}/config/projects/-src-app/s.jsonl"
    os.makedirs(os.path.dirname(P)); shutil.copy(src, P)
    if os.path.isdir(src + ".tasks"):
        os.makedirs(f"{W}/config/tasks/s")
        for f in glob.glob(src + ".tasks/*.json"): shutil.copy(f, f"{W}/config/tasks/s/")
    rnd = open(src + ".round").read()
    stop = '{"session_id":"s","transcript_path":"%s","cwd":"/","prompt_id":"p2","hook_event_name":"Stop","stop_hook_active":false}' % P
    status = '{"hook_event_name":"Status","session_id":"s","transcript_path":"%s","cwd":"/"}' % P
    def run(name, state, cold, argv, inp, warm=None):
        env = dict(os.environ, XDG_STATE_HOME=state, NO_COLOR="1", TODO_SHELL_PLAN="")
        if not cold: call(*(warm or (argv, inp)), env)
        walls, cpus = [], []
        for _ in range(N):
            if cold: shutil.rmtree(state, ignore_errors=True)
            else: open(P, "a").write(rnd)
            w, c = call(argv, inp, env); walls.append(w); cpus.append(c)
        print(f"{os.path.basename(src):15} {name:34} wall {statistics.median(walls):7.1f} ms   cpu {statistics.median(cpus):6.1f} ms", flush=True)
    run("todo-shell version", f"{W}/s0", True, [B, "version"], "")
    run("hook cold", f"{W}/s1", True, [B, "hook"], stop)
    run("hook after an append", f"{W}/s2", False, [B, "hook"], stop)
    run("statusline cold", f"{W}/s3", True, [B, "statusline"], status)
    run("statusline append (alone)", f"{W}/s4", False, [B, "statusline"], status)
    run("statusline append (after hook)", f"{W}/s5", False, [B, "statusline"], status, warm=([B, "hook"], stop))
    run("wc -l", f"{W}/s6", True, ["/usr/bin/wc", "-l", P], "")
    shutil.rmtree(W)
