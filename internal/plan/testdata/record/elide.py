#!/usr/bin/env python3
"""Copy a session file a real agent CLI wrote, keeping its records and
fields but replacing long prose the CLI carries (its system prompt, tool
descriptions, skill and agent listings) with "(elided)": fixtures keep the
format, which is a fact, not the CLI's text. Tool inputs are kept whole.

    elide.py IN OUT
"""
import json
import sys

LIMIT = 160


def elide(v, keep=False):
    if isinstance(v, str):
        return v if keep or len(v) <= LIMIT else "(elided)"
    if isinstance(v, list):
        return [elide(x, keep) for x in v]
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            # a tool call's input, and the fields of the plan itself
            out[k] = elide(x, keep or k in ("input", "arguments", "args", "todos", "plan", "newTodos", "oldTodos"))
        return out
    return v


with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    for line in f:
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            out.write(line + "\n")
            continue
        out.write(json.dumps(elide(rec), ensure_ascii=False, separators=(",", ":")) + "\n")
