// The JavaScript side of the side-by-side benchmarks. The Go command
// (go run ./bench/cmd/compare) starts this worker and talks to it with one
// JSON object per line: a request on stdin, its answer on stdout. The worker
// never generates the world itself: it decodes the same 1.7.10 chunk packets
// the Go side decodes (written by the Go command into a file), so both sides
// measure identical input, and it reports a hash of what it decoded so the Go
// side can check that.
//
// Requests ({"op": ...}):
//   load     {file}: decode the packets, load mineflayer's world (1.8 chunk
//            layout, the oldest prismarine-chunk reads); answers the world's
//            SHA-256 and the time it took.
//   path     {from, to, timeout}: mineflayer-pathfinder's A* in walk mode;
//            answers status, expanded nodes, cost, milliseconds and the path.
//   nearest  {block, center, radius, count}: mineflayer's bot.findBlocks.
//   decode   {}: one timed pass over the 256 packets: inflate only, inflate
//            + the hand-written decoder, prismarine-chunk's load of the same
//            columns in the 1.8 layout (with and without inflate).
//   memory   {}: heap and buffer bytes held by the 256 prismarine-chunk
//            columns (needs node --expose-gc).
'use strict'

const fs = require('fs')
const zlib = require('zlib')
const crypto = require('crypto')
const readline = require('readline')
const { EventEmitter } = require('events')
const { performance } = require('perf_hooks')

const VERSION = '1.8.8'
const registry = require('prismarine-registry')(VERSION)
const Chunk = require('prismarine-chunk')(registry)
const { Vec3 } = require('vec3')
const { Movements, goals } = require('mineflayer-pathfinder')
const AStar = require('mineflayer-pathfinder/lib/astar')
const Move = require('mineflayer-pathfinder/lib/move')

const SECTION = 4096 // blocks in a 16×16×16 section
const NIBBLES = 2048 // bytes of a nibble array

// readPackets parses the file the Go side writes: "GBW1", a uint32 count,
// then per column int32 x, int32 z, uint16 primary mask, uint16 add mask,
// uint32 length and the zlib data (all little-endian).
function readPackets (file) {
  const b = fs.readFileSync(file)
  if (b.toString('latin1', 0, 4) !== 'GBW1') throw new Error(`${file}: not a packet file (magic ${b.toString('latin1', 0, 4)})`)
  const n = b.readUInt32LE(4)
  const out = []
  let o = 8
  for (let i = 0; i < n; i++) {
    if (o + 16 > b.length) throw new Error(`${file}: truncated header of column ${i}`)
    const x = b.readInt32LE(o); const z = b.readInt32LE(o + 4)
    const mask = b.readUInt16LE(o + 8); const addMask = b.readUInt16LE(o + 10)
    const len = b.readUInt32LE(o + 12)
    o += 16
    if (o + len > b.length) throw new Error(`${file}: column ${i} needs ${len} bytes, ${b.length - o} left`)
    out.push({ x, z, mask, addMask, data: b.subarray(o, o + len) })
    o += len
  }
  return out
}

function popcount (m) {
  let n = 0
  for (; m; m &= m - 1) n++
  return n
}

