#!/usr/bin/env python3
"""A planner for gtnh-agent in Python, standard library only.

Run it with the agent, which starts it and talks to it on stdin and stdout:

    agent run --planner-cmd "python3 examples/planner.py" \
        --goal "have 8 minecraft:stick and collect 8 minecraft:log"

It answers the agent's hello as a planner, then each plan request with one
skill invocation: chop trees until there are logs enough, craft planks,
craft sticks. Before it sends the player to chop, it asks the agent where
the nearest log is (a world query on the same connection). Messages to the
user go to stderr: stdout is the protocol. See docs/ipc.md.
"""

import json
import math
import sys

PROTOCOL = 1


class Conn:
    """Newline-delimited JSON on stdin and stdout."""

    def __init__(self):
        self.next_id = 0
        self.inbox = []  # requests read while waiting for a reply

    def send(self, msg):
        msg["v"] = PROTOCOL
        sys.stdout.write(json.dumps(msg, separators=(",", ":")) + "\n")
        sys.stdout.flush()

    def read(self):
        if self.inbox:
            return self.inbox.pop(0)
        while True:
            line = sys.stdin.readline()
            if not line:
                return None
            if line.strip():
                return json.loads(line)

    def ask(self, typ, payload):
        """Send a request to the agent and wait for its reply."""
        self.next_id += 1
        rid = "p%d" % self.next_id
        self.send({"id": rid, "type": typ, "payload": payload})
        while True:
            line = sys.stdin.readline()
            if not line:
                raise EOFError("the agent closed the connection")
            if not line.strip():
                continue
            msg = json.loads(line)
            if msg.get("id") == rid and msg.get("type") in ("reply", "error"):
                if msg["type"] == "error":
                    raise RuntimeError("%s: %s" % (typ, msg["payload"]))
                return msg.get("payload") or {}
            self.inbox.append(msg)  # not ours: answer it later


def log(*args):
    print("planner.py:", *args, file=sys.stderr, flush=True)


def inventory(snapshot):
    counts = {}
    for slot in (snapshot.get("inventory") or {}).get("slots") or []:
        item = slot.get("id")
        if item:
            counts[item] = counts.get(item, 0) + slot.get("count", 0)
    return counts


def targets(goal):
    """The inventory count each goal item needs (collect: more than at the start)."""
    out = {}
    for g in goal.get("items") or []:
        out[g["item"]] = g.get("start", 0) + g["count"] if g.get("gain") else g["count"]
    return out


def plan(conn, goal, obs, catalog):
    skills = {s["name"] for s in catalog}
    last = obs.get("last")
    if last and last.get("verdict") != "success":
        log("step %d ended %s: %s" % (last["step"], last["verdict"], last.get("error", "")))
    inv = inventory(obs["snapshot"])
    want = targets(goal)
    for needed in ("chop_tree", "basic_crafting"):
        if needed not in skills:
            return {"done": True, "reason": "the catalog has no %s" % needed}

    # Sticks first: without a saw two planks make two sticks, a log two planks.
    sticks = want.get("minecraft:stick", 0) - inv.get("minecraft:stick", 0)
    if sticks > 0:
        planks = inv.get("minecraft:planks", 0)
        if planks >= sticks:
            return craft("minecraft:stick", sticks)
        logs_needed = math.ceil((sticks - planks) / 2)
        if inv.get("minecraft:log", 0) >= logs_needed:
            return craft("minecraft:planks", sticks - planks)
        return chop(conn, logs_needed - inv.get("minecraft:log", 0))

    logs = want.get("minecraft:log", 0) - inv.get("minecraft:log", 0)
    if logs > 0:
        return chop(conn, logs)
    return {"done": True, "reason": "every goal item is in the inventory"}


def craft(item, count):
    return {"invocation": {"skill": "basic_crafting", "params": {"item": item, "count": count}},
            "reason": "craft %d %s" % (count, item)}


def chop(conn, logs):
    hits = conn.ask("nearest", {"match": {"tags": ["log"]}, "radius": 32, "k": 1})["hits"]
    if not hits:
        return {"done": True, "reason": "no tree within 32 blocks"}
    log("nearest log at", hits[0]["pos"])
    return {"invocation": {"skill": "chop_tree", "params": {"min_logs": logs}},
            "reason": "%d more logs" % logs}


def main():
    conn = Conn()
    while True:
        msg = conn.read()
        if msg is None:
            return  # the agent is done
        typ, rid = msg.get("type"), msg.get("id")
        if rid is None:
            continue  # a notification (cancel): nothing runs in the background here
        if typ == "hello":
            conn.send({"id": rid, "type": "reply", "payload": {
                "protocol": PROTOCOL, "role": "planner", "name": "planner.py",
                "actions": [], "events": [], "requests": ["hello", "plan"],
                "max_message": 4 << 20}})
        elif typ == "plan":
            p = msg["payload"]
            answer = plan(conn, p["goal"], p["observation"], p["catalog"])
            conn.send({"id": rid, "type": "reply", "payload": answer})
        else:
            conn.send({"id": rid, "type": "error", "payload": {
                "code": "unknown_type", "message": "a planner answers hello and plan, not %r" % typ}})


if __name__ == "__main__":
    main()
