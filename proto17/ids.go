package proto17

import "fmt"

// ProtocolVersion is the protocol number of Minecraft 1.7.6–1.7.10.
const ProtocolVersion = 5

// FMLMarker is appended to the server address in the handshake by a Forge
// client; a Forge server treats connections without it as vanilla.
const FMLMarker = "\x00FML\x00"

// State is a connection state; packet ids are numbered per state and
// direction.
type State uint8

// Connection states.
const (
	Handshaking State = iota
	Status
	Login
	Play
)

// String names the state.
func (s State) String() string {
	switch s {
	case Handshaking:
		return "handshaking"
	case Status:
		return "status"
	case Login:
		return "login"
	case Play:
		return "play"
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// Direction says who sends a packet.
type Direction uint8

// Directions.
const (
	Clientbound Direction = iota // server to client
	Serverbound                  // client to server
)

// String names the direction.
func (d Direction) String() string {
	if d == Clientbound {
		return "clientbound"
	}
	return "serverbound"
}

// Handshaking, serverbound.
const (
	IDServerboundHandshake int32 = 0x00
)

// Status packets.
const (
	IDClientboundStatusResponse int32 = 0x00
	IDClientboundStatusPong     int32 = 0x01
	IDServerboundStatusRequest  int32 = 0x00
	IDServerboundStatusPing     int32 = 0x01
)

// Login packets.
const (
	IDClientboundLoginDisconnect    int32 = 0x00
	IDClientboundEncryptionRequest  int32 = 0x01
	IDClientboundLoginSuccess       int32 = 0x02
	IDServerboundLoginStart         int32 = 0x00
	IDServerboundEncryptionResponse int32 = 0x01
)

// Play packets, clientbound (every id protocol 5 defines).
const (
	IDClientboundKeepAlive             int32 = 0x00
	IDClientboundJoinGame              int32 = 0x01
	IDClientboundChat                  int32 = 0x02
	IDClientboundTimeUpdate            int32 = 0x03
	IDClientboundEntityEquipment       int32 = 0x04
	IDClientboundSpawnPosition         int32 = 0x05
	IDClientboundUpdateHealth          int32 = 0x06
	IDClientboundRespawn               int32 = 0x07
	IDClientboundPlayerPositionAndLook int32 = 0x08
	IDClientboundHeldItemChange        int32 = 0x09
	IDClientboundUseBed                int32 = 0x0A
	IDClientboundAnimation             int32 = 0x0B
	IDClientboundSpawnPlayer           int32 = 0x0C
	IDClientboundCollectItem           int32 = 0x0D
	IDClientboundSpawnObject           int32 = 0x0E
	IDClientboundSpawnMob              int32 = 0x0F
	IDClientboundSpawnPainting         int32 = 0x10
	IDClientboundSpawnExperienceOrb    int32 = 0x11
	IDClientboundEntityVelocity        int32 = 0x12
	IDClientboundDestroyEntities       int32 = 0x13
	IDClientboundEntity                int32 = 0x14
	IDClientboundEntityRelativeMove    int32 = 0x15
	IDClientboundEntityLook            int32 = 0x16
	IDClientboundEntityLookAndRelMove  int32 = 0x17
	IDClientboundEntityTeleport        int32 = 0x18
	IDClientboundEntityHeadLook        int32 = 0x19
	IDClientboundEntityStatus          int32 = 0x1A
	IDClientboundAttachEntity          int32 = 0x1B
	IDClientboundEntityMetadata        int32 = 0x1C
	IDClientboundEntityEffect          int32 = 0x1D
	IDClientboundRemoveEntityEffect    int32 = 0x1E
	IDClientboundSetExperience         int32 = 0x1F
	IDClientboundEntityProperties      int32 = 0x20
	IDClientboundChunkData             int32 = 0x21
	IDClientboundMultiBlockChange      int32 = 0x22
	IDClientboundBlockChange           int32 = 0x23
	IDClientboundBlockAction           int32 = 0x24
	IDClientboundBlockBreakAnimation   int32 = 0x25
	IDClientboundMapChunkBulk          int32 = 0x26
	IDClientboundExplosion             int32 = 0x27
	IDClientboundEffect                int32 = 0x28
	IDClientboundSoundEffect           int32 = 0x29
	IDClientboundParticle              int32 = 0x2A
	IDClientboundChangeGameState       int32 = 0x2B
	IDClientboundSpawnGlobalEntity     int32 = 0x2C
	IDClientboundOpenWindow            int32 = 0x2D
	IDClientboundCloseWindow           int32 = 0x2E
	IDClientboundSetSlot               int32 = 0x2F
	IDClientboundWindowItems           int32 = 0x30
	IDClientboundWindowProperty        int32 = 0x31
	IDClientboundConfirmTransaction    int32 = 0x32
	IDClientboundUpdateSign            int32 = 0x33
	IDClientboundMaps                  int32 = 0x34
	IDClientboundUpdateTileEntity      int32 = 0x35
	IDClientboundSignEditorOpen        int32 = 0x36
	IDClientboundStatistics            int32 = 0x37
	IDClientboundPlayerListItem        int32 = 0x38
	IDClientboundPlayerAbilities       int32 = 0x39
	IDClientboundTabComplete           int32 = 0x3A
	IDClientboundScoreboardObjective   int32 = 0x3B
	IDClientboundUpdateScore           int32 = 0x3C
	IDClientboundDisplayScoreboard     int32 = 0x3D
	IDClientboundTeams                 int32 = 0x3E
	IDClientboundPluginMessage         int32 = 0x3F
	IDClientboundDisconnect            int32 = 0x40
)

// Play packets, serverbound (every id protocol 5 defines).
const (
	IDServerboundKeepAlive             int32 = 0x00
	IDServerboundChat                  int32 = 0x01
	IDServerboundUseEntity             int32 = 0x02
	IDServerboundPlayer                int32 = 0x03
	IDServerboundPlayerPosition        int32 = 0x04
	IDServerboundPlayerLook            int32 = 0x05
	IDServerboundPlayerPositionAndLook int32 = 0x06
	IDServerboundPlayerDigging         int32 = 0x07
	IDServerboundPlayerBlockPlacement  int32 = 0x08
	IDServerboundHeldItemChange        int32 = 0x09
	IDServerboundAnimation             int32 = 0x0A
	IDServerboundEntityAction          int32 = 0x0B
	IDServerboundSteerVehicle          int32 = 0x0C
	IDServerboundCloseWindow           int32 = 0x0D
	IDServerboundClickWindow           int32 = 0x0E
	IDServerboundConfirmTransaction    int32 = 0x0F
	IDServerboundCreativeInventory     int32 = 0x10
	IDServerboundEnchantItem           int32 = 0x11
	IDServerboundUpdateSign            int32 = 0x12
	IDServerboundPlayerAbilities       int32 = 0x13
	IDServerboundTabComplete           int32 = 0x14
	IDServerboundClientSettings        int32 = 0x15
	IDServerboundClientStatus          int32 = 0x16
	IDServerboundPluginMessage         int32 = 0x17
)

var clientboundPlayNames = [...]string{
	"KeepAlive", "JoinGame", "Chat", "TimeUpdate", "EntityEquipment", "SpawnPosition",
	"UpdateHealth", "Respawn", "PlayerPositionAndLook", "HeldItemChange", "UseBed",
	"Animation", "SpawnPlayer", "CollectItem", "SpawnObject", "SpawnMob", "SpawnPainting",
	"SpawnExperienceOrb", "EntityVelocity", "DestroyEntities", "Entity", "EntityRelativeMove",
	"EntityLook", "EntityLookAndRelativeMove", "EntityTeleport", "EntityHeadLook",
	"EntityStatus", "AttachEntity", "EntityMetadata", "EntityEffect", "RemoveEntityEffect",
	"SetExperience", "EntityProperties", "ChunkData", "MultiBlockChange", "BlockChange",
	"BlockAction", "BlockBreakAnimation", "MapChunkBulk", "Explosion", "Effect", "SoundEffect",
	"Particle", "ChangeGameState", "SpawnGlobalEntity", "OpenWindow", "CloseWindow", "SetSlot",
	"WindowItems", "WindowProperty", "ConfirmTransaction", "UpdateSign", "Maps",
	"UpdateTileEntity", "SignEditorOpen", "Statistics", "PlayerListItem", "PlayerAbilities",
	"TabComplete", "ScoreboardObjective", "UpdateScore", "DisplayScoreboard", "Teams",
	"PluginMessage", "Disconnect",
}

var serverboundPlayNames = [...]string{
	"KeepAlive", "Chat", "UseEntity", "Player", "PlayerPosition", "PlayerLook",
	"PlayerPositionAndLook", "PlayerDigging", "PlayerBlockPlacement", "HeldItemChange",
	"Animation", "EntityAction", "SteerVehicle", "CloseWindow", "ClickWindow",
	"ConfirmTransaction", "CreativeInventoryAction", "EnchantItem", "UpdateSign",
	"PlayerAbilities", "TabComplete", "ClientSettings", "ClientStatus", "PluginMessage",
}

// PacketName returns the name of a packet id in a state and direction, or
// "Unknown(0x..)" for ids the protocol does not define. It names packets in
// logs and skip counters.
func PacketName(s State, d Direction, id int32) string {
	var names []string
	switch {
	case s == Handshaking && d == Serverbound:
		names = []string{"Handshake"}
	case s == Status && d == Clientbound:
		names = []string{"StatusResponse", "StatusPong"}
	case s == Status && d == Serverbound:
		names = []string{"StatusRequest", "StatusPing"}
	case s == Login && d == Clientbound:
		names = []string{"LoginDisconnect", "EncryptionRequest", "LoginSuccess"}
	case s == Login && d == Serverbound:
		names = []string{"LoginStart", "EncryptionResponse"}
	case s == Play && d == Clientbound:
		names = clientboundPlayNames[:]
	case s == Play && d == Serverbound:
		names = serverboundPlayNames[:]
	}
	if id >= 0 && int(id) < len(names) {
		return names[id]
	}
	return fmt.Sprintf("Unknown(0x%02X)", id)
}