// decodeColumn is the hand-written 1.7.10 decoder: the inflated data holds,
// for the sections in the mask, all block id arrays (4096 bytes each), then
// all metadata, block light and sky light nibble arrays, then the add
// nibbles of the sections in the add mask, then 256 biome bytes. It returns
// one Uint16Array of states (id<<4 | meta, index y<<8 | z<<4 | x) per sent
// section, as a JavaScript client needs them.
function decodeColumn (raw, mask, addMask) {
  const n = popcount(mask)
  const nAdd = popcount(addMask)
  const metaOff = n * SECTION
  const addOff = metaOff + 3 * n * NIBBLES
  const size = addOff + nAdd * NIBBLES + 256
  if (raw.length !== size) throw new Error(`column inflates to ${raw.length} bytes, masks announce ${size}`)
  const sections = new Array(16).fill(null)
  let k = 0; let a = 0
  for (let cy = 0; cy < 16; cy++) {
    if (!(mask & (1 << cy))) continue
    const st = new Uint16Array(SECTION)
    const io = k * SECTION; const mo = metaOff + k * NIBBLES
    if (addMask & (1 << cy)) {
      const ao = addOff + a * NIBBLES
      for (let i = 0; i < SECTION; i++) {
        const sh = (i & 1) << 2
        const id = raw[io + i] | (((raw[ao + (i >> 1)] >> sh) & 15) << 8)
        st[i] = id << 4 | ((raw[mo + (i >> 1)] >> sh) & 15)
      }
      a++
    } else {
      for (let i = 0; i < SECTION; i += 2) {
        const m = raw[mo + (i >> 1)]
        st[i] = raw[io + i] << 4 | (m & 15)
        st[i + 1] = raw[io + i + 1] << 4 | (m >> 4)
      }
    }
    sections[cy] = st
    k++
  }
  return { sections, biomes: raw.subarray(size - 256) }
}

// to18 lays a decoded column out as 1.8 chunk data (states as uint16 LE,
// block light 0, sky light 15, biomes), the input of prismarine-chunk's
// load.
function to18 (col) {
  let mask = 0
  for (let cy = 0; cy < 16; cy++) if (col.sections[cy]) mask |= 1 << cy
  const n = popcount(mask)
  const buf = Buffer.alloc(n * (2 * SECTION + 2 * NIBBLES) + 256)
  let k = 0
  for (let cy = 0; cy < 16; cy++) {
    const st = col.sections[cy]
    if (!st) continue
    Buffer.from(st.buffer, st.byteOffset, st.byteLength).copy(buf, k * 2 * SECTION)
    k++
  }
  buf.fill(0xff, n * (2 * SECTION + NIBBLES), n * (2 * SECTION + 2 * NIBBLES))
  col.biomes.copy(buf, n * (2 * SECTION + 2 * NIBBLES))
  return { mask, data: buf }
}

const state = { packets: null, cols: null, chunks18: null, bot: null }

function makeBot () {
  const bot = new EventEmitter()
  bot.registry = registry
  bot.version = VERSION
  bot.supportFeature = registry.supportFeature
  bot.game = { minY: 0, height: 256 }
  bot._client = new EventEmitter()
  bot.entity = { position: new Vec3(0, 0, 0), height: 1.8, effects: {} }
  bot.entities = {}
  bot.inventory = { items: () => [] }
  bot.pathfinder = { bestHarvestTool: () => null }
  require('mineflayer/lib/plugins/blocks')(bot, { version: VERSION })
  bot._client.emit('login', { dimension: 0 }) // creates bot.world
  return bot
}

function load ({ file }) {
  const t0 = performance.now()
  state.packets = readPackets(file)
  state.cols = state.packets.map(p => ({ x: p.x, z: p.z, ...decodeColumn(zlib.inflateSync(p.data), p.mask, p.addMask) }))
  state.chunks18 = state.cols.map(to18)
  state.bot = makeBot()
  let minX = Infinity; let minZ = Infinity; let maxX = -Infinity; let maxZ = -Infinity
  state.packets.forEach((p, i) => {
    const c = new Chunk()
    c.load(state.chunks18[i].data, state.chunks18[i].mask, true, true)
    state.bot.world.setColumn(p.x, p.z, c)
    minX = Math.min(minX, p.x); minZ = Math.min(minZ, p.z); maxX = Math.max(maxX, p.x); maxZ = Math.max(maxZ, p.z)
  })
  // The world as one array, index ((y*SZ)+z)*SX+x, hashed like the Go side.
  const SX = (maxX - minX + 1) * 16; const SZ = (maxZ - minZ + 1) * 16
  const w = new Uint16Array(SX * SZ * 256)
  for (const c of state.cols) {
    for (let cy = 0; cy < 16; cy++) {
      const st = c.sections[cy]
      if (!st) continue
      for (let i = 0; i < SECTION; i++) {
        const x = (c.x - minX) * 16 + (i & 15); const z = (c.z - minZ) * 16 + ((i >> 4) & 15); const y = cy * 16 + (i >> 8)
        w[(y * SZ + z) * SX + x] = st[i]
      }
    }
  }
  const sha256 = crypto.createHash('sha256').update(Buffer.from(w.buffer)).digest('hex')
  return { columns: state.packets.length, sha256, ms: performance.now() - t0 }
}

