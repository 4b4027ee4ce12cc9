#!/usr/bin/env python3
"""Writes an opencode 1.x database (opencode.db) for todo-shell's tests.

The schema is opencode's own, as its migrations leave it (the drizzle
tables of packages/opencode/src/session/session.sql.ts and
project/project.sql.ts in github.com/sst/opencode): session, message, part
and todo, each message and part a JSON "data" column. Columns added by
later migrations come last (ALTER TABLE ... ADD COLUMN), as in a real
database, so a reader must find columns by name.

The content is an `opencode export` document (the real opencode 1.18.33's
fixture by default): its session, messages and parts become rows.

  mkdb.py OUT.db [--export FILE] [--wal] [--keep-wal] [--sessions N]
          [--rounds N] [--filler BYTES] [--directory DIR]

--wal       journal_mode=WAL, as opencode runs it.
--keep-wal  leave the last transaction in OUT.db-wal, not checkpointed
            (the files are copied while the connection still holds them).
--sessions  N-1 more sessions of other directories before the export's.
--rounds    N more rounds (a todowrite and a bash part with --filler bytes
            of output each) in the export's session.
--serve     then stay open, as opencode does, in WAL mode: each line on
            standard input "round N" adds round N to the session in one
            transaction, and is answered "ok" once committed. "running N"
            adds round N's todowrite part as a call still running, and
            "complete N" then updates that same row in place to completed
            (its time_updated unchanged, as a writer within the same
            millisecond leaves it; the todo table and the session's
            time_updated updated too), each in one transaction.
"""
import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile

SCHEMA = """
CREATE TABLE `project` (
  `id` text PRIMARY KEY, `worktree` text NOT NULL, `vcs` text, `name` text,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL,
  `sandboxes` text NOT NULL
);
CREATE TABLE `session` (
  `id` text PRIMARY KEY, `project_id` text NOT NULL, `parent_id` text,
  `slug` text NOT NULL, `directory` text NOT NULL, `title` text NOT NULL,
  `version` text NOT NULL, `share_url` text, `summary_additions` integer,
  `summary_deletions` integer, `summary_files` integer, `summary_diffs` text,
  `revert` text, `permission` text, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `time_compacting` integer,
  `time_archived` integer,
  CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
);
CREATE TABLE `message` (
  `id` text PRIMARY KEY, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL,
  `data` text NOT NULL,
  CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE TABLE `part` (
  `id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL,
  `data` text NOT NULL,
  CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
);
CREATE TABLE `todo` (
  `session_id` text NOT NULL, `content` text NOT NULL, `status` text NOT NULL,
  `priority` text NOT NULL, `position` integer NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL,
  CONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`),
  CONSTRAINT `fk_todo_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE INDEX `message_session_idx` ON `message` (`session_id`);
CREATE INDEX `part_message_idx` ON `part` (`message_id`);
CREATE INDEX `part_session_idx` ON `part` (`session_id`);
CREATE INDEX `session_project_idx` ON `session` (`project_id`);
CREATE INDEX `todo_session_idx` ON `todo` (`session_id`);
CREATE INDEX `session_parent_idx` ON `session` (`parent_id`);
ALTER TABLE `session` ADD `workspace_id` text;
ALTER TABLE `session` ADD `agent` text;
ALTER TABLE `session` ADD `model` text;
"""

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "..", "plan", "testdata", "opencode-1.18.33_export.json")


def strip(d, *keys):
    return {k: v for k, v in d.items() if k not in keys}


def add_session(db, info, messages):
    t = info.get("time", {})
    db.execute(
        "INSERT OR IGNORE INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES (?,?,?,?,?)",
        (info.get("projectID", "global"), "/", 0, 0, "[]"))
    db.execute(
        "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, permission,"
        " time_created, time_updated, agent, model) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (info["id"], info.get("projectID", "global"), info.get("parentID"), info.get("slug", "s"),
         info["directory"], info.get("title", ""), info.get("version", "1.18.33"),
         json.dumps(info.get("permission", [])), t.get("created", 0), t.get("updated", 0),
         info.get("agent"), json.dumps(info.get("model"))))
    add_messages(db, info["id"], messages)


