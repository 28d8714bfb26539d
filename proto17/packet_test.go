package proto17

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	vanilla   = Formats{}
	neid      = Formats{NEID: true}
	modular   = Formats{ModularUI: true}
	modular2  = Formats{ModularUI2: true}
	gtnh      = Formats{NEID: true, ModularUI: true, ModularUI2: true}
	allFormat = []Formats{vanilla, neid, modular, modular2, {ModularUI: true, ModularUI2: true}, gtnh}
)

// testSlot is a stack with NBT.
func testSlot(t testing.TB) Slot {
	t.Helper()
	n := &NBT{Root: Compound{"display": Compound{"Name": "Axe of Testing"}, "ench": List{Type: TagCompound, Values: []any{Compound{"id": int16(32), "lvl": int16(3)}}}}}
	gz, err := n.Gzip()
	require.NoError(t, err)
	return Slot{ID: 258, Count: 1, Damage: 12, NBT: gz}
}

type packetCase struct {
	name  string
	state State
	dir   Direction
	p     Packet
}

func packetCases(t testing.TB) []packetCase {
	slot := testSlot(t)
	meta := Metadata{
		{Key: 0, Type: MetaByte, Int: -3},
		{Key: 1, Type: MetaShort, Int: 300},
		{Key: 6, Type: MetaFloat, Float: 20},
		{Key: 2, Type: MetaString, String: "Grumm"},
		{Key: MetaKeyItem, Type: MetaSlot, Slot: slot},
		{Key: 12, Type: MetaInt, Int: -70000},
		{Key: 17, Type: MetaCoords, Coords: [3]int32{1, -2, 3}},
	}
	return []packetCase{
		{"Handshake", Handshaking, Serverbound, &Handshake{Protocol: ProtocolVersion, Host: "gtnh.example.org", Port: 25565, NextState: 2, FML: true}},
		{"HandshakeVanilla", Handshaking, Serverbound, &Handshake{Protocol: ProtocolVersion, Host: "localhost", Port: 1, NextState: 1}},
		{"StatusRequest", Status, Serverbound, &StatusRequest{}},
		{"StatusResponse", Status, Clientbound, &StatusResponse{JSON: `{"description":"x"}`}},
		{"StatusPing", Status, Serverbound, &StatusPing{Payload: -5}},
		{"StatusPong", Status, Clientbound, &StatusPong{Payload: 1 << 40}},
		{"LoginStart", Login, Serverbound, &LoginStart{Name: "gtnh_bot"}},
		{"LoginDisconnect", Login, Clientbound, &LoginDisconnect{Reason: `{"text":"bye"}`}},
		{"EncryptionRequest", Login, Clientbound, &EncryptionRequest{ServerID: "", PublicKey: []byte{1, 2, 3}, VerifyToken: []byte{4, 5, 6, 7}}},
		{"EncryptionResponse", Login, Serverbound, &EncryptionResponse{SharedSecret: make([]byte, 128), VerifyToken: []byte{9}}},
		{"LoginSuccess", Login, Clientbound, &LoginSuccess{UUID: "069a79f4-44e9-4726-a5be-fca90e38aaf5", Name: "Notch"}},
		{"KeepAlive", Play, Clientbound, &KeepAlive{ID: -123456}},
		{"JoinGame", Play, Clientbound, &JoinGame{EntityID: 42, GameMode: 0x8, Dimension: -1, Difficulty: 2, MaxPlayers: 20, LevelType: "default"}},
		{"Chat", Play, Clientbound, &Chat{JSON: `{"text":"héllo §aworld"}`}},
		{"TimeUpdate", Play, Clientbound, &TimeUpdate{WorldAge: 1 << 33, TimeOfDay: -6000}},
		{"SpawnPosition", Play, Clientbound, &SpawnPosition{X: -100, Y: 64, Z: 1 << 20}},
		{"UpdateHealth", Play, Clientbound, &UpdateHealth{Health: 17.5, Food: 19, Saturation: 2.25}},
		{"Respawn", Play, Clientbound, &Respawn{Dimension: -1, Difficulty: 3, GameMode: 1, LevelType: "flat"}},
		{"PlayerPositionAndLook", Play, Clientbound, &PlayerPositionAndLook{X: 0.5, Y: 65.62, Z: -3.25, Yaw: 90, Pitch: -12.5, OnGround: true}},
		{"HeldItemChange", Play, Clientbound, &HeldItemChange{Slot: 8}},
		{"SpawnPlayer", Play, Clientbound, &SpawnPlayer{EntityID: 300, UUID: "069a79f4-44e9-4726-a5be-fca90e38aaf5", Name: "Notch",
			Properties: []PlayerProperty{{Name: "textures", Value: "eyJ0", Signature: "c2ln"}},
			X:          32 * 10, Y: 32 * 64, Z: -32 * 5, Yaw: -128, Pitch: 127, CurrentItem: 276, Metadata: meta}},
		{"CollectItem", Play, Clientbound, &CollectItem{CollectedID: 7, CollectorID: 42}},
		{"SpawnObjectItem", Play, Clientbound, &SpawnObject{EntityID: 7, Type: ObjectItem, X: 1, Y: 2, Z: 3, Pitch: 4, Yaw: 5, Data: 1, VelX: -100, VelY: 200, VelZ: 300}},
		{"SpawnObjectNoVelocity", Play, Clientbound, &SpawnObject{EntityID: 8, Type: ObjectArrow, X: -1, Y: -2, Z: -3, Data: 0}},
		{"SpawnObjectNegativeData", Play, Clientbound, &SpawnObject{EntityID: 9, Type: 90, Data: -5}},
		{"SpawnMob", Play, Clientbound, &SpawnMob{EntityID: 1 << 20, Type: 50, X: 1, Y: 2, Z: 3, Yaw: 1, Pitch: 2, HeadYaw: 3, VelX: 4, VelY: 5, VelZ: 6, Metadata: meta[:3]}},
		{"DestroyEntities", Play, Clientbound, &DestroyEntities{IDs: []int32{1, 2, -3, 1 << 30}}},
		{"DestroyEntitiesEmpty", Play, Clientbound, &DestroyEntities{}},
		{"EntityRelativeMove", Play, Clientbound, &EntityRelativeMove{EntityID: 5, DX: -128, DY: 0, DZ: 127}},
		{"EntityLookAndRelativeMove", Play, Clientbound, &EntityLookAndRelativeMove{EntityID: 5, DX: 1, DY: -2, DZ: 3, Yaw: 64, Pitch: -64}},
		{"EntityTeleport", Play, Clientbound, &EntityTeleport{EntityID: 5, X: -1 << 20, Y: 2048, Z: 1 << 20, Yaw: 1, Pitch: 2}},
		{"EntityMetadata", Play, Clientbound, &EntityMetadata{EntityID: 77, Metadata: meta}},
		{"EntityAnimation", Play, Clientbound, &EntityAnimation{EntityID: 300, Animation: AnimDamage}},
		{"EntityAnimationNegativeID", Play, Clientbound, &EntityAnimation{EntityID: -1, Animation: 255}},
		{"EntityHeadLook", Play, Clientbound, &EntityHeadLook{EntityID: 1 << 20, HeadYaw: -64}},
		{"EntityStatusHurt", Play, Clientbound, &EntityStatus{EntityID: 42, Status: StatusHurt}},
		{"EntityStatusDead", Play, Clientbound, &EntityStatus{EntityID: -7, Status: StatusDead}},
		{"EntityMetadataEmpty", Play, Clientbound, &EntityMetadata{EntityID: 77}},
		{"ChunkData", Play, Clientbound, &ChunkData{X: -3, Z: 4, GroundUp: true, PrimaryMask: 0x00FF, AddMask: 0, Data: []byte{0x78, 0x9c, 1, 2, 3}}},
		{"MultiBlockChange", Play, Clientbound, &MultiBlockChange{ChunkX: 1, ChunkZ: -2, Records: []BlockRecord{{X: 15, Y: 255, Z: 0, BlockID: 4095, Meta: 15}, {X: 1, Y: 2, Z: 3, BlockID: 17, Meta: 2}}}},
		{"BlockChange", Play, Clientbound, &BlockChange{X: -5, Y: 70, Z: 1 << 24, BlockID: 17, Meta: 3}},
		{"MapChunkBulk", Play, Clientbound, &MapChunkBulk{SkyLight: true, Columns: []BulkColumn{{X: 1, Z: 2, PrimaryMask: 3, AddMask: 1}, {X: -1, Z: -2, PrimaryMask: 0xFFFF}}, Data: []byte{1, 2, 3}}},
		{"OpenWindow", Play, Clientbound, &OpenWindow{WindowID: 3, Type: 0, Title: "container.chest", Slots: 27, UseTitle: false}},
		{"OpenWindowHorse", Play, Clientbound, &OpenWindow{WindowID: 4, Type: WindowTypeHorse, Title: "Horse", Slots: 2, UseTitle: true, EntityID: 99}},
		{"CloseWindow", Play, Clientbound, &CloseWindow{WindowID: 3}},
		{"SetSlot", Play, Clientbound, &SetSlot{WindowID: -1, Slot: -1, Item: slot}},
		{"SetSlotEmpty", Play, Clientbound, &SetSlot{WindowID: 0, Slot: 36}},
		{"WindowItems", Play, Clientbound, &WindowItems{WindowID: 0, Items: []Slot{{}, slot, {ID: 17, Count: 64, Damage: 3}, {}}}},
		{"WindowProperty", Play, Clientbound, &WindowProperty{WindowID: 3, Property: 0, Value: -1}},
		{"ConfirmTransaction", Play, Clientbound, &ConfirmTransaction{WindowID: 1, Action: -7, Accepted: false}},
		{"PluginMessage", Play, Clientbound, &PluginMessage{Channel: "FML|HS", Data: []byte{0, 2, 0, 0, 0, 0}}},
		{"PluginMessageLarge", Play, Clientbound, &PluginMessage{Channel: "FML|HS", Data: make([]byte, 0x8123)}},
		{"Disconnect", Play, Clientbound, &Disconnect{Reason: `{"translate":"disconnect.timeout"}`}},
		{"ServerboundKeepAlive", Play, Serverbound, &ServerboundKeepAlive{ID: 99}},
		{"ServerboundChat", Play, Serverbound, &ServerboundChat{Message: "/help"}},
		{"UseEntity", Play, Serverbound, &UseEntity{Target: 7, Action: UseEntityAttack}},
		{"EntityAction", Play, Serverbound, &EntityAction{EntityID: 42, Action: ActionStartSprint, JumpBoost: 0}},
		{"Player", Play, Serverbound, &Player{OnGround: true}},
		{"PlayerPosition", Play, Serverbound, NewPlayerPosition(0.5, 64, -0.5, true)},
		{"PlayerLook", Play, Serverbound, &PlayerLook{Yaw: 180, Pitch: 90, OnGround: false}},
		{"ServerboundPlayerPositionAndLook", Play, Serverbound, &ServerboundPlayerPositionAndLook{X: 1, FeetY: 2, HeadY: 3.62, Z: 4, Yaw: 5, Pitch: 6, OnGround: true}},
		{"PlayerDigging", Play, Serverbound, &PlayerDigging{Status: DigFinish, X: -10, Y: 63, Z: 20, Face: FaceTop}},
		{"PlayerBlockPlacement", Play, Serverbound, &PlayerBlockPlacement{X: 1, Y: 2, Z: 3, Face: FaceWest, Held: Slot{ID: 4, Count: 10}, CursorX: 8, CursorY: 16, CursorZ: 0}},
		{"PlayerBlockPlacementUse", Play, Serverbound, &PlayerBlockPlacement{X: -1, Y: 255, Z: -1, Face: -1, Held: slot}},
		{"ServerboundHeldItemChange", Play, Serverbound, &ServerboundHeldItemChange{Slot: 4}},
		{"Animation", Play, Serverbound, &Animation{EntityID: 42, Animation: AnimationSwingArm}},
		{"ServerboundCloseWindow", Play, Serverbound, &ServerboundCloseWindow{WindowID: 0}},
		{"ClickWindow", Play, Serverbound, &ClickWindow{WindowID: 1, Slot: 5, Button: 0, Action: 12, Mode: 0, Clicked: slot}},
		{"ServerboundConfirmTransaction", Play, Serverbound, &ServerboundConfirmTransaction{WindowID: 1, Action: 12, Accepted: true}},
		{"ClientSettings", Play, Serverbound, &ClientSettings{Locale: "en_US", ViewDistance: 8, ChatFlags: 0, ChatColors: true, Difficulty: 2, ShowCape: true}},
		{"ClientStatus", Play, Serverbound, &ClientStatus{Action: StatusRespawn}},
		{"ServerboundPluginMessage", Play, Serverbound, &ServerboundPluginMessage{Channel: "REGISTER", Data: RegisterPayload(ClientChannels...)}},
	}
}