function walkMovements () {
  const m = new Movements(state.bot)
  m.canDig = false // walk mode: no digging,
  m.allow1by1towers = false // no pillaring,
  m.scafoldingBlocks = [] // no bridging,
  m.allowParkour = false // and no jumps over gaps, which the Go side does not make either
  return m
}

function path ({ from, to, timeout }) {
  const t0 = performance.now()
  const movements = walkMovements()
  const goal = new goals.GoalBlock(to[0], to[1], to[2])
  const astar = new AStar(new Move(from[0], from[1], from[2], 0, 0), movements, goal, timeout || 60000, 1e9)
  const r = astar.compute()
  const ms = performance.now() - t0
  return {
    status: r.status,
    expanded: r.visitedNodes,
    generated: r.generatedNodes,
    cost: r.cost,
    ms,
    path: [from, ...r.path.map(p => [p.x, p.y, p.z])]
  }
}

function nearest ({ block, center, radius, count }) {
  const b = registry.blocksByName[block]
  if (!b) throw new Error(`unknown block ${block}`)
  const t0 = performance.now()
  const hits = state.bot.findBlocks({ matching: b.id, point: new Vec3(center[0], center[1], center[2]), maxDistance: radius, count })
  const ms = performance.now() - t0
  return { ms, hits: hits.map(p => [p.x, p.y, p.z]) }
}

function decode () {
  const out = {}
  let t0 = performance.now()
  const raws = state.packets.map(p => zlib.inflateSync(p.data))
  out.inflateMs = performance.now() - t0
  t0 = performance.now()
  let sum = 0
  for (const p of state.packets) {
    const c = decodeColumn(zlib.inflateSync(p.data), p.mask, p.addMask)
    sum += c.sections.length
  }
  out.decodeMs = performance.now() - t0
  out.rawBytes = raws.reduce((s, r) => s + r.length, 0)
  // prismarine-chunk reads 1.8 data; the same columns, deflated the way a
  // 1.8 server would send them, are loaded with and without inflate.
  if (!state.z18) state.z18 = state.chunks18.map(c => zlib.deflateSync(c.data))
  t0 = performance.now()
  for (const c of state.chunks18) new Chunk().load(c.data, c.mask, true, true)
  out.prismarineMs = performance.now() - t0
  t0 = performance.now()
  state.chunks18.forEach((c, i) => new Chunk().load(zlib.inflateSync(state.z18[i]), c.mask, true, true))
  out.prismarineInflateMs = performance.now() - t0
  out.sections = sum
  return out
}

function memory () {
  if (typeof global.gc !== 'function') throw new Error('memory needs node --expose-gc')
  const used = () => { global.gc(); global.gc(); const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers }
  const base = used()
  let keep = state.chunks18.map(c => { const ch = new Chunk(); ch.load(c.data, c.mask, true, true); return ch })
  const bytes = used() - base
  const columns = keep.length
  keep = null
  return { bytes, columns }
}

const ops = { load, path, nearest, decode, memory }

const rl = readline.createInterface({ input: process.stdin })
rl.on('line', line => {
  let reply
  try {
    const req = JSON.parse(line)
    const fn = ops[req.op]
    if (!fn) throw new Error(`unknown op ${req.op}`)
    reply = { ok: true, ...fn(req) }
  } catch (e) {
    reply = { ok: false, error: String(e && e.stack ? e.stack : e) }
  }
  process.stdout.write(JSON.stringify(reply) + '\n')
})
rl.on('close', () => process.exit(0))
process.stdout.write(JSON.stringify({ ok: true, ready: true, node: process.version }) + '\n')
