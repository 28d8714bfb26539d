#!/usr/bin/env node
// observer.js: watch a body served by `agent serve`, one readable line per
// event. Node.js 20 or later, standard library only.
//
//   agent serve --body sim --listen unix:///tmp/agent-body.sock
//   node examples/observer.js unix:///tmp/agent-body.sock [MAX_EVENTS]
//
// It says hello as an observer (queries and events, no actions), subscribes
// to the events, prints the world as `observe` reports it, then a line per
// event. It exits 0 after MAX_EVENTS events (default: never) or when the
// server ends the connection, and 1 on an error. The protocol is described
// in docs/ipc.md.
'use strict';

const net = require('node:net');

const EVENTS = ['time', 'position', 'health', 'inventory', 'dimension', 'block_change',
  'chunk_loaded', 'chunk_unloaded', 'entity', 'entity_gone', 'chat', 'lagged', 'disconnect'];

function usage(msg) {
  process.stderr.write(`observer.js: ${msg}\nusage: node observer.js unix:///path|tcp://HOST:PORT [MAX_EVENTS]\n`);
  process.exit(2);
}

// connectOptions turns an agent address into net.connect options.
function connectOptions(addr) {
  if (addr.startsWith('unix://')) {
    const path = addr.slice('unix://'.length);
    if (!path) usage('unix:// needs a path');
    return { path };
  }
  if (addr.startsWith('tcp://')) {
    const hostPort = addr.slice('tcp://'.length);
    const i = hostPort.lastIndexOf(':');
    const port = Number(hostPort.slice(i + 1));
    if (i <= 0 || !Number.isInteger(port) || port < 1 || port > 65535) usage(`bad tcp address ${addr}`);
    return { host: hostPort.slice(0, i).replace(/^\[|\]$/g, ''), port };
  }
  usage(`address ${JSON.stringify(addr)} is neither unix:///path nor tcp://HOST:PORT`);
}

const pos = (p) => (p ? `(${fmt(p.x)}, ${fmt(p.y)}, ${fmt(p.z)})` : '(?)');
const fmt = (v) => (Number.isInteger(v) ? String(v) : Number(v).toFixed(2));
const blockName = (b) => (!b || !b.id ? 'air' : b.meta ? `${b.id}:${b.meta}` : b.id);
const now = () => new Date().toISOString().slice(11, 23);

// describe renders one event as a line.
function describe(type, p = {}) {
  switch (type) {
    case 'time': return `tick ${p.tick}`;
    case 'position': return `position ${pos(p.pos)} in ${p.dimension}`;
    case 'health': return `health ${p.health} food ${p.food}`;
    case 'inventory': {
      const stacks = ((p.inventory && p.inventory.slots) || []).filter((s) => s && s.id && s.count > 0);
      return `inventory ${stacks.map((s) => `${s.count}×${s.id}`).join(', ') || 'empty'}`;
    }
    case 'dimension': return `dimension ${p.dimension}`;
    case 'block_change': return `block_change ${pos(p.pos)} → ${blockName(p.block)}`;
    case 'chunk_loaded': return `chunk_loaded ${p.x}, ${p.z}`;
    case 'chunk_unloaded': return `chunk_unloaded ${p.x}, ${p.z}`;
    case 'entity': return `entity ${p.entity && p.entity.id} ${p.entity && p.entity.kind} at ${pos(p.entity && p.entity.pos)}`;
    case 'entity_gone': return `entity_gone ${p.id}`;
    case 'chat': return `chat <${p.from || 'server'}> ${p.text}`;
    case 'lagged': return `lagged: ${p.dropped} events dropped`;
    case 'disconnect': return `disconnect: ${p.reason}`;
    default: return `${type} ${JSON.stringify(p)}`;
  }
}

function main() {
  const [addr, maxArg] = process.argv.slice(2);
  if (!addr) usage('no address');
  const maxEvents = maxArg === undefined ? Infinity : Number(maxArg);
  if (!(maxEvents > 0) || (maxEvents !== Infinity && !Number.isInteger(maxEvents))) usage(`MAX_EVENTS must be a positive integer, not ${maxArg}`);

  let limit = 4 << 20; // the default message limit until the hello reply says
  let nextId = 1;
  const pending = new Map(); // id -> callback(err, payload)
  let buf = '';
  let seen = 0;
  let finished = false;

  const sock = net.connect(connectOptions(addr));
  sock.setEncoding('utf8');

  const finish = (code, msg) => {
    if (finished) return;
    finished = true;
    if (msg) (code ? process.stderr : process.stdout).write(msg + '\n');
    sock.end();
    sock.destroy();
    process.exitCode = code;
  };

  const request = (type, payload, cb) => {
    const id = nextId++;
    pending.set(id, cb);
    sock.write(JSON.stringify({ v: 1, id, type, payload }) + '\n');
  };

  const onMessage = (m) => {
    if (m.id !== undefined && m.id !== null) {
      const cb = pending.get(m.id);
      pending.delete(m.id);
      if (!cb) return;
      if (m.type === 'error') cb(new Error(`${m.payload.code}: ${m.payload.message}`));
      else cb(null, m.payload || {});
      return;
    }
    if (m.type === 'error') { // about a line whose id the server could not read
      process.stderr.write(`server error: ${JSON.stringify(m.payload)}\n`);
      return;
    }
    process.stdout.write(`${now()} ${describe(m.type, m.payload)}\n`);
    seen++;
    if (m.type === 'disconnect') finish(0, 'the server is closing the connection');
    else if (seen >= maxEvents) finish(0, `${seen} events seen`);
  };

  sock.on('connect', () => {
    request('hello', { protocol: 1, role: 'observer', name: 'observer.js', events: EVENTS }, (err, w) => {
      if (err) return finish(1, `hello: ${err.message}`);
      if (w.max_message) limit = w.max_message;
      process.stdout.write(`${now()} connected to ${w.name} (protocol ${w.protocol}; events ${(w.events || []).join(', ')})\n`);
      request('observe', {}, (err2, obs) => {
        if (err2) return finish(1, `observe: ${err2.message}`);
        const s = obs.snapshot || {};
        const pl = s.player || {};
        const items = ((s.inventory && s.inventory.slots) || []).filter((x) => x && x.count > 0).length;
        process.stdout.write(`${now()} observing: tick ${s.tick}, ${pl.name || 'player'} at ${pos(pl.pos)} in ${pl.dimension}, ` +
          `health ${pl.health}, ${items} stacks, tier ${s.tech_state}\n`);
      });
    });
  });

  sock.on('data', (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      let m;
      try {
        m = JSON.parse(line);
      } catch (e) {
        return finish(1, `a malformed line from the server: ${e.message}`);
      }
      onMessage(m);
      if (finished) return;
    }
    if (buf.length > limit) finish(1, `a message from the server exceeds ${limit} bytes`);
  });
  sock.on('error', (err) => finish(1, `${addr}: ${err.message}`));
  sock.on('close', () => finish(0, 'the server closed the connection'));
}

main();
