package fakeserver

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Stage names a packet the server sends at a fixed point of the connection.
// Faults use it to say where to misbehave: a kick or a truncated packet is
// sent in place of the stage's packet (its first one on each connection).
type Stage int

// Stages, in the order a connection reaches them.
const (
	StageNone        Stage = iota // no fault
	StageStatus                   // the status response (a kick here closes the connection unanswered)
	StageLogin                    // Login Success
	StageServerHello              // FML|HS ServerHello
	StageModList                  // the server's FML|HS ModList
	StageRegistry                 // FML|HS ModIdData (its first FML|MP packet when split)
	StageJoin                     // Join Game
	StagePosition                 // the first Player Position And Look
	StageInventory                // the first Window Items
	StageChunks                   // the first chunk packet
	StageKeepAlive                // the first Keep Alive
	StageDig                      // the Block Change answering the first accepted dig
	StageCollect                  // the first Collect Item
	StageTankGui                  // the first tank amount of a Railcraft window (RC GUI_INTEGER)
	StageBoilerGui                // the water bar of a GregTech coal boiler's window (ModularUI widget 5)
)

var stageNames = [...]string{"none", "status", "login", "server hello", "mod list", "registry",
	"join", "position", "inventory", "chunks", "keep-alive", "dig", "collect", "tank gui", "boiler gui"}

func (s Stage) String() string {
	if s >= 0 && int(s) < len(stageNames) {
		return stageNames[s]
	}
	return fmt.Sprintf("stage(%d)", int(s))
}

// TruncateMode says how Faults.TruncateAt cuts a packet short.
type TruncateMode int

const (
	// TruncatePayload sends a well-framed packet whose payload lacks its
	// second half; the connection stays open. A client must fail to decode
	// it (and skip it, or give up when the packet is essential).
	TruncatePayload TruncateMode = iota
	// TruncateFrame announces the full length, sends half of the bytes and
	// closes the connection: the client sees the stream end mid-packet.
	TruncateFrame
)

// Faults make the server misbehave so tests can check that a client fails
// with a clear error. The zero value is a well-behaved server.
type Faults struct {
	// WrongHandshakeOrder sends the registry (ModIdData and an ack) right
	// after ServerHello, before the server's ModList, as no Forge server
	// does.
	WrongHandshakeOrder bool
	// KickAt sends a kick in place of that stage's packet — Login
	// Disconnect during login, Disconnect afterwards — and closes the
	// connection.
	KickAt Stage
	// KickReason is the kick's reason (plain text; sent as a chat
	// component). Empty means "Kicked by the fake server at <stage>".
	KickReason string
	// TruncateAt sends that stage's packet cut short, as Truncate says.
	TruncateAt Stage
	// Truncate is how TruncateAt cuts.
	Truncate TruncateMode
	// StallAt stops the server sending anything on the connection for
	// StallFor, starting in place of that stage's packet (which is sent,
	// late, when the stall ends): no keep-alives, no answers, as from a
	// frozen server thread. A goroutine that has something to send waits,
	// so the connection's reads stop too once it must answer.
	StallAt Stage
	// StallFor is how long a stall lasts (default 30 s; it also ends when
	// the connection closes).
	StallFor time.Duration
	// Skip passes over that many occurrences of a fault's stage before the
	// fault strikes (e.g. KickAt StageDig with Skip 5 kicks at the sixth
	// accepted dig). With Once the occurrences are counted over the whole
	// server, otherwise per connection, where a stage other than StageDig
	// and StageCollect occurs once.
	Skip int
	// Once makes each fault strike one time in the server's life instead
	// of on every connection, so a client that reconnects gets through.
	Once bool
}

// ModularUISync says how a server's ModularUI windows send their widget
// values (a GregTech boiler's steam, water and temperature bars).
type ModularUISync int

const (
	// ModularUIFollow syncs as ModularUI 1.2.20 does: nothing before the
	// client's CWidgetUpdate SYNC_INIT for the window, then every widget's
	// value once, then each change (checked every tick).
	ModularUIFollow ModularUISync = iota
	// ModularUISilent never sends the values, as a server whose windows
	// sync some other way (another ModularUI) looks to this client: the
	// window opens with its slots and nothing else.
	ModularUISilent
)

