"""A minimal stand-in for the origin agent's bot core: standard library only.

Usage: python3 bot_core.py PORT
Walks next to the oak of the test scenario, digs its bottom log and places
the held dirt on the ground, with the origin bot core's defaults (face
"auto", the hand passed through), and prints one JSON summary line of what
it saw.
"""
import json
import socket
import sys


def main():
    sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    reader = sock.makefile("r", encoding="utf-8")
    chunks, slots, position = {}, {}, None

    def send(typ, payload):
        sock.sendall((json.dumps({"type": typ, "payload": payload}) + "\n").encode())

    def until(typ):
        nonlocal position
        for line in reader:
            msg = json.loads(line)
            p = msg["payload"]
            if msg["type"] == "chunk_data":
                chunks[(p["chunk_x"], p["chunk_z"])] = p["blocks"]
            elif msg["type"] == "window_items":
                slots.update({i: it for i, it in enumerate(p["items"])})
            elif msg["type"] == "set_slot":
                slots[p["slot"]] = p["item"]
            elif msg["type"] == "position_update":
                position = p
            if msg["type"] == typ:
                return p
        raise SystemExit("connection closed waiting for " + typ)

    def block(x, y, z):
        blocks = chunks[(x >> 4, z >> 4)]
        sec = blocks["sections"][y >> 4]
        if sec is None:
            return "minecraft:air"
        return blocks["palette"][sec[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)]]["id"]

    send("move_step", {"x": 10, "y": 64, "z": 8, "radius": 0})
    walked = until("action_result")  # the world sent at connect came first
    before = block(11, 64, 8)
    def dig(x, y, z, face="auto", hand="main"):
        for status in ("start", "stop"):
            send("block_dig", {"status": status, "x": x, "y": y, "z": z, "face": face, "hand": hand})
        return until("action_result")

    def place(x, y, z, face="auto", hand="main"):
        send("block_place", {"x": x, "y": y, "z": z, "face": face, "hand": hand})
        return until("action_result")

    dug = dig(11, 64, 8)
    after = block(11, 64, 8)
    placed = place(10, 63, 10)
    print(json.dumps({
        "before": before,
        "after": after,
        "walked": walked["ok"],
        "dug": dug["ok"],
        "placed": placed["ok"],
        "placed_block": block(10, 64, 10),
        "position": [position["x"], position["y"], position["z"]],
        "slot1": slots.get(1),
    }))


main()
