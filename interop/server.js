'use strict'
// An independent Minecraft 1.7.10 server for interop_test.go, built on
// node-minecraft-protocol (offline mode, protocol 5). It plays a fixed script
// to each client that logs in and reports what it sees as JSON lines on
// stdout:
//
//   {"event":"listening","port":N}               ready for clients
//   {"event":"login","username":…,"uuid":…,"host":…,"protocol":5}
//   {"event":"sent"}                             the whole script was written
//   {"event":"packet","name":…,"data":{…}}       every packet the client sent
//   {"event":"end","reason":…}, {"event":"error","message":…}
//
// The script: Join Game, Spawn Position, Player Position And Look, a
// Keep Alive with a known id, one chunk column (map_chunk), a Block Change, a
// Multi Block Change, two plugin messages and a chat line. node-minecraft-
// protocol describes two of these differently from the real 1.7.10 server
// (its multi-block-change records are laid out as metadata/id, y, z/x and its
// plugin-message length is an i16), so those are written as raw bytes in the
// layout of the real server and of Forge (4-byte records x<<12|z<<8|y then
// id<<4|meta; Forge's varshort length).
//
// Environment: PORT (default 0: any free port).

const mc = require('minecraft-protocol')
const zlib = require('zlib')

const KEEP_ALIVE_ID = 0x5eed1234
const BIG_CHANNEL = 'GTNH|Interop'
const BIG_LENGTH = 40000 // longer than an i16 length allows: needs the varshort's third byte

function emit (event) {
  process.stdout.write(JSON.stringify(event, (k, v) => {
    if (typeof v === 'bigint') return v.toString()
    if (v && v.type === 'Buffer' && Array.isArray(v.data)) return { bytes: v.data.length }
    return v
  }) + '\n')
}

// varInt encodes a protocol VarInt.
function varInt (n) {
  const out = []
  let u = n >>> 0
  while (u >= 0x80) {
    out.push((u & 0x7f) | 0x80)
    u >>>= 7
  }
  out.push(u)
  return Buffer.from(out)
}

// mcString encodes a VarInt-prefixed UTF-8 string.
function mcString (s) {
  const b = Buffer.from(s, 'utf8')
  return Buffer.concat([varInt(b.length), b])
}

// varShort encodes Forge's varshort: the low 15 bits in a u16 whose top bit
// says that one more byte carries bits 15..22.
function varShort (n) {
  const low = n & 0x7fff
  const high = n >> 15
  if (high === 0) {
    const b = Buffer.alloc(2)
    b.writeUInt16BE(low)
    return b
  }
  const b = Buffer.alloc(3)
  b.writeUInt16BE(low | 0x8000)
  b.writeUInt8(high, 2)
  return b
}

// pluginMessage is a clientbound plugin message (0x3F) as a Forge server
// writes it.
function pluginMessage (channel, data) {
  return Buffer.concat([varInt(0x3f), mcString(channel), varShort(data.length), data])
}

// multiBlockChange is a Multi Block Change (0x22) as the 1.7.10 server
// writes it: chunk x, chunk z, u16 count, i32 data length, 4-byte records.
function multiBlockChange (chunkX, chunkZ, records) {
  const head = Buffer.alloc(14)
  head.writeInt32BE(chunkX, 0)
  head.writeInt32BE(chunkZ, 4)
  head.writeUInt16BE(records.length, 8)
  head.writeInt32BE(records.length * 4, 10)
  const body = Buffer.alloc(records.length * 4)
  records.forEach((r, i) => {
    body.writeUInt16BE((r.x << 12) | (r.z << 8) | r.y, 4 * i)
    body.writeUInt16BE((r.id << 4) | r.meta, 4 * i + 2)
  })
  return Buffer.concat([varInt(0x22), head, body])
}