// RegistryMode says how the server sends its id registry (FML|HS ModIdData).
type RegistryMode int

const (
	// RegistrySingle sends it as one plugin message whose length is
	// Forge's varshort, as stock Forge 10.13.4 does.
	RegistrySingle RegistryMode = iota
	// RegistryMultipart splits it over FML|MP parts, as Forge 1.8+ and the
	// 1.7.10 backports do.
	RegistryMultipart
)

// ChunkMode says which packets carry the initial chunks.
type ChunkMode int

const (
	// ChunksBulk sends Map Chunk Bulk packets of up to five columns, as a
	// 1.7.10 server does while the player loads in.
	ChunksBulk ChunkMode = iota
	// ChunksSingle sends one Chunk Data packet per column.
	ChunksSingle
)

// Tree is an oak tree: a trunk of Height logs on the ground at (X, Z) and a
// crown of leaves around its top.
type Tree struct {
	X, Z   int
	Height int
}

// Item is an inventory stack by registry name. Slot is the window-0 slot
// (9..35 main inventory, 36..44 hotbar).
type Item struct {
	Slot   int
	Name   string
	Count  int
	Damage int
	// ToolDamage is a GregTech tool's wear, kept in its NBT (GT.ToolStats
	// Damage). A GregTech tool of config/crafting_tools.yaml in a starting
	// inventory gets its stats (MaxDamage and materials) and this damage;
	// a player's item reports it.
	ToolDamage int
}

// Block is one block by registry name.
type Block struct {
	X, Y, Z int
	Name    string
	Meta    int
}

