package origin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Message types the client sends.
const (
	TypeMoveStep   = "move_step"
	TypeBlockDig   = "block_dig"
	TypeBlockPlace = "block_place"
	TypeUseItem    = "use_item"
	TypeInteract   = "interact"
)

// Message types the adapter sends.
const (
	TypeTimeUpdate      = "time_update"
	TypePositionUpdate  = "position_update"
	TypeChunkData       = "chunk_data"
	TypeSpawnEntity     = "spawn_entity"
	TypeDestroyEntities = "destroy_entities"
	TypeSetSlot         = "set_slot"
	TypeWindowItems     = "window_items"
	TypeDimensionChange = "dimension_change"
	TypeActionResult    = "action_result"
	TypeError           = "error"
	TypeLagged          = "lagged"
)

// Dig statuses of block_dig.
const (
	DigStart = "start"
	DigStop  = "stop"
	DigAbort = "abort"
)

// ErrorCode classifies an error reply.
type ErrorCode string

// Error codes of the error message.
const (
	// BadRequest: malformed JSON, a missing or ill-typed field, a dig
	// sequence that does not add up.
	BadRequest ErrorCode = "bad_request"
	// UnknownType: a message type the adapter does not know.
	UnknownType ErrorCode = "unknown_type"
	// TooLarge: a line longer than the limit; it was skipped unread.
	TooLarge ErrorCode = "too_large"
	// Unsupported: a known message the body cannot carry out.
	//
	// Deprecated: the adapter no longer sends it (a use_item on an entity,
	// once refused so, runs); kept for clients that name it.
	Unsupported ErrorCode = "unsupported"
	// Busy: too many actions queued, or another client is connected.
	Busy ErrorCode = "busy"
	// Idle: the client sent nothing for the idle timeout; the connection
	// closes after this notice.
	Idle ErrorCode = "idle"
)