func TestPacketRoundTrip(t *testing.T) {
	for _, f := range allFormat {
		for _, tc := range packetCases(t) {
			t.Run(f.String()+"/"+tc.name, func(t *testing.T) {
				data, err := Payload(tc.p, f)
				require.NoError(t, err)
				got := New(tc.state, tc.dir, tc.p.PacketID())
				require.NotNil(t, got, "no codec registered")
				assert.Equal(t, tc.p.PacketName(), got.PacketName())
				require.NoError(t, got.DecodePayload(data, f))
				assert.Equal(t, tc.p, got)
				again, err := Payload(got, f)
				require.NoError(t, err)
				assert.Equal(t, data, again, "re-encoding changed the bytes")
			})
		}
	}
}

func TestPacketTruncatedAndTrailing(t *testing.T) {
	for _, f := range allFormat {
		for _, tc := range packetCases(t) {
			t.Run(f.String()+"/"+tc.name, func(t *testing.T) {
				data, err := Payload(tc.p, f)
				require.NoError(t, err)
				for n := 0; n < len(data); n++ {
					if n > 64 && n < len(data)-64 && n%97 != 0 {
						continue // long payloads: the ends and a sample of the middle
					}
					p := New(tc.state, tc.dir, tc.p.PacketID())
					err := p.DecodePayload(data[:n], f)
					require.Error(t, err, "prefix of %d of %d bytes decoded", n, len(data))
					var pe *Error
					require.ErrorAs(t, err, &pe)
					assert.Equal(t, tc.p.PacketName(), pe.Packet)
					assert.ErrorIs(t, err, ErrTruncated, "prefix %d: %v", n, err)
				}
				p := New(tc.state, tc.dir, tc.p.PacketID())
				err = p.DecodePayload(append(data[:len(data):len(data)], 0), f)
				assert.ErrorIs(t, err, ErrTrailing)
			})
		}
	}
}