// Options configure a Server. The zero value is a GTNH-like server: the mods
// of DefaultMods (NotEnoughIds and ModularUI formats), a flat world with the
// trees of DefaultTrees and an iron axe in the first hotbar slot.
type Options struct {
	// Mods is the mod list (ping and FML handshake). nil means DefaultMods.
	// The wire formats follow from it: without "neid" the chunks and block
	// changes are vanilla, without "modularui" item stacks carry no extra
	// count.
	Mods []proto17.ModInfo
	// MOTD is the server description.
	MOTD string
	// Addr is the address to listen on (default "127.0.0.1:0", a free
	// port), or PipeAddr to listen in memory (clients connect with
	// Server.Dial). Tests of reconnecting close a server and start another
	// on the same address.
	Addr string

	// Registry is how the id registry is sent; PartSize is the size of one
	// FML|MP part (index byte included, default 8192) in RegistryMultipart.
	Registry RegistryMode
	PartSize int
	// RegistryFiller adds that many made-up item entries to the registry
	// so it outgrows a vanilla plugin message (default 2500, about 80 KB
	// in all; negative for none).
	RegistryFiller int

	// GroundY is the height of the grass layer (default 63).
	GroundY int
	// Spawn is where the player's feet start (default 8.5, GroundY+1, 8.5).
	Spawn [3]float64
	// ViewRadius is the radius in columns of the area sent around the
	// spawn column (default 2: 5×5 columns).
	ViewRadius int
	// Stream makes the world endless: columns are generated as the player
	// walks (flat ground crossed by walls with gaps, see stream.go), the
	// ones within ViewRadius of the player's column are sent and those
	// farther than ViewRadius+2 unloaded, as a real server streams chunks.
	Stream bool
	// StreamDelay holds back the columns (and unloads) that streaming
	// sends by this long, in order, as a lagging server sends them late.
	StreamDelay time.Duration
	// Terrain, when set, is the world instead of the generated flat one:
	// its loaded columns, block for block by name (a simulated world's
	// blocks: sim.New(...).State().Snapshot().Blocks, so a live test plays
	// in the scenario the simulator plays in). GroundY, ViewRadius and
	// Trees add nothing then; Blocks and the steam-age machines are placed
	// on it. Every column is sent at the join.
	Terrain *chunk.Chunks
	// Trees are planted on the ground; nil means DefaultTrees, an empty
	// slice none.
	Trees []Tree
	// Blocks are placed after the terrain and trees; nil means one modded
	// ore below the spawn (an id above 4095 and metadata 300 with
	// NotEnoughIds, id 1000 and metadata 5 in vanilla format), an empty
	// slice none.
	Blocks []Block
	// CokeOvens, Boilers, Chests, Ores and WaterTanks are the steam-age
	// machines and GregTech ores of the world (SteamAge fills them with a
	// small base); their blocks are placed after Blocks, and the client
	// learns of them through the mod channels (Railcraft RC, GregTech, FML
	// OpenGui).
	CokeOvens  []CokeOven
	Boilers    []Boiler
	Chests     []Chest
	Ores       []Ore
	WaterTanks []WaterTank
	// IronTanks are formed Railcraft iron tanks (none in SteamAge).
	IronTanks []IronTank
	// Inventory is the player's starting inventory; nil means
	// DefaultInventory, an empty slice an empty inventory.
	Inventory []Item
	// Quests are the quest book's quests (with betterquesting in Mods).
	Quests []Quest
	// Food is the player's starting food level (0: a full bar of 20). A
	// player below 20 can eat: using a food item in the air eats it over
	// the shipped rules' eating time (ItemFood.onItemRightClick starts it
	// only when the player needs food).
	Food int
	// Chunks says which packets carry the initial chunks.
	Chunks ChunkMode

	// StartTime is the world time when the server starts (0: 1000, an
	// early morning; 24000 is a sunrise, 13000 the dusk, 18000 midnight).
	// The time runs a tick a server tick, and every player is sent a Time
	// Update every 20 ticks.
	StartTime int64
	// Mobs are mobs (kinds of config/mobs.yaml) that appear at their
	// places: a hostile one when night falls (World.isDaytime turns
	// false), or at once in a server started at night; an animal (sheep,
	// pig, cow, chicken) at once, standing where it is and attacking
	// nobody, as the simulator's do (its follow range is 0). Each hostile one walks at the nearest living
	// player within its follow range and hits it within reach every
	// attack interval; zombies and skeletons burn under the open sky by
	// day. A player's Use Entity attack hurts them by the held item
	// (config/mobs.yaml's combat table), a dead mob drops its loot, and a
	// player whose health reaches 0 dies, drops its inventory and respawns
	// at the spawn when its client asks (Client Status 0). Only melee
	// attacks are played (a skeleton or creeper follows and never hits).
	Mobs []Mob

	// TickDuration is the length of a server tick (default 50 ms). Digging
	// times and pickup delays are counted in ticks.
	TickDuration time.Duration
	// KeepAliveInterval is the time between keep-alives (default 1 s).
	KeepAliveInterval time.Duration
	// KeepAliveTimeout kicks a player ("Timed out") whose keep-alive stays
	// unanswered that long (default 30 s; negative: never).
	KeepAliveTimeout time.Duration
	// ReadTimeout closes a connection that sends nothing for that long
	// (default 30 s, as the 1.7.10 server's read timeout).
	ReadTimeout time.Duration

	// DigThreshold is the fraction of the vanilla break time after which a
	// finish is accepted (default 0.7, the 1.7.10 server's rule).
	DigThreshold float64
	// MaxMovePerPacket is the distance one movement packet may cover before
	// the server resets the player with a Player Position And Look
	// (default 10 blocks, the 1.7.10 "moved too quickly" limit).
	MaxMovePerPacket float64
	// PickupReach is how far (in blocks) the player's box is grown to touch
	// dropped items (default 1.0, vanilla's 1.0 × 0.5 × 1.0 growth).
	PickupReach float64
	// PickupDelayTicks is the age a dropped item must reach before it can be
	// collected (default 10 ticks, vanilla's delay for block drops).
	PickupDelayTicks int
	// FurnaceOutputLag holds an open furnace window's output slot change
	// back that many server ticks after the input and fuel slots' changes
	// are sent, as a client reading a real server's stream can see them
	// (ContainerFurnace sends each slot as its own packet, and they may
	// arrive in separate reads). 0 sends them together.
	FurnaceOutputLag int

	// ModularUI says how the GregTech windows (ModularUI 1) sync their
	// widget values: by default as ModularUI 1.2.20 does, after the
	// client's SYNC_INIT.
	ModularUI ModularUISync

	// Faults make the server misbehave.
	Faults Faults
	// Hostile sends a burst of malicious packets once the player is
	// playing: after the join and again after the player's first accepted
	// dig on each connection. A burst holds an NBT list-length bomb in a
	// Set Slot and in a dropped item's Entity Metadata, a zlib bomb Chunk
	// Data, a Window Items announcing 32,767 slots with two present and an
	// FML|MP preamble announcing 2^31-1 bytes that never completes. None of
	// it changes the server's world or the player's inventory.
	Hostile bool

	// Logf, when set, receives a line per notable event (tests pass
	// t.Logf).
	Logf func(format string, args ...any)
}