// Error is an error reply: what went wrong with one incoming line.
type Error struct {
	Code    ErrorCode
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Request is one decoded incoming message. Exactly one of the payload
// fields is set, according to Type.
type Request struct {
	Type string
	// ID is the client's optional "id" (a string or a number), echoed in
	// the reply; nil when absent.
	ID json.RawMessage

	Move     *MoveStep
	Dig      *BlockDig
	Place    *BlockPlace
	Use      *UseItem
	Interact *Interact
}

// MoveStep asks to walk to within Radius blocks of the block holding
// (X, Y, Z).
type MoveStep struct {
	X, Y, Z float64
	Radius  float64
}

// BlockDig is one step of a dig: start, stop (the block breaks) or abort.
type BlockDig struct {
	Status string
	Pos    world.BlockPos
	// Face is the face id (0..5), -1 when absent, FaceAuto for "auto"; the
	// break ignores it.
	Face int8
	// AnyPos is set on an abort that names no block: it ends whichever dig
	// is under way.
	AnyPos bool
}

// BlockPlace clicks Face of the block at Pos with a block item; the new
// block goes on the other side of that face.
type BlockPlace struct {
	Pos world.BlockPos
	// Face is the face id (0..5) or FaceAuto: the face the player sees
	// (AutoFace), chosen when the action starts.
	Face int8
	// Item is the item to place (an item matcher); empty means the held item.
	Item string
}

// Target is the face clicked and where the new block goes (next to Pos,
// across that face) for a player whose eyes are at eye.
func (p BlockPlace) Target(eye world.Vec3) (face int8, target world.BlockPos) {
	face = p.Face
	if face == FaceAuto {
		face = AutoFace(p.Pos, eye)
	}
	o := faceOffsets[face]
	return face, p.Pos.Add(o[0], o[1], o[2])
}

// FaceAuto is the face "auto": the face of the block that a player standing
// where the body stands would click (see AutoFace).
const FaceAuto int8 = -2

// AutoFace is the face of the block at pos that a player whose eyes are at
// eye clicks when aiming at the block's centre: the face the line of sight
// enters the block through. Along a line from the eyes to the centre the
// block's slab on an axis is entered at 1 − ½/|d| of the way, where d is the
// eyes' offset from the centre on that axis, so the block itself is entered
// last through the axis with the largest |d|: the face on that axis on the
// eyes' side. Eyes more above the block than off to any side click its top;
// eyes below, its bottom; otherwise the side facing them. Ties (the line
// through an edge or a corner) go to up/down, then north/south, then
// west/east, and an offset of zero counts as the positive side (up, south,
// east). The rule holds for eyes inside the block too, where the largest
// offset is still the nearest face to leave by.
func AutoFace(pos world.BlockPos, eye world.Vec3) int8 {
	c := pos.Center()
	dx, dy, dz := eye.X-c.X, eye.Y-c.Y, eye.Z-c.Z
	ax, ay, az := math.Abs(dx), math.Abs(dy), math.Abs(dz)
	switch {
	case ay >= az && ay >= ax:
		if dy >= 0 {
			return proto17.FaceTop
		}
		return proto17.FaceBottom
	case az >= ax:
		if dz >= 0 {
			return proto17.FaceSouth
		}
		return proto17.FaceNorth
	default:
		if dx >= 0 {
			return proto17.FaceEast
		}
		return proto17.FaceWest
	}
}

// UseItem right-clicks an item in the air (Target and Entity nil), on a
// block (Target) or on an entity (Entity).
type UseItem struct {
	Target *world.BlockPos
	Entity *int
	// Item is the item to use; empty means the held item.
	Item string
}

// Interact right-clicks an entity (Entity) or a block (Pos).
type Interact struct {
	Entity *int
	Pos    *world.BlockPos
}

// Face ids of 1.7.10 (proto17.FaceBottom … FaceEast, the PlayerDigging and
// PlayerBlockPlacement packets' direction byte) and their normals.
var faceOffsets = [6][3]int{
	proto17.FaceBottom: {0, -1, 0},
	proto17.FaceTop:    {0, 1, 0},
	proto17.FaceNorth:  {0, 0, -1},
	proto17.FaceSouth:  {0, 0, 1},
	proto17.FaceWest:   {-1, 0, 0},
	proto17.FaceEast:   {1, 0, 0},
}

// faceActionNames are the action vocabulary's names of the face ids.
var faceActionNames = [6]string{"down", "up", "north", "south", "west", "east"}

var faceByName = map[string]int8{
	"down": proto17.FaceBottom, "bottom": proto17.FaceBottom,
	"up": proto17.FaceTop, "top": proto17.FaceTop,
	"north": proto17.FaceNorth, "south": proto17.FaceSouth,
	"west": proto17.FaceWest, "east": proto17.FaceEast,
}

// Coordinate limits: 1.7.10's net.minecraft.world.World ignores block
// positions with |x| or |z| of 30,000,000 or more (setBlock, getBlock);
// heights are 0..255.
const maxCoord = 30_000_000

// maxIDBytes bounds the echoed "id".
const maxIDBytes = 128

// maxItemBytes bounds an item matcher string.
const maxItemBytes = 256

// DecodeLine decodes one line (without its newline) into a request. The
// error, always an *Error, is what the client is told.
func DecodeLine(line []byte) (Request, *Error) {
	var env struct {
		Type    *string         `json:"type"`
		Payload json.RawMessage `json:"payload"`
		ID      json.RawMessage `json:"id"`
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return Request{}, errorf(BadRequest, "a message is one JSON object per line")
	}
	if err := json.Unmarshal(line, &env); err != nil {
		return Request{}, errorf(BadRequest, "malformed JSON: %v", err)
	}
	var r Request
	if len(env.ID) > 0 && !bytes.Equal(env.ID, []byte("null")) {
		if len(env.ID) > maxIDBytes {
			return Request{}, errorf(BadRequest, "id: longer than %d bytes", maxIDBytes)
		}
		if c := env.ID[0]; c != '"' && c != '-' && (c < '0' || c > '9') {
			return Request{}, errorf(BadRequest, "id: must be a string or a number")
		}
		r.ID = append(json.RawMessage(nil), env.ID...)
	}
	if env.Type == nil {
		return r, errorf(BadRequest, "type: missing")
	}
	r.Type = *env.Type
	if len(env.Payload) == 0 || bytes.Equal(env.Payload, []byte("null")) {
		env.Payload = []byte("{}")
	}
	var p fields
	if err := json.Unmarshal(env.Payload, &p.m); err != nil {
		return r, errorf(BadRequest, "payload: must be a JSON object")
	}
	var err error
	switch r.Type {
	case TypeMoveStep:
		r.Move, err = decodeMove(&p)
	case TypeBlockDig:
		r.Dig, err = decodeDig(&p)
	case TypeBlockPlace:
		r.Place, err = decodePlace(&p)
	case TypeUseItem:
		r.Use, err = decodeUse(&p)
	case TypeInteract:
		r.Interact, err = decodeInteract(&p)
	default:
		return r, errorf(UnknownType, "unknown message type %q (known: %s)", clip(r.Type, 64),
			strings.Join([]string{TypeMoveStep, TypeBlockDig, TypeBlockPlace, TypeUseItem, TypeInteract}, ", "))
	}
	if err != nil {
		if e, ok := err.(*Error); ok {
			return r, e
		}
		return r, errorf(BadRequest, "%s: %v", r.Type, err)
	}
	return r, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// fields reads a payload object's members with type checks; the error names
// the field.
type fields struct {
	m map[string]json.RawMessage
}

func (f *fields) has(name string) bool {
	v, ok := f.m[name]
	return ok && !bytes.Equal(v, []byte("null"))
}

func (f *fields) number(name string, required bool) (float64, bool, error) {
	if !f.has(name) {
		if required {
			return 0, false, fmt.Errorf("%s: missing", name)
		}
		return 0, false, nil
	}
	var v float64
	if err := json.Unmarshal(f.m[name], &v); err != nil {
		return 0, false, fmt.Errorf("%s: must be a number", name)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("%s: must be finite", name)
	}
	return v, true, nil
}

func (f *fields) str(name string, required bool, max int) (string, bool, error) {
	if !f.has(name) {
		if required {
			return "", false, fmt.Errorf("%s: missing", name)
		}
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(f.m[name], &s); err != nil {
		return "", false, fmt.Errorf("%s: must be a string", name)
	}
	if len(s) > max {
		return "", false, fmt.Errorf("%s: longer than %d bytes", name, max)
	}
	return s, true, nil
}

// integer reads a whole number within [lo, hi].
func (f *fields) integer(name string, lo, hi int) (int, error) {
	v, _, err := f.number(name, true)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("%s: must be a whole number, got %v", name, v)
	}
	if v < float64(lo) || v > float64(hi) {
		return 0, fmt.Errorf("%s: must be within %d..%d, got %v", name, lo, hi, v)
	}
	return int(v), nil
}

// blockPos reads x, y, z as a block position inside the world.
func (f *fields) blockPos() (world.BlockPos, error) {
	x, err := f.integer("x", -maxCoord, maxCoord)
	if err != nil {
		return world.BlockPos{}, err
	}
	y, err := f.integer("y", 0, chunk.WorldHeight-1)
	if err != nil {
		return world.BlockPos{}, err
	}
	z, err := f.integer("z", -maxCoord, maxCoord)
	if err != nil {
		return world.BlockPos{}, err
	}
	return world.Pos(x, y, z), nil
}

// face reads a face: an id 0..5 (down, up, north, south, west, east), its
// name, or "auto" (FaceAuto). Absent gives -1.
func (f *fields) face(required bool) (int8, error) {
	if !f.has("face") {
		if required {
			return -1, fmt.Errorf("face: missing")
		}
		return -1, nil
	}
	raw := f.m["face"]
	if raw[0] == '"' {
		s, _, err := f.str("face", true, 16)
		if err != nil {
			return -1, err
		}
		if strings.EqualFold(s, "auto") {
			return FaceAuto, nil
		}
		id, ok := faceByName[strings.ToLower(s)]
		if !ok {
			return -1, fmt.Errorf("face: %q is not a face (0..5, down, up, north, south, west, east or auto)", s)
		}
		return id, nil
	}
	v, err := f.integer("face", 0, 5)
	if err != nil {
		return -1, err
	}
	return int8(v), nil
}

func (f *fields) item() (string, error) {
	s, ok, err := f.str("item", false, maxItemBytes)
	if err != nil || !ok {
		return "", err
	}
	if _, err := world.ParseItemMatcher(s); err != nil {
		return "", fmt.Errorf("item: %v", err)
	}
	return s, nil
}

func decodeMove(f *fields) (*MoveStep, error) {
	var m MoveStep
	var err error
	for _, c := range []struct {
		name   string
		dst    *float64
		lo, hi float64
	}{{"x", &m.X, -maxCoord, maxCoord}, {"y", &m.Y, 0, chunk.WorldHeight - 1}, {"z", &m.Z, -maxCoord, maxCoord}} {
		if *c.dst, _, err = f.number(c.name, true); err != nil {
			return nil, err
		}
		if *c.dst < c.lo || *c.dst > c.hi {
			return nil, fmt.Errorf("%s: must be within %v..%v, got %v", c.name, c.lo, c.hi, *c.dst)
		}
	}
	if m.Radius, _, err = f.number("radius", false); err != nil {
		return nil, err
	}
	if m.Radius < 0 || m.Radius > 256 {
		return nil, fmt.Errorf("radius: must be within 0..256, got %v", m.Radius)
	}
	return &m, nil
}

func decodeDig(f *fields) (*BlockDig, error) {
	status, _, err := f.str("status", true, 16)
	if err != nil {
		return nil, err
	}
	d := BlockDig{Status: status}
	switch status {
	case DigStart, DigStop:
	case DigAbort:
		// An abort may name the block or not: it ends the dig under way.
		if !f.has("x") && !f.has("y") && !f.has("z") {
			d.Face, d.AnyPos = -1, true
			return &d, nil
		}
	default:
		return nil, fmt.Errorf("status: must be start, stop or abort, got %q", clip(status, 16))
	}
	if d.Pos, err = f.blockPos(); err != nil {
		return nil, err
	}
	if d.Face, err = f.face(false); err != nil {
		return nil, err
	}
	return &d, nil
}

func decodePlace(f *fields) (*BlockPlace, error) {
	pos, err := f.blockPos()
	if err != nil {
		return nil, err
	}
	face, err := f.face(true)
	if err != nil {
		return nil, err
	}
	item, err := f.item()
	if err != nil {
		return nil, err
	}
	p := &BlockPlace{Pos: pos, Face: face, Item: item}
	if face != FaceAuto {
		if _, t := p.Target(world.Vec3{}); t.Y < 0 || t.Y >= chunk.WorldHeight {
			return nil, fmt.Errorf("face: the new block at %v would be outside the world", t)
		}
	}
	return p, nil
}

func decodeUse(f *fields) (*UseItem, error) {
	item, err := f.item()
	if err != nil {
		return nil, err
	}
	u := &UseItem{Item: item}
	if !f.has("target") {
		return u, nil
	}
	raw := f.m["target"]
	switch raw[0] {
	case '{':
		var inner fields
		if err := json.Unmarshal(raw, &inner.m); err != nil {
			return nil, fmt.Errorf("target: malformed object")
		}
		p, err := inner.blockPos()
		if err != nil {
			return nil, fmt.Errorf("target.%v", err)
		}
		u.Target = &p
		return u, nil
	case '"':
		t, _, err := f.str("target", true, 16)
		if err != nil {
			return nil, err
		}
		switch t {
		case "air", "self", "none":
			return u, nil
		case "block":
			p, err := f.blockPos()
			if err != nil {
				return nil, err
			}
			u.Target = &p
			return u, nil
		case "entity":
			id, err := f.integer("entity_id", math.MinInt32, math.MaxInt32)
			if err != nil {
				return nil, err
			}
			u.Entity = &id
			return u, nil
		}
		return nil, fmt.Errorf("target: must be \"air\", \"self\", \"block\", \"entity\" or {x, y, z}, got %q", clip(t, 16))
	}
	return nil, fmt.Errorf("target: must be \"air\", \"self\", \"block\", \"entity\" or {x, y, z}")
}

func decodeInteract(f *fields) (*Interact, error) {
	kind, _, err := f.str("kind", true, 16)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "entity":
		id, err := f.integer("entity_id", math.MinInt32, math.MaxInt32)
		if err != nil {
			return nil, err
		}
		return &Interact{Entity: &id}, nil
	case "block":
		p, err := f.blockPos()
		if err != nil {
			return nil, err
		}
		return &Interact{Pos: &p}, nil
	}
	return nil, fmt.Errorf("kind: must be entity or block, got %q", clip(kind, 16))
}

// heldMatcher is the exact item matcher of the held stack, "" when the hand
// is empty.
func heldMatcher(inv world.Inventory) string {
	st := inv.HeldStack()
	if st.Empty() {
		return ""
	}
	return fmt.Sprintf("%s:%d", st.ID, st.Meta)
}

// stance is what a request's mapping needs to know of the body: the held
// stack and where the eyes are.
type stance struct {
	inv world.Inventory
	eye world.Vec3
}

func stanceOf(snap *world.Snapshot) stance {
	p := snap.Player.Pos
	return stance{inv: snap.Inventory, eye: world.Vec3{X: p.X, Y: p.Y + proto17.EyeHeight, Z: p.Z}}
}

// toActions maps a request to our actions, run in order: one, except a
// use_item on an entity naming an item not in hand, which holds it first.
// An item the request does not name is the held one.
func (r Request) toActions(st stance) ([]action.Action, error) {
	held := heldMatcher(st.inv)
	switch {
	case r.Move != nil:
		p := world.Vec3{X: r.Move.X, Y: r.Move.Y, Z: r.Move.Z}.Block()
		return []action.Action{action.MoveTo{Pos: p, Radius: r.Move.Radius}}, nil
	case r.Place != nil:
		item := r.Place.Item
		if item == "" {
			if held == "" {
				return nil, fmt.Errorf("nothing is held: hold a block item or name one in \"item\"")
			}
			item = held
		}
		face, target := r.Place.Target(st.eye)
		if target.Y < 0 || target.Y >= chunk.WorldHeight {
			return nil, fmt.Errorf("face %s of %v: the new block at %v would be outside the world", faceActionNames[face], r.Place.Pos, target)
		}
		return []action.Action{action.PlaceBlock{Pos: target, Item: item, Face: faceActionNames[face]}}, nil
	case r.Use != nil:
		item := r.Use.Item
		if item == "" {
			if held == "" {
				return nil, fmt.Errorf("nothing is held: hold an item or name one in \"item\"")
			}
			item = held
		}
		if r.Use.Entity != nil {
			// Our actions right-click an entity with whatever is in hand.
			use := action.Interact{Entity: r.Use.Entity}
			if m, err := world.ParseItemMatcher(item); err == nil && m.Matches(st.inv.HeldStack()) {
				return []action.Action{use}, nil
			}
			return []action.Action{action.Equip{Item: item}, use}, nil
		}
		return []action.Action{action.UseItem{Item: item, Target: r.Use.Target}}, nil
	case r.Interact != nil:
		return []action.Action{action.Interact{Pos: r.Interact.Pos, Entity: r.Interact.Entity}}, nil
	case r.Dig != nil:
		return []action.Action{action.BreakBlock{Pos: r.Dig.Pos}}, nil
	}
	return nil, fmt.Errorf("%s: not an action", r.Type)
}
