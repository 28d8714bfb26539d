// Package proto17 is the wire codec of Minecraft 1.7.10 (protocol 5) as a
// GregTech: New Horizons server speaks it: Forge's FML handshake, and the
// formats NotEnoughIds and ModularUI change.
//
// Every packet the agent needs is a struct implementing [Packet]: its id, its
// name, and a payload codec (the bytes after the packet id; framing is
// go-mc's net package with compression off). [New] and [Decode] look packets
// up by state, direction and id. Clientbound and serverbound packets both
// decode and encode, so the client and a fake server share one codec; types
// prefixed Serverbound are the client's forms of packets that exist in both
// directions.
//
// Formats are decided from the server's mod list, never guessed:
// [FormatsFromMods] (or [ServerStatus.Formats] after a ping) turns on
// [Formats.NEID] (16-bit block ids and metadata in chunks and block changes),
// [Formats.ModularUI] (a VarInt real count after every item stack) and
// [Formats.ModularUI2] (the stack's count byte widened to a VarInt); GTNH 2.8
// runs all three.
//
// Decoding never panics. Malformed input yields an [*Error] naming the
// packet, the field and the offset, with [ErrTruncated], [ErrTrailing],
// [ErrInvalid] or [ErrTooLarge] as its cause, so a connection can skip and
// count one bad packet and keep going.
//
// Chunks: [ChunkData] and [MapChunkBulk] decode only their headers; a
// [ChunkDecoder] inflates each column's block ids into one allocation
// that its [chunk.Section]s read in place, keeps metadata only when it is
// not all zero (NotEnoughIds metadata as nibbles when every value is below
// 16), packs uniform sections at once and drops light, reusing its
// inflater and scratch buffer; the palette form comes
// later (world.State.CompactChunks). [ChunkEncoder] writes columns in either format for tests,
// benchmarks and the fake server.
//
// Forge: [DecodeFML] and [EncodeFML] handle the FML|HS messages
// ([ServerHello], [ClientHello], [ModList], [ModIDData], [HandshakeAck],
// [HandshakeReset]); [ModIDData.FillIDMap] fills the world's id map from the
// server's registry; [Multipart] reassembles FML|MP messages and
// [SplitMultipart] produces them; [AppendVarShort] and [ReadVarShort] are
// Forge's plugin-message length; [RegisterPayload] builds the REGISTER list.
//
// Item stacks are [Slot]s (with their gzipped NBT, decoded by a bounded NBT
// reader) and convert to [world.ItemStack] through an [rules.IDMap].
//
// The formats were checked against Forge 1.7.10 (FMLHandshakeMessage,
// ByteBufUtils, the S3FPacketCustomPayload patch, NetworkDispatcher's
// multipart handling), NotEnoughIds 2.1.x (its S21/S22/S23/S26 packet,
// Chunk and ExtendedBlockStorage mixins), ModularUI 1.2.20 (its PacketBuffer
// mixin), ModularUI2 2.2.18 (its PacketBuffer transformer), the GTNH 2.8.4
// release manifest and minecraft-data's pc/1.7 protocol description; where
// minecraft-data differs from the game (multi block change records, the
// spawn-object velocity condition, the order of the serverbound position's
// y fields) the game's code was followed.
package proto17