func TestRegistry(t *testing.T) {
	for key, ids := range registry {
		for id, mk := range ids {
			p := mk()
			assert.Equal(t, id, p.PacketID(), "%v %v %T", key.s, key.d, p)
		}
	}
	assert.Nil(t, New(Play, Clientbound, 0x7F))
	p, err := Decode(Play, Clientbound, IDClientboundExplosion, []byte{1}, vanilla)
	assert.Nil(t, p)
	assert.NoError(t, err)
	p, err = Decode(Play, Clientbound, IDClientboundKeepAlive, []byte{0, 0, 0, 7}, vanilla)
	require.NoError(t, err)
	assert.Equal(t, &KeepAlive{ID: 7}, p)
	_, err = Decode(Play, Clientbound, IDClientboundKeepAlive, []byte{0, 0, 7}, vanilla)
	assert.ErrorIs(t, err, ErrTruncated)

	assert.Equal(t, "MapChunkBulk", PacketName(Play, Clientbound, IDClientboundMapChunkBulk))
	assert.Equal(t, "PluginMessage", PacketName(Play, Serverbound, IDServerboundPluginMessage))
	assert.Equal(t, "LoginSuccess", PacketName(Login, Clientbound, IDClientboundLoginSuccess))
	assert.Equal(t, "Unknown(0x41)", PacketName(Play, Clientbound, 0x41))
	assert.Equal(t, "Unknown(0x05)", PacketName(Handshaking, Serverbound, 5))
}

