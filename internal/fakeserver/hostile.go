package fakeserver

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"math"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// The hostile burst (Options.Hostile): packets a malicious or broken server
// could send, each one a client must drop without running out of memory.

// NBTBomb is gzipped item NBT whose root compound holds "ench", a list of
// compounds whose length field says 2^31-1 and which has no elements: a
// decoder that sizes the list by the length field allocates gigabytes
// before it reads a byte of them.
func NBTBomb() []byte {
	var raw []byte
	raw = append(raw, byte(proto17.TagCompound), 0, 0) // root, name ""
	raw = append(raw, byte(proto17.TagList), 0, 4)
	raw = append(raw, "ench"...)
	raw = append(raw, byte(proto17.TagCompound))
	raw = binary.BigEndian.AppendUint32(raw, math.MaxInt32)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(raw)
	zw.Close()
	return b.Bytes()
}

// ZlibBombSize is how many bytes the zlib bomb chunk inflates to: far more
// than the largest column (16 NotEnoughIds sections with light arrays and
// biomes, under 200 KB).
const ZlibBombSize = 1 << 30

// zlibBomb builds the stream without compressing a gigabyte: after the first
// mebibyte of zeros, each further mebibyte (ended by a sync flush) deflates
// to the same bytes, so they are repeated. The checksum is Adler-32 of the
// zeros: a stays 1, b grows by 1 per byte.
var zlibBomb = sync.OnceValue(func() []byte { return buildZlibBomb(ZlibBombSize) })

// buildZlibBomb returns a zlib stream of size zero bytes (size a multiple of
// bombChunk).
func buildZlibBomb(size int) []byte {
	const chunk = bombChunk
	var b bytes.Buffer
	fw, _ := flate.NewWriter(&b, flate.BestCompression)
	zeros := make([]byte, chunk)
	fw.Write(zeros)
	fw.Flush()
	first := b.Len()
	fw.Write(zeros)
	fw.Flush()
	second := b.Len()
	fw.Close()
	s := b.Bytes()
	head, rep, tail := s[:first], s[first:second], s[second:]
	out := []byte{0x78, 0xDA} // zlib header: deflate, 32 KiB window, best compression
	out = append(out, head...)
	for range size/chunk - 1 {
		out = append(out, rep...)
	}
	out = append(out, tail...)
	return binary.BigEndian.AppendUint32(out, uint32(size%65521)<<16|1)
}

// bombChunk is the unit the zlib bomb repeats.
const bombChunk = 1 << 20

// ZlibBomb is a zlib stream of ZlibBombSize zero bytes (about 1 MB),
// built once.
func ZlibBomb() []byte { return zlibBomb() }

// hostileWindowSlots is the slot count the hostile Window Items announces.
const hostileWindowSlots = math.MaxInt16

// hostileLocked builds one hostile burst for c; s.mu is held.
func (c *conn) hostileLocked() []outgoing {
	s := c.s
	s.bursts++
	s.notifyLocked()
	s.logf("conn %d: hostile burst %d", c.id, s.bursts)
	stick, _ := s.ids.ItemID("minecraft:stick")
	bomb := proto17.Slot{ID: int16(stick), Count: 1, NBT: NBTBomb()}
	var out outbox
	// A Set Slot into an empty main-inventory slot (the server's own
	// inventory is unchanged: a client that drops the packet stays right).
	out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: 20, Item: bomb})
	// A dropped item far from the trees whose metadata carries the bomb;
	// the server does not track it, so it can never be collected.
	s.nextEID++
	eid := s.nextEID
	x, y, z := -24.5, float64(s.opts.GroundY+1), -24.5
	out.to(c, StageNone, &proto17.SpawnObject{EntityID: eid, Type: proto17.ObjectItem,
		X: proto17.ToFixed(x), Y: proto17.ToFixed(y), Z: proto17.ToFixed(z), Data: 1})
	out.to(c, StageNone, &proto17.EntityMetadata{EntityID: eid, Metadata: proto17.Metadata{
		{Key: 0, Type: proto17.MetaByte},
		{Key: 1, Type: proto17.MetaShort, Int: 300},
		{Key: proto17.MetaKeyItem, Type: proto17.MetaSlot, Slot: bomb},
	}})
	// A column outside the world whose data inflates to 1 GiB.
	far := int32(s.opts.ViewRadius + 4)
	out.to(c, StageNone, &proto17.ChunkData{X: far, Z: far, GroundUp: true, PrimaryMask: 0xFFFF, Data: ZlibBomb()})
	// Window Items announcing 32,767 slots, with two empty ones present.
	wi := []byte{0}
	wi = binary.BigEndian.AppendUint16(wi, hostileWindowSlots)
	wi = append(wi, 0xFF, 0xFF, 0xFF, 0xFF)
	out.add(outgoing{c: c, id: proto17.IDClientboundWindowItems, payload: wi})
	// An FML|MP preamble announcing 255 parts and 2^31-1 bytes; no part
	// follows.
	pre := proto17.AppendVarInt(nil, int32(len("GregTech")))
	pre = append(pre, "GregTech"...)
	pre = append(pre, 255)
	pre = binary.BigEndian.AppendUint32(pre, math.MaxInt32)
	out.to(c, StageNone, &proto17.PluginMessage{Channel: proto17.ChannelFMLMultipart, Data: pre})
	return out
}

// HostileBursts counts the hostile bursts sent.
func (s *Server) HostileBursts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bursts
}