// DefaultMods is the mod list of the default server: Forge's own entries and
// the GTNH mods that change the protocol (NotEnoughIds, ModularUI) plus
// GregTech.
func DefaultMods() []proto17.ModInfo {
	return []proto17.ModInfo{
		{ModID: "mcp", Version: "9.05"},
		{ModID: "FML", Version: "7.10.99.99"},
		{ModID: "Forge", Version: "10.13.4.1614"},
		{ModID: proto17.ModNEID, Version: "2.1.10"},
		{ModID: proto17.ModModularUI, Version: "1.2.20"},
		{ModID: "gregtech", Version: "5.09.51.482"},
	}
}

// WithoutMod returns a copy of mods without the mod id (a vanilla-format
// server is DefaultMods without "neid").
func WithoutMod(mods []proto17.ModInfo, id string) []proto17.ModInfo {
	out := make([]proto17.ModInfo, 0, len(mods))
	for _, m := range mods {
		if m.ModID != id {
			out = append(out, m)
		}
	}
	return out
}

// DefaultTrees are the trees of the default world: one four blocks east of
// the spawn, two more a little farther.
func DefaultTrees() []Tree {
	return []Tree{{X: 12, Z: 8, Height: 5}, {X: 4, Z: 15, Height: 4}, {X: -6, Z: 3, Height: 6}}
}

// DefaultInventory is the default starting inventory: an iron axe in the
// first hotbar slot.
func DefaultInventory() []Item {
	return []Item{{Slot: 36, Name: "minecraft:iron_axe", Count: 1}}
}