// column builds the uncompressed data of chunk (0, 0) in the vanilla 1.7.10
// layout, arrays grouped by kind over the sections of the bitmask: block ids,
// metadata nibbles, block light, sky light, then the "add" nibbles of the
// sections in the add bitmask, then 256 biome bytes.
//   section 0: bedrock at y 0, stone at y 1..3, a spruce log (17:1) at
//              (5, 4, 6), glass (20) at (3, 12, 4)
//   section 1: block id 300 with metadata 7 at (1, 17, 1) (the add nibble
//              carries the 1 of 0x12C), wool (35:14) at (15, 31, 15)
function column () {
  const sections = [0, 1]
  const ids = sections.map(() => Buffer.alloc(4096))
  const meta = sections.map(() => Buffer.alloc(2048))
  const add = Buffer.alloc(2048)
  const idx = (x, y, z) => ((y & 15) << 8) | (z << 4) | x
  const set = (x, y, z, id, m) => {
    const s = y >> 4
    const i = idx(x, y, z)
    ids[s][i] = id & 0xff
    meta[s][i >> 1] |= (m & 15) << (4 * (i & 1))
    if (id > 0xff) add[i >> 1] |= ((id >> 8) & 15) << (4 * (i & 1))
  }
  for (let x = 0; x < 16; x++) {
    for (let z = 0; z < 16; z++) {
      set(x, 0, z, 7, 0)
      for (let y = 1; y <= 3; y++) set(x, y, z, 1, 0)
    }
  }
  set(5, 4, 6, 17, 1)
  set(3, 12, 4, 20, 0)
  set(1, 17, 1, 300, 7)
  set(15, 31, 15, 35, 14)
  const light = sections.map(() => Buffer.alloc(2048, 0))
  const sky = sections.map(() => Buffer.alloc(2048, 0xff))
  const biomes = Buffer.alloc(256, 4) // forest
  return Buffer.concat([...ids, ...meta, ...light, ...sky, add, biomes])
}

const server = mc.createServer({
  'online-mode': false,
  version: '1.7.10',
  host: '127.0.0.1',
  port: Number(process.env.PORT || 0),
  keepAlive: false, // the script sends its own keep-alive with a known id
  motd: 'node-minecraft-protocol interop',
  maxPlayers: 5,
  hideErrors: true
})

server.on('listening', () => emit({ event: 'listening', port: server.socketServer.address().port }))
server.on('error', (err) => emit({ event: 'error', message: String(err) }))

server.on('login', (client) => {
  emit({ event: 'login', username: client.username, uuid: client.uuid, host: client.serverHost, protocol: client.protocolVersion })
  client.on('packet', (data, meta) => {
    if (meta.state === 'play') emit({ event: 'packet', name: meta.name, data })
  })
  client.on('end', (reason) => emit({ event: 'end', reason: String(reason || '') }))
  client.on('error', (err) => emit({ event: 'error', message: String(err) }))

  client.write('login', { entityId: 42, gameMode: 0, dimension: 0, difficulty: 2, maxPlayers: 5, levelType: 'default' })
  client.write('spawn_position', { location: { x: 8, y: 64, z: 8 } })
  client.write('position', { x: 8.5, y: 65.62, z: 8.5, yaw: 90, pitch: 0, onGround: true })
  client.write('keep_alive', { keepAliveId: KEEP_ALIVE_ID })
  client.write('map_chunk', {
    x: 0,
    z: 0,
    groundUp: true,
    bitMap: 0b11,
    addBitMap: 0b10,
    compressedChunkData: zlib.deflateSync(column())
  })
  client.write('block_change', { location: { x: 5, y: 4, z: 6 }, type: 0, metadata: 0 })
  client.writeRaw(multiBlockChange(0, 0, [
    { x: 3, y: 12, z: 4, id: 4, meta: 0 },
    { x: 15, y: 31, z: 15, id: 35, meta: 3 },
    { x: 0, y: 255, z: 0, id: 89, meta: 0 }
  ]))
  client.writeRaw(pluginMessage('MC|Brand', mcString('nmp')))
  const big = Buffer.alloc(BIG_LENGTH)
  for (let i = 0; i < big.length; i++) big[i] = i % 251
  client.writeRaw(pluginMessage(BIG_CHANNEL, big))
  client.write('chat', { message: JSON.stringify({ text: 'hello from ', extra: [{ text: 'node-minecraft-protocol', color: 'gold' }] }) })
  emit({ event: 'sent' })
})

process.on('SIGTERM', () => {
  server.close()
  process.exit(0)
})