def rounds(info, n, filler):
    """n more rounds of a todowrite (item k of 10 in progress) and a bash part."""
    out = []
    base = info.get("time", {}).get("updated", 1795599842565) + 1000
    for r in range(n):
        t = base + r * 1000
        mid = "msg_z%08d" % r
        todos = [{"id": str(i), "content": "Task %d of round %d" % (i, r), "priority": "medium",
                  "status": "completed" if i < r % 10 else ("in_progress" if i == r % 10 else "pending")}
                 for i in range(10)]
        out.append({"info": {"id": mid, "role": "assistant", "time": {"created": t, "completed": t + 500}},
                    "parts": [
                        {"id": "prt_z%08da" % r, "type": "tool", "tool": "todowrite", "callID": "call_w%d" % r,
                         "state": {"status": "completed", "input": {"todos": todos}, "output": json.dumps(todos),
                                   "title": "%d todos" % (10 - r % 10), "metadata": {"todos": todos},
                                   "time": {"start": t, "end": t + 10}}},
                        {"id": "prt_z%08db" % r, "type": "tool", "tool": "bash", "callID": "call_b%d" % r,
                         "state": {"status": "completed", "input": {"command": "go test ./..."},
                                   "output": "x" * filler, "title": "go test", "metadata": {},
                                   "time": {"start": t + 20, "end": t + 30}}}]})
    return out


def serve(path, info, filler):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    for line in sys.stdin:
        cmd, _, arg = line.strip().partition(" ")
        if cmd == "round":
            r = int(arg)
            db.execute("BEGIN")
            for m in rounds(info, r + 1, filler)[r:]:
                add_messages(db, info["id"], [m])
            db.execute("UPDATE session SET time_updated = time_updated + 1 WHERE id = ?", (info["id"],))
            db.execute("COMMIT")
        elif cmd == "running":
            m = rounds(info, int(arg) + 1, filler)[int(arg)]
            call = m["parts"][0]
            st = call["state"]
            m = dict(m, parts=[dict(call, state={"status": "running", "input": st["input"],
                                                  "time": {"start": st["time"]["start"]}})])
            db.execute("BEGIN")
            add_messages(db, info["id"], [m])
            db.execute("UPDATE session SET time_updated = time_updated + 1 WHERE id = ?", (info["id"],))
            db.execute("COMMIT")
        elif cmd == "complete":
            call = rounds(info, int(arg) + 1, filler)[int(arg)]["parts"][0]
            db.execute("BEGIN")
            db.execute("UPDATE part SET data = ? WHERE id = ?",
                       (json.dumps(strip(call, "id", "sessionID", "messageID")), call["id"]))
            db.execute("DELETE FROM todo WHERE session_id = ?", (info["id"],))
            for i, t in enumerate(call["state"]["input"]["todos"]):
                db.execute("INSERT INTO todo VALUES (?,?,?,?,?,?,?)",
                           (info["id"], t["content"], t["status"], t["priority"], i, 0, 0))
            db.execute("UPDATE session SET time_updated = time_updated + 1 WHERE id = ?", (info["id"],))
            db.execute("COMMIT")
        print("ok", flush=True)


def add_messages(db, sid, messages):
    for m in messages:
        mi = m["info"]
        created = mi.get("time", {}).get("created", 0)
        db.execute("INSERT INTO message VALUES (?,?,?,?,?)",
                   (mi["id"], sid, created, created, json.dumps(strip(mi, "id", "sessionID"))))
        for p in m.get("parts", []):
            db.execute("INSERT INTO part VALUES (?,?,?,?,?,?)",
                       (p["id"], mi["id"], sid, created, created,
                        json.dumps(strip(p, "id", "sessionID", "messageID"))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--export", default=FIXTURE)
    ap.add_argument("--wal", action="store_true")
    ap.add_argument("--keep-wal", action="store_true")
    ap.add_argument("--sessions", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=0)
    ap.add_argument("--filler", type=int, default=2000)
    ap.add_argument("--directory")
    ap.add_argument("--serve", action="store_true")
    a = ap.parse_args()
    with open(a.export) as f:
        doc = json.load(f)
    info = doc["info"]
    if a.directory:
        info["directory"] = a.directory
    work = tempfile.mkdtemp()
    path = os.path.join(work, "opencode.db")
    db = sqlite3.connect(path, isolation_level=None)
    if a.wal or a.keep_wal:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.executescript(SCHEMA)
    db.execute("BEGIN")
    for i in range(a.sessions - 1):
        other = dict(info, id="ses_other%05d" % i, directory="/elsewhere/%d" % i)
        add_session(db, other, [])
    db.execute("COMMIT")
    if a.keep_wal:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("BEGIN")
    add_session(db, info, doc["messages"] + rounds(info, a.rounds, a.filler))
    db.execute("COMMIT")
    if a.serve:
        db.close()
        shutil.copy(path, a.out)
        serve(a.out, info, a.filler)
    elif a.keep_wal:
        # Copy while the connection is open: the last transaction is only
        # in the -wal file.
        shutil.copy(path, a.out)
        shutil.copy(path + "-wal", a.out + "-wal")
    else:
        db.close()
        shutil.copy(path, a.out)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