func TestGoldenBytes(t *testing.T) {
	tests := []struct {
		name string
		p    Packet
		f    Formats
		want []byte
	}{
		{"handshake with FML marker", &Handshake{Protocol: 5, Host: "localhost", Port: 25565, NextState: 2, FML: true}, vanilla,
			append(append([]byte{0x05, 0x0E}, "localhost\x00FML\x00"...), 0x63, 0xDD, 0x02)},
		{"NEID block change: VarInt id, u16 meta", &BlockChange{X: 1, Y: 64, Z: -1, BlockID: 4000, Meta: 300}, neid,
			[]byte{0, 0, 0, 1, 0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0xA0, 0x1F, 0x01, 0x2C}},
		{"vanilla block change: VarInt id, u8 meta", &BlockChange{X: 1, Y: 64, Z: -1, BlockID: 17, Meta: 2}, vanilla,
			[]byte{0, 0, 0, 1, 0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0x11, 0x02}},
		{"NEID multi block change: 6-byte record", &MultiBlockChange{ChunkX: 1, ChunkZ: -2, Records: []BlockRecord{{X: 3, Y: 70, Z: 5, BlockID: 4000, Meta: 300}}}, neid,
			[]byte{0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFE, 0x00, 0x01, 0, 0, 0, 6, 0x35, 0x46, 0x0F, 0xA0, 0x01, 0x2C}},
		{"vanilla multi block change: u16 pos, u16 id<<4|meta", &MultiBlockChange{ChunkX: 1, ChunkZ: -2, Records: []BlockRecord{{X: 3, Y: 70, Z: 5, BlockID: 17, Meta: 2}}}, vanilla,
			[]byte{0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFE, 0x00, 0x01, 0, 0, 0, 4, 0x35, 0x46, 0x01, 0x12}},
		{"ModularUI slot: VarInt real count", &SetSlot{WindowID: 0, Slot: 36, Item: Slot{ID: 17, Count: 1000}}, modular,
			[]byte{0x00, 0x00, 0x24, 0x00, 0x11, 0xE8, 0x00, 0x00, 0xFF, 0xFF, 0xE8, 0x07}},
		{"ModularUI2 slot: VarInt count in place of the byte", &SetSlot{WindowID: 0, Slot: 36, Item: Slot{ID: 17, Count: 1000}}, modular2,
			[]byte{0x00, 0x00, 0x24, 0x00, 0x11, 0xE8, 0x07, 0x00, 0x00, 0xFF, 0xFF}},
		{"GTNH slot: ModularUI2 and ModularUI counts", &SetSlot{WindowID: 0, Slot: 36, Item: Slot{ID: 17, Count: 1000}}, gtnh,
			[]byte{0x00, 0x00, 0x24, 0x00, 0x11, 0xE8, 0x07, 0x00, 0x00, 0xFF, 0xFF, 0xE8, 0x07}},
		{"vanilla slot", &SetSlot{WindowID: 0, Slot: 36, Item: Slot{ID: 17, Count: 64, Damage: 2}}, vanilla,
			[]byte{0x00, 0x00, 0x24, 0x00, 0x11, 0x40, 0x00, 0x02, 0xFF, 0xFF}},
		{"destroy entities: i8 count", &DestroyEntities{IDs: []int32{1, 258}}, vanilla,
			[]byte{0x02, 0, 0, 0, 1, 0, 0, 1, 2}},
		{"window items: i16 count", &WindowItems{WindowID: 1, Items: []Slot{{}, {}}}, vanilla,
			[]byte{0x01, 0x00, 0x02, 0xFF, 0xFF, 0xFF, 0xFF}},
		{"serverbound position: x, feet, head, z", &PlayerPosition{X: 1, FeetY: 2, HeadY: 3.5, Z: 4, OnGround: true}, vanilla,
			[]byte{0x3F, 0xF0, 0, 0, 0, 0, 0, 0, 0x40, 0x00, 0, 0, 0, 0, 0, 0, 0x40, 0x0C, 0, 0, 0, 0, 0, 0, 0x40, 0x10, 0, 0, 0, 0, 0, 0, 1}},
		{"serverbound plugin message: i16 length", &ServerboundPluginMessage{Channel: "A", Data: []byte{9, 8}}, vanilla,
			[]byte{0x01, 'A', 0x00, 0x02, 9, 8}},
		{"encryption request: i16 arrays", &EncryptionRequest{ServerID: "x", PublicKey: []byte{1}, VerifyToken: []byte{2, 3}}, vanilla,
			[]byte{0x01, 'x', 0x00, 0x01, 1, 0x00, 0x02, 2, 3}},
		{"spawn object: velocity only when data > 0", &SpawnObject{EntityID: 1, Type: 2, Data: 1, VelX: 1, VelY: 2, VelZ: 3}, vanilla,
			append(append([]byte{0x01, 0x02}, make([]byte, 17)...), 1, 0, 1, 0, 2, 0, 3)},
		{"entity metadata: byte header type<<5|key, 0x7F end", &EntityMetadata{EntityID: 1, Metadata: Metadata{{Key: 0, Type: MetaByte, Int: 1}, {Key: 10, Type: MetaSlot, Slot: Slot{ID: 1, Count: 2}}}}, vanilla,
			[]byte{0, 0, 0, 1, 0x00, 0x01, 0xAA, 0x00, 0x01, 0x02, 0x00, 0x00, 0xFF, 0xFF, 0x7F}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Payload(tc.p, tc.f)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}

	// A clientbound plugin message of 0x8123 bytes: varshort A1 23 01.
	pm := &PluginMessage{Channel: "X", Data: make([]byte, 0x18123)}
	b, err := Payload(pm, vanilla)
	require.NoError(t, err)
	assert.Equal(t, []byte{0x01, 'X', 0x81, 0x23, 0x03}, b[:5])
	assert.Len(t, b, 5+0x18123)
}

func TestEncodeErrors(t *testing.T) {
	tests := []struct {
		name  string
		p     Packet
		f     Formats
		field string
	}{
		{"vanilla meta over 255", &BlockChange{BlockID: 1, Meta: 256}, vanilla, "meta"},
		{"block id over 16 bits", &BlockChange{BlockID: 70000}, neid, "block id"},
		{"vanilla multi block id", &MultiBlockChange{Records: []BlockRecord{{BlockID: 4096}}}, vanilla, "records[0]"},
		{"local x over 15", &MultiBlockChange{Records: []BlockRecord{{X: 16}}}, neid, "records[0]"},
		{"destroy 128", &DestroyEntities{IDs: make([]int32, 128)}, vanilla, "count"},
		{"count over a byte without ModularUI", &SetSlot{Item: Slot{ID: 1, Count: 200}}, vanilla, "item.count"},
		{"serverbound chat over 100", &ServerboundChat{Message: string(make([]byte, 101))}, vanilla, "message"},
		{"serverbound plugin data over 32767", &ServerboundPluginMessage{Channel: "x", Data: make([]byte, 32768)}, vanilla, "data"},
		{"channel over 20", &PluginMessage{Channel: "abcdefghijklmnopqrstu"}, vanilla, "channel"},
		{"metadata end-marker collision", &EntityMetadata{Metadata: Metadata{{Key: 31, Type: MetaFloat}}}, vanilla, "metadata"},
		{"metadata byte range", &EntityMetadata{Metadata: Metadata{{Key: 1, Type: MetaByte, Int: 300}}}, vanilla, "metadata.byte"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Payload(tc.p, tc.f)
			var pe *Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.field, pe.Field)
			assert.Equal(t, tc.p.PacketName(), pe.Packet)
		})
	}
}

