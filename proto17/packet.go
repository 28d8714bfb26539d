package proto17

// Packet is one packet of the protocol: its id and name, and the codec of its
// payload (the bytes after the packet id; framing and the id itself are the
// connection's business). Formats select the NEID and ModularUI variants;
// packets they do not affect ignore them.
//
// DecodePayload never panics: on any malformed input it returns an *Error
// naming the packet, the field and the offset, and the packet's content is
// then unspecified. Large byte fields (ChunkData.Data, MapChunkBulk.Data,
// plugin-message data) alias the payload; everything else is copied.
// AppendPayload returns an *Error for values the wire format cannot carry.
type Packet interface {
	PacketID() int32
	PacketName() string
	AppendPayload(dst []byte, f Formats) ([]byte, error)
	DecodePayload(data []byte, f Formats) error
}

// Payload encodes a packet's payload into a new slice.
func Payload(p Packet, f Formats) ([]byte, error) { return p.AppendPayload(nil, f) }

type registryKey struct {
	s State
	d Direction
}

var registry = map[registryKey]map[int32]func() Packet{
	{Handshaking, Serverbound}: {
		IDServerboundHandshake: func() Packet { return new(Handshake) },
	},
	{Status, Clientbound}: {
		IDClientboundStatusResponse: func() Packet { return new(StatusResponse) },
		IDClientboundStatusPong:     func() Packet { return new(StatusPong) },
	},
	{Status, Serverbound}: {
		IDServerboundStatusRequest: func() Packet { return new(StatusRequest) },
		IDServerboundStatusPing:    func() Packet { return new(StatusPing) },
	},
	{Login, Clientbound}: {
		IDClientboundLoginDisconnect:   func() Packet { return new(LoginDisconnect) },
		IDClientboundEncryptionRequest: func() Packet { return new(EncryptionRequest) },
		IDClientboundLoginSuccess:      func() Packet { return new(LoginSuccess) },
	},
	{Login, Serverbound}: {
		IDServerboundLoginStart:         func() Packet { return new(LoginStart) },
		IDServerboundEncryptionResponse: func() Packet { return new(EncryptionResponse) },
	},
	{Play, Clientbound}: {
		IDClientboundKeepAlive:             func() Packet { return new(KeepAlive) },
		IDClientboundJoinGame:              func() Packet { return new(JoinGame) },
		IDClientboundChat:                  func() Packet { return new(Chat) },
		IDClientboundTimeUpdate:            func() Packet { return new(TimeUpdate) },
		IDClientboundSpawnPosition:         func() Packet { return new(SpawnPosition) },
		IDClientboundUpdateHealth:          func() Packet { return new(UpdateHealth) },
		IDClientboundRespawn:               func() Packet { return new(Respawn) },
		IDClientboundPlayerPositionAndLook: func() Packet { return new(PlayerPositionAndLook) },
		IDClientboundHeldItemChange:        func() Packet { return new(HeldItemChange) },
		IDClientboundAnimation:             func() Packet { return new(EntityAnimation) },
		IDClientboundSpawnPlayer:           func() Packet { return new(SpawnPlayer) },
		IDClientboundCollectItem:           func() Packet { return new(CollectItem) },
		IDClientboundSpawnObject:           func() Packet { return new(SpawnObject) },
		IDClientboundSpawnMob:              func() Packet { return new(SpawnMob) },
		IDClientboundDestroyEntities:       func() Packet { return new(DestroyEntities) },
		IDClientboundEntityRelativeMove:    func() Packet { return new(EntityRelativeMove) },
		IDClientboundEntityLookAndRelMove:  func() Packet { return new(EntityLookAndRelativeMove) },
		IDClientboundEntityTeleport:        func() Packet { return new(EntityTeleport) },
		IDClientboundEntityHeadLook:        func() Packet { return new(EntityHeadLook) },
		IDClientboundEntityStatus:          func() Packet { return new(EntityStatus) },
		IDClientboundEntityMetadata:        func() Packet { return new(EntityMetadata) },
		IDClientboundChunkData:             func() Packet { return new(ChunkData) },
		IDClientboundMultiBlockChange:      func() Packet { return new(MultiBlockChange) },
		IDClientboundBlockChange:           func() Packet { return new(BlockChange) },
		IDClientboundMapChunkBulk:          func() Packet { return new(MapChunkBulk) },
		IDClientboundOpenWindow:            func() Packet { return new(OpenWindow) },
		IDClientboundCloseWindow:           func() Packet { return new(CloseWindow) },
		IDClientboundSetSlot:               func() Packet { return new(SetSlot) },
		IDClientboundWindowItems:           func() Packet { return new(WindowItems) },
		IDClientboundWindowProperty:        func() Packet { return new(WindowProperty) },
		IDClientboundConfirmTransaction:    func() Packet { return new(ConfirmTransaction) },
		IDClientboundPluginMessage:         func() Packet { return new(PluginMessage) },
		IDClientboundDisconnect:            func() Packet { return new(Disconnect) },
	},
	{Play, Serverbound}: {
		IDServerboundKeepAlive:             func() Packet { return new(ServerboundKeepAlive) },
		IDServerboundChat:                  func() Packet { return new(ServerboundChat) },
		IDServerboundUseEntity:             func() Packet { return new(UseEntity) },
		IDServerboundPlayer:                func() Packet { return new(Player) },
		IDServerboundPlayerPosition:        func() Packet { return new(PlayerPosition) },
		IDServerboundPlayerLook:            func() Packet { return new(PlayerLook) },
		IDServerboundPlayerPositionAndLook: func() Packet { return new(ServerboundPlayerPositionAndLook) },
		IDServerboundPlayerDigging:         func() Packet { return new(PlayerDigging) },
		IDServerboundPlayerBlockPlacement:  func() Packet { return new(PlayerBlockPlacement) },
		IDServerboundHeldItemChange:        func() Packet { return new(ServerboundHeldItemChange) },
		IDServerboundAnimation:             func() Packet { return new(Animation) },
		IDServerboundEntityAction:          func() Packet { return new(EntityAction) },
		IDServerboundCloseWindow:           func() Packet { return new(ServerboundCloseWindow) },
		IDServerboundClickWindow:           func() Packet { return new(ClickWindow) },
		IDServerboundConfirmTransaction:    func() Packet { return new(ServerboundConfirmTransaction) },
		IDServerboundClientSettings:        func() Packet { return new(ClientSettings) },
		IDServerboundClientStatus:          func() Packet { return new(ClientStatus) },
		IDServerboundPluginMessage:         func() Packet { return new(ServerboundPluginMessage) },
	},
}

// New returns a new, zero packet for an id in a state and direction, or nil
// when this package has no codec for it (the caller skips and counts it).
func New(s State, d Direction, id int32) Packet {
	if mk, ok := registry[registryKey{s, d}][id]; ok {
		return mk()
	}
	return nil
}

// Decode decodes a payload into a new packet of the given id. It returns
// (nil, nil) for ids this package has no codec for.
func Decode(s State, d Direction, id int32, data []byte, f Formats) (Packet, error) {
	p := New(s, d, id)
	if p == nil {
		return nil, nil
	}
	if err := p.DecodePayload(data, f); err != nil {
		return nil, err
	}
	return p, nil
}
