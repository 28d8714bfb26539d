package wire

import (
	"encoding/json"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Request types.
const (
	TypeHello    = "hello"
	TypeExecute  = "execute"
	TypeObserve  = "observe"
	TypeBlockAt  = "block_at"
	TypeBlocksIn = "blocks_in"
	TypeNearest  = "nearest"
	TypePath     = "path"
	TypeCatalog  = "catalog"
	TypeRecall   = "recall"
)

// Requests lists the request types a body server answers (recall only
// when its body remembers, catalog only when it has a catalog).
var Requests = []string{TypeHello, TypeExecute, TypeObserve, TypeBlockAt, TypeBlocksIn, TypeNearest, TypePath, TypeCatalog, TypeRecall}

// Event types a body server sends (no id).
const (
	EventTime          = "time"
	EventPosition      = "position"
	EventHealth        = "health"
	EventInventory     = "inventory"
	EventDimension     = "dimension"
	EventBlockChange   = "block_change"
	EventChunkLoaded   = "chunk_loaded"
	EventChunkUnloaded = "chunk_unloaded"
	EventEntity        = "entity"
	EventEntityGone    = "entity_gone"
	EventChat          = "chat"
	EventLagged        = "lagged"
	EventDisconnect    = "disconnect"
)

// Events lists the event kinds a body server can send. lagged and
// disconnect go to every connection; the others only to those that asked
// for them in their hello. chat is sent only by bodies that report chat
// (ipc.ChatSource).
var Events = []string{EventTime, EventPosition, EventHealth, EventInventory, EventDimension, EventBlockChange,
	EventChunkLoaded, EventChunkUnloaded, EventEntity, EventEntityGone, EventChat, EventLagged, EventDisconnect}

// Roles a peer states in its hello.
const (
	// RoleBody serves a world: it executes actions and answers queries.
	RoleBody = "body"
	// RoleAgent drives a body (the plan-act loop).
	RoleAgent = "agent"
	// RolePlanner answers plan requests.
	RolePlanner = "planner"
	// RoleObserver watches a body: queries and events, no actions.
	RoleObserver = "observer"
)

// Hello is the first request on a connection.
type Hello struct {
	// Protocol is the version the client speaks (Version).
	Protocol int `json:"protocol"`
	// Role is the client's role: agent or observer towards a body.
	Role string `json:"role"`
	// Name says what the client is, for logs.
	Name string `json:"name,omitempty"`
	// Token is required when the server was started with a token file.
	Token string `json:"token,omitempty"`
	// Events are the event kinds the client wants to receive.
	Events []string `json:"events,omitempty"`
}

// Welcome is the reply to a hello: what the server is and can do.
type Welcome struct {
	Protocol int    `json:"protocol"`
	Role     string `json:"role"`
	// Name says what the body is ("sim", "gtnh").
	Name string `json:"name"`
	// Actions are the action kinds the body executes.
	Actions []string `json:"actions"`
	// Events are the event kinds the body sends.
	Events []string `json:"events"`
	// Requests are the request types the server answers.
	Requests []string `json:"requests"`
	// MaxMessage is the server's limit on one message, in bytes.
	MaxMessage int `json:"max_message"`
}

// Execute's request payload is an action in the flat form of action.Marshal;
// its reply is an ipc.Result.

// ObserveRequest asks for a snapshot.
type ObserveRequest struct {
	// Blocks is "none" (the default: no block data) or "delta" (the
	// changes since the reply whose seq is Base; see BlockDelta).
	Blocks string `json:"blocks,omitempty"`
	// Base is the seq of the last block delta the client applied (0: none).
	Base uint64 `json:"base,omitempty"`
}

// Observation is the reply to observe.
type Observation struct {
	// Snapshot is the world without its blocks (world.Snapshot's JSON).
	Snapshot *world.Snapshot `json:"snapshot"`
	// Blocks carries the block changes when they were asked for.
	Blocks *BlockDelta `json:"blocks,omitempty"`
}

// BlockAtRequest asks for one block.
type BlockAtRequest struct {
	Pos world.BlockPos `json:"pos"`
}

// BlockReply is the reply to block_at.
type BlockReply struct {
	Block world.Block `json:"block"`
}

// MaxBlocksIn bounds the volume of a blocks_in box.
const MaxBlocksIn = 32 * 32 * 32

// BlocksInRequest asks for the non-air blocks in a box (corners included).
type BlocksInRequest struct {
	From world.BlockPos `json:"from"`
	To   world.BlockPos `json:"to"`
}

// PosBlock is a block and where it is.
type PosBlock struct {
	Pos   world.BlockPos `json:"pos"`
	Block world.Block    `json:"block"`
}

// BlocksReply is the reply to blocks_in: non-air blocks in y, z, x order.
type BlocksReply struct {
	Blocks []PosBlock `json:"blocks"`
}

// Limits of a nearest query.
const (
	MaxNearestRadius = 128
	MaxNearestK      = 1024
)

// NearestRequest asks for the nearest blocks matching a matcher.
type NearestRequest struct {
	// Center defaults to the player's feet.
	Center *world.BlockPos `json:"center,omitempty"`
	// Match selects blocks: any of the ids ("minecraft:log") or any of the
	// tags ("log"); both empty matches every non-air block.
	Match  Matcher `json:"match"`
	Radius int     `json:"radius"`
	// K is the most hits to return (1..MaxNearestK).
	K int `json:"k"`
}

// Matcher selects blocks by id or tag.
type Matcher struct {
	IDs  []string `json:"ids,omitempty"`
	Tags []string `json:"tags,omitempty"`
}

// Func returns the predicate the matcher stands for.
func (m Matcher) Func() func(world.Block) bool {
	if len(m.IDs) == 0 && len(m.Tags) == 0 {
		return nil
	}
	return func(b world.Block) bool {
		for _, id := range m.IDs {
			if b.ID == id {
				return true
			}
		}
		for _, t := range m.Tags {
			if b.HasTag(t) {
				return true
			}
		}
		return false
	}
}

// HitsReply is the reply to nearest.
type HitsReply struct {
	Hits []world.BlockHit `json:"hits"`
}

// Limits of a recall query.
const (
	MaxRecallDistance = 4096
	MaxRecallK        = 64
)

// RecallRequest asks where the body remembers seeing a block, beyond what
// it sees now (its memory file).
type RecallRequest struct {
	// Block is the block id, modid:name[:meta].
	Block string `json:"block"`
	// MaxDistance bounds the distance from the player (1..MaxRecallDistance).
	MaxDistance int `json:"max_distance"`
	// K is the most positions to return (1..MaxRecallK).
	K int `json:"k"`
}

// RecallReply is the reply to recall: positions, nearest first.
type RecallReply struct {
	Positions []world.BlockPos `json:"positions"`
}

// PathRequest asks for a walking path.
type PathRequest struct {
	// From defaults to the player's feet.
	From *world.BlockPos `json:"from,omitempty"`
	To   world.BlockPos  `json:"to"`
	// Radius accepts any end within this distance of To (0: exactly To).
	Radius float64 `json:"radius,omitempty"`
}

// PathReply is the reply to path.
type PathReply struct {
	// Found reports that the path reaches the goal.
	Found bool `json:"found"`
	// Reason is why the search stopped (reached, unreachable, node_budget).
	Reason string `json:"reason"`
	// Cost is the path's cost in ticks; Length its number of moves.
	Cost   float64 `json:"cost"`
	Length int     `json:"length"`
	// End is where the path ends.
	End world.BlockPos `json:"end"`
}

// CatalogRequest asks for the skills a planner may use.
type CatalogRequest struct {
	// TechState defaults to the world's current tier.
	TechState string `json:"tech_state,omitempty"`
	// Packs defaults to every pack.
	Packs []string `json:"packs,omitempty"`
}

// CatalogReply is the reply to catalog: registry descriptions as JSON.
type CatalogReply struct {
	TechState string          `json:"tech_state"`
	Skills    json.RawMessage `json:"skills"`
}

// Event payloads.
type (
	// TimeEvent: the game clock.
	TimeEvent struct {
		Tick int64 `json:"tick"`
	}
	// PositionEvent: the player moved.
	PositionEvent struct {
		Pos       world.Vec3 `json:"pos"`
		Dimension string     `json:"dimension"`
	}
	// HealthEvent: health or food changed.
	HealthEvent struct {
		Health float64 `json:"health"`
		Food   float64 `json:"food"`
	}
	// InventoryEvent: the inventory changed (the whole inventory).
	InventoryEvent struct {
		Inventory world.Inventory `json:"inventory"`
	}
	// DimensionEvent: the player changed dimension.
	DimensionEvent struct {
		Dimension string `json:"dimension"`
	}
	// BlockChangeEvent: one block changed.
	BlockChangeEvent struct {
		Pos   world.BlockPos `json:"pos"`
		Block world.Block    `json:"block"`
	}
	// ChunkEvent: a column was loaded or unloaded.
	ChunkEvent struct {
		X int `json:"x"`
		Z int `json:"z"`
	}
	// EntityEvent: an entity appeared or changed.
	EntityEvent struct {
		Entity world.Entity `json:"entity"`
	}
	// EntityGoneEvent: an entity left.
	EntityGoneEvent struct {
		ID int `json:"id"`
	}
	// ChatEvent: a chat line; From is "" for the server.
	ChatEvent struct {
		From string `json:"from"`
		Text string `json:"text"`
		Tick int64  `json:"tick"`
	}
	// LaggedEvent: events were dropped because the reader was slow.
	LaggedEvent struct {
		Dropped int64 `json:"dropped"`
	}
	// DisconnectEvent: the server is closing the connection.
	DisconnectEvent struct {
		Reason string `json:"reason"`
	}
)

// CancelNotice is the payload of a cancel notification.
type CancelNotice struct {
	ID json.RawMessage `json:"id"`
}

// ResultJSON is ipc.Result as it crosses the wire. Details keeps each value
// as raw JSON, so that a result written to a trace after the round trip is
// the same bytes as the body produced (key order, number forms).
type ResultJSON struct {
	Code    ipc.Code                   `json:"code"`
	Error   string                     `json:"error,omitempty"`
	Details map[string]json.RawMessage `json:"details,omitempty"`
	Ticks   int64                      `json:"ticks"`
}

// Result converts to ipc.Result; detail values stay json.RawMessage.
func (r ResultJSON) Result() ipc.Result {
	out := ipc.Result{Code: r.Code, Error: r.Error, Ticks: r.Ticks}
	if r.Details != nil {
		out.Details = make(map[string]any, len(r.Details))
		for k, v := range r.Details {
			out.Details[k] = v
		}
	}
	return out
}