func TestDecodeErrorsNameField(t *testing.T) {
	tests := []struct {
		name   string
		p      Packet
		f      Formats
		data   []byte
		field  string
		offset int
		cause  error
	}{
		{"negative destroy count", &DestroyEntities{}, vanilla, []byte{0xFF}, "count", 0, ErrInvalid},
		{"negative window item count", &WindowItems{}, vanilla, []byte{0, 0xFF, 0xFF}, "count", 1, ErrInvalid},
		{"item id 0", &SetSlot{}, vanilla, []byte{0, 0, 0, 0, 0, 1, 0, 0, 0xFF, 0xFF}, "item.id", 3, ErrInvalid},
		{"truncated nbt in third slot", &WindowItems{}, vanilla, []byte{0, 0, 3, 0xFF, 0xFF, 0xFF, 0xFF, 0, 1, 1, 0, 0, 0, 5, 1}, "items[2].slot.nbt", 14, ErrTruncated},
		{"metadata type 7", &EntityMetadata{}, vanilla, []byte{0, 0, 0, 1, 0xE0, 0x7F}, "metadata[0].type", 4, ErrInvalid},
		{"multi block change length mismatch (NEID data read as vanilla)", &MultiBlockChange{}, vanilla, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0}, "data length", 10, ErrInvalid},
		{"string too long", &Chat{}, vanilla, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x07}, "json", 0, ErrTooLarge},
		{"varint of six bytes", &SpawnObject{}, vanilla, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, "entity id", 0, ErrInvalid},
		{"negative string length", &Chat{}, vanilla, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, "json", 0, ErrInvalid},
		{"block change id out of range", &BlockChange{}, neid, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x80, 0x04, 0, 0}, "block id", 9, ErrInvalid},
		{"spawn player property count", &SpawnPlayer{}, vanilla, []byte{1, 0, 0, 0x7F}, "properties", 3, ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.DecodePayload(tc.data, tc.f)
			var pe *Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.field, pe.Field, "%v", err)
			assert.Equal(t, tc.offset, pe.Offset, "%v", err)
			assert.True(t, errors.Is(err, tc.cause), "cause of %v", err)
			assert.Contains(t, err.Error(), tc.p.PacketName())
		})
	}
}