// withDefaults fills zero fields and checks the rest.
func (o Options) withDefaults() (Options, error) {
	if o.Mods == nil {
		o.Mods = DefaultMods()
	}
	if o.MOTD == "" {
		o.MOTD = "GT: New Horizons (fake server)"
	}
	if o.PartSize == 0 {
		o.PartSize = 8192
	}
	if o.RegistryFiller == 0 {
		o.RegistryFiller = 2500
	}
	if o.GroundY == 0 {
		o.GroundY = 63
	}
	if o.Spawn == [3]float64{} {
		o.Spawn = [3]float64{8.5, float64(o.GroundY + 1), 8.5}
	}
	if o.ViewRadius == 0 {
		o.ViewRadius = 2
	}
	if o.Trees == nil {
		o.Trees = DefaultTrees()
	}
	if o.Inventory == nil {
		o.Inventory = DefaultInventory()
	}
	if o.StartTime == 0 {
		o.StartTime = 1000
	}
	if o.TickDuration == 0 {
		o.TickDuration = 50 * time.Millisecond
	}
	if o.KeepAliveInterval == 0 {
		o.KeepAliveInterval = time.Second
	}
	if o.KeepAliveTimeout == 0 {
		o.KeepAliveTimeout = 30 * time.Second
	}
	if o.ReadTimeout == 0 {
		o.ReadTimeout = 30 * time.Second
	}
	if o.DigThreshold == 0 {
		o.DigThreshold = 0.7
	}
	if o.MaxMovePerPacket == 0 {
		o.MaxMovePerPacket = 10
	}
	if o.PickupReach == 0 {
		o.PickupReach = 1
	}
	if o.PickupDelayTicks == 0 {
		o.PickupDelayTicks = 10
	}
	if o.Faults.StallFor == 0 {
		o.Faults.StallFor = 30 * time.Second
	}
	if o.Faults.KickReason == "" && o.Faults.KickAt != StageNone {
		o.Faults.KickReason = "Kicked by the fake server at " + o.Faults.KickAt.String()
	}

	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if o.PartSize < 2 {
		bad("PartSize %d: at least 2", o.PartSize)
	}
	if o.GroundY < 5 || o.GroundY > 250 {
		bad("GroundY %d: want 5..250", o.GroundY)
	}
	for _, v := range o.Spawn {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			bad("Spawn %v: not finite", o.Spawn)
			break
		}
	}
	if o.ViewRadius < 0 || o.ViewRadius > 8 {
		bad("ViewRadius %d: want 0..8", o.ViewRadius)
	}
	for i, t := range o.Trees {
		if t.Height < 1 || o.GroundY+t.Height+2 > 255 {
			bad("Trees[%d]: height %d does not fit above ground %d", i, t.Height, o.GroundY)
		}
	}
	for i, it := range o.Inventory {
		if it.Slot < 0 || it.Slot >= windowSlots {
			bad("Inventory[%d]: slot %d outside 0..%d", i, it.Slot, windowSlots-1)
		}
		if it.Count < 1 || it.Count > 127 {
			bad("Inventory[%d]: count %d outside 1..127", i, it.Count)
		}
	}
	for i, m := range o.Mobs {
		if _, ok := rules.Default().Mobs.Kind(m.Kind); !ok {
			var names []string
			for _, k := range rules.Default().Mobs.Kinds() {
				names = append(names, k.Name)
			}
			bad("Mobs[%d]: unknown kind %q (config/mobs.yaml has %s)", i, m.Kind, strings.Join(names, ", "))
		}
		for _, v := range []float64{m.X, m.Y, m.Z} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				bad("Mobs[%d]: position (%v, %v, %v) not finite", i, m.X, m.Y, m.Z)
				break
			}
		}
	}
	if o.StartTime < 0 {
		bad("StartTime %d: negative", o.StartTime)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"TickDuration", o.TickDuration}, {"KeepAliveInterval", o.KeepAliveInterval}, {"ReadTimeout", o.ReadTimeout}, {"Faults.StallFor", o.Faults.StallFor}, {"StreamDelay", o.StreamDelay}} {
		if d.v < 0 {
			bad("%s %v: negative", d.name, d.v)
		}
	}
	if o.DigThreshold < 0 || o.DigThreshold > 1 {
		bad("DigThreshold %v: want 0..1", o.DigThreshold)
	}
	if o.MaxMovePerPacket < 0 || o.PickupReach < 0 || o.PickupDelayTicks < 0 {
		bad("MaxMovePerPacket, PickupReach and PickupDelayTicks must not be negative")
	}
	if o.Faults.KickAt < StageNone || o.Faults.KickAt > StageBoilerGui {
		bad("Faults.KickAt %d: unknown stage", o.Faults.KickAt)
	}
	if o.ModularUI < ModularUIFollow || o.ModularUI > ModularUISilent {
		bad("ModularUI %d: unknown sync mode", o.ModularUI)
	}
	if o.Faults.TruncateAt < StageNone || o.Faults.TruncateAt > StageBoilerGui {
		bad("Faults.TruncateAt %d: unknown stage", o.Faults.TruncateAt)
	}
	if o.Faults.StallAt < StageNone || o.Faults.StallAt > StageBoilerGui {
		bad("Faults.StallAt %d: unknown stage", o.Faults.StallAt)
	}
	if o.Faults.Skip < 0 {
		bad("Faults.Skip %d: negative", o.Faults.Skip)
	}
	if o.Faults.Truncate != TruncatePayload && o.Faults.Truncate != TruncateFrame {
		bad("Faults.Truncate %d: unknown mode", o.Faults.Truncate)
	}
	if len(errs) > 0 {
		return o, fmt.Errorf("fakeserver: options: %w", errors.Join(errs...))
	}
	return o, nil
}
