package action

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// Kind names an action type.
type Kind string

// The action kinds. The set is closed: bodies declare which they support and
// skills declare which they emit.
const (
	KindMoveTo         Kind = "move_to"
	KindBreakBlock     Kind = "break_block"
	KindPlaceBlock     Kind = "place_block"
	KindUseItem        Kind = "use_item"
	KindInteract       Kind = "interact"
	KindEquip          Kind = "equip"
	KindOpenContainer  Kind = "open_container"
	KindCloseContainer Kind = "close_container"
	KindTransferItems  Kind = "transfer_items"
	KindCraft          Kind = "craft"
	KindWait           Kind = "wait"
	KindChat           Kind = "chat"
	KindAttack         Kind = "attack"
	KindDropItem       Kind = "drop_item"
)

// Action is one low-level step for a body to execute.
type Action interface {
	Kind() Kind
	// Validate checks the action's fields beyond their types.
	Validate() error
}

// Param describes one parameter of an action kind.
type Param struct {
	Name     string    `json:"name"`
	Type     ParamType `json:"type"`
	Required bool      `json:"required"`
	Default  any       `json:"default,omitempty"`
	Enum     []string  `json:"enum,omitempty"`
	Doc      string    `json:"description"`
}

// Spec describes an action kind: what it does and its parameters.
type Spec struct {
	Kind   Kind    `json:"type"`
	Doc    string  `json:"description"`
	Params []Param `json:"params"`
}

// Param returns the named parameter.
func (s Spec) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Faces a block can be placed against or clicked on.
var Faces = []string{"auto", "down", "up", "north", "south", "west", "east"}

var specs = []Spec{
	{KindMoveTo, "Walk (pathfinding) until the feet are within radius blocks of pos.", []Param{
		{Name: "pos", Type: TypeBlockPos, Required: true, Doc: "Destination block position (feet)."},
		{Name: "radius", Type: TypeFloat, Default: 0.0, Doc: "Arrive when within this many blocks of pos."},
		{Name: "keep", Type: TypeBlockPosList, Doc: "Blocks a route that digs must leave standing (the ground of a site to build on)."},
	}},
	{KindBreakBlock, "Mine the block at pos with the held item; needs reach (4.5 blocks).", []Param{
		{Name: "pos", Type: TypeBlockPos, Required: true, Doc: "Block to break."},
	}},
	{KindPlaceBlock, "Place a block item from the inventory at pos, against an adjacent face.", []Param{
		{Name: "pos", Type: TypeBlockPos, Required: true, Doc: "Where the new block goes."},
		{Name: "item", Type: TypeItemID, Required: true, Doc: "Block item to place."},
		{Name: "face", Type: TypeString, Default: "auto", Enum: Faces, Doc: "Face of the supporting block to click."},
	}},
	{KindUseItem, "Use (right-click) an item: on a block when target is given, otherwise in the air.", []Param{
		{Name: "item", Type: TypeItemID, Required: true, Doc: "Item to hold and use."},
		{Name: "target", Type: TypeBlockPos, Doc: "Block to use the item on."},
	}},
	{KindInteract, "Right-click a block or an entity with the current held item.", []Param{
		{Name: "pos", Type: TypeBlockPos, Doc: "Block to interact with (exclusive with entity)."},
		{Name: "entity", Type: TypeInt, Doc: "Entity id to interact with (exclusive with pos)."},
	}},
	{KindEquip, "Hold the best matching item from the inventory.", []Param{
		{Name: "item", Type: TypeItemID, Required: true, Doc: "Item to hold."},
	}},
	{KindOpenContainer, "Open the container or machine GUI at pos.", []Param{
		{Name: "pos", Type: TypeBlockPos, Required: true, Doc: "Container block."},
	}},
	{KindCloseContainer, "Close the open container window.", nil},
	{KindTransferItems, "Move items between the inventory and the open container at pos.", []Param{
		{Name: "pos", Type: TypeBlockPos, Required: true, Doc: "Container block (must be open)."},
		{Name: "item", Type: TypeItemID, Required: true, Doc: "Items to move."},
		{Name: "count", Type: TypeInt, Required: true, Doc: "How many items to move."},
		{Name: "direction", Type: TypeString, Required: true, Enum: []string{"deposit", "withdraw"}, Doc: "deposit into the container or withdraw from it."},
		{Name: "slot", Type: TypeString, Doc: "Named container slot (input, fuel, output); any slot when empty."},
	}},
	{KindCraft, "Craft an item in the inventory grid, or at the crafting table at table.", []Param{
		{Name: "item", Type: TypeItemID, Required: true, Doc: "Item to craft (modid:name[:meta])."},
		{Name: "count", Type: TypeInt, Default: 1, Doc: "How many crafting operations to run."},
		{Name: "table", Type: TypeBlockPos, Doc: "Crafting table to use for 3x3 recipes."},
	}},
	{KindWait, "Do nothing for a while (machines work, crops grow).", []Param{
		{Name: "ticks", Type: TypeDuration, Required: true, Doc: "How long to wait (ticks, or e.g. \"5s\")."},
	}},
	{KindChat, "Send a chat message.", []Param{
		{Name: "message", Type: TypeString, Required: true, Doc: "Text to send (at most 100 characters in 1.7.10)."},
	}},
	{KindAttack, "Hit an entity (left-click) with the held item; it must be within reach (3 blocks).", []Param{
		{Name: "entity", Type: TypeInt, Required: true, Doc: "Entity id to hit (a snapshot's entities[].id)."},
	}},
	{KindDropItem, "Throw items out of the inventory (Q in the game): they lie as item entities a few blocks ahead until picked up or gone after 6000 ticks.", []Param{
		{Name: "item", Type: TypeItemID, Required: true, Doc: "Items to throw away."},
		{Name: "count", Type: TypeInt, Required: true, Doc: "How many to throw away."},
	}},
}

var specIndex = func() map[Kind]int {
	m := map[Kind]int{}
	for i, s := range specs {
		m[s.Kind] = i
	}
	return m
}()

// Kinds returns every action kind, in vocabulary order.
func Kinds() []Kind {
	out := make([]Kind, len(specs))
	for i, s := range specs {
		out[i] = s.Kind
	}
	return out
}

// Specs returns the schema of every action kind.
func Specs() []Spec { return append([]Spec(nil), specs...) }

// SpecOf returns the schema of a kind.
func SpecOf(k Kind) (Spec, bool) {
	i, ok := specIndex[k]
	if !ok {
		return Spec{}, false
	}
	return specs[i], true
}

// Valid reports whether k is in the vocabulary.
func (k Kind) Valid() bool { _, ok := specIndex[k]; return ok }

// ParseKind checks a kind name.
func ParseKind(s string) (Kind, error) {
	k := Kind(s)
	if !k.Valid() {
		names := make([]string, len(specs))
		for i, sp := range specs {
			names[i] = string(sp.Kind)
		}
		return "", fmt.Errorf("unknown action type %q (known: %s)", s, strings.Join(names, ", "))
	}
	return k, nil
}

// MoveTo walks to within Radius blocks of Pos.
//
// Where no walking path leads, the body digs one; it never breaks a block
// listed in Keep (at most MaxPosList), nor what it keeps anyway (the
// target with a radius, machines, containers, crafting tables).
type MoveTo struct {
	Pos    world.BlockPos   `json:"pos"`
	Radius float64          `json:"radius"`
	Keep   []world.BlockPos `json:"keep,omitempty"`
}

// BreakBlock mines the block at Pos.
type BreakBlock struct {
	Pos world.BlockPos `json:"pos"`
}

// PlaceBlock places Item at Pos.
type PlaceBlock struct {
	Pos  world.BlockPos `json:"pos"`
	Item string         `json:"item"`
	Face string         `json:"face"`
}

// UseItem uses Item, on Target when set.
type UseItem struct {
	Item   string          `json:"item"`
	Target *world.BlockPos `json:"target,omitempty"`
}

// Interact right-clicks a block (Pos) or an entity (Entity).
type Interact struct {
	Pos    *world.BlockPos `json:"pos,omitempty"`
	Entity *int            `json:"entity,omitempty"`
}

// Equip holds the best matching Item.
type Equip struct {
	Item string `json:"item"`
}

// OpenContainer opens the GUI at Pos.
type OpenContainer struct {
	Pos world.BlockPos `json:"pos"`
}

// CloseContainer closes the open window.
type CloseContainer struct{}

// Transfer directions.
const (
	Deposit  = "deposit"
	Withdraw = "withdraw"
)

// TransferItems moves Count items matching Item between the inventory and the
// open container at Pos.
type TransferItems struct {
	Pos       world.BlockPos `json:"pos"`
	Item      string         `json:"item"`
	Count     int            `json:"count"`
	Direction string         `json:"direction"`
	Slot      string         `json:"slot,omitempty"`
}

// Craft runs Count crafting operations producing Item.
type Craft struct {
	Item  string          `json:"item"`
	Count int             `json:"count"`
	Table *world.BlockPos `json:"table,omitempty"`
}

// MaxWaitTicks bounds one wait: an hour of game time (72,000 ticks), as
// long as the wait_for skill allows. A longer idle is several waits, each
// a step the loop can look between; one wait of years would hold the body
// that long.
const MaxWaitTicks = 72000

// Wait idles for Ticks (1..MaxWaitTicks).
type Wait struct {
	Ticks Ticks `json:"ticks"`
}

// Chat sends Message.
type Chat struct {
	Message string `json:"message"`
}

// Attack hits the entity with id Entity once with the held item.
type Attack struct {
	Entity int `json:"entity"`
}

// DropItem throws Count items matching Item out of the inventory, as a
// player does with Q: each lands a few blocks ahead as an item entity that
// can be picked up again and is gone after 6000 ticks.
type DropItem struct {
	Item  string `json:"item"`
	Count int    `json:"count"`
}

// MaxDropCount bounds one drop: what the 36 slots of the inventory hold
// at 64 a stack.
const MaxDropCount = 36 * 64

// Kind implementations.
func (MoveTo) Kind() Kind         { return KindMoveTo }
func (BreakBlock) Kind() Kind     { return KindBreakBlock }
func (PlaceBlock) Kind() Kind     { return KindPlaceBlock }
func (UseItem) Kind() Kind        { return KindUseItem }
func (Interact) Kind() Kind       { return KindInteract }
func (Equip) Kind() Kind          { return KindEquip }
func (OpenContainer) Kind() Kind  { return KindOpenContainer }
func (CloseContainer) Kind() Kind { return KindCloseContainer }
func (TransferItems) Kind() Kind  { return KindTransferItems }
func (Craft) Kind() Kind          { return KindCraft }
func (Wait) Kind() Kind           { return KindWait }
func (Chat) Kind() Kind           { return KindChat }
func (Attack) Kind() Kind         { return KindAttack }
func (DropItem) Kind() Kind       { return KindDropItem }

var (
	_ Action = MoveTo{}
	_ Action = BreakBlock{}
	_ Action = PlaceBlock{}
	_ Action = UseItem{}
	_ Action = Interact{}
	_ Action = Equip{}
	_ Action = OpenContainer{}
	_ Action = CloseContainer{}
	_ Action = TransferItems{}
	_ Action = Craft{}
	_ Action = Wait{}
	_ Action = Chat{}
	_ Action = Attack{}
	_ Action = DropItem{}
)

func checkItem(field, s string) error {
	if _, err := world.ParseItemMatcher(s); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	return nil
}

// Validate implementations.
func (a MoveTo) Validate() error {
	if a.Radius < 0 || a.Radius > 256 {
		return fmt.Errorf("radius: must be within 0..256, got %v", a.Radius)
	}
	if len(a.Keep) > MaxPosList {
		return fmt.Errorf("keep: at most %d block positions, got %d", MaxPosList, len(a.Keep))
	}
	return nil
}
func (a BreakBlock) Validate() error { return nil }
func (a PlaceBlock) Validate() error {
	if err := checkItem("item", a.Item); err != nil {
		return err
	}
	if !contains(Faces, a.Face) {
		return fmt.Errorf("face: must be one of %s, got %q", strings.Join(Faces, ", "), a.Face)
	}
	return nil
}
func (a UseItem) Validate() error { return checkItem("item", a.Item) }
func (a Interact) Validate() error {
	if (a.Pos == nil) == (a.Entity == nil) {
		return fmt.Errorf("exactly one of pos and entity is required")
	}
	return nil
}
func (a Equip) Validate() error         { return checkItem("item", a.Item) }
func (a OpenContainer) Validate() error { return nil }
func (CloseContainer) Validate() error  { return nil }
func (a TransferItems) Validate() error {
	if err := checkItem("item", a.Item); err != nil {
		return err
	}
	if a.Count < 1 {
		return fmt.Errorf("count: must be at least 1, got %d", a.Count)
	}
	if a.Direction != Deposit && a.Direction != Withdraw {
		return fmt.Errorf("direction: must be deposit or withdraw, got %q", a.Direction)
	}
	return nil
}
func (a Craft) Validate() error {
	m, err := world.ParseItemMatcher(a.Item)
	if err == nil && m.IsTag() {
		err = fmt.Errorf("%q names a group of items; craft needs one exact item id", a.Item)
	}
	if err != nil {
		return fmt.Errorf("item: %w", err)
	}
	if a.Count < 1 {
		return fmt.Errorf("count: must be at least 1, got %d", a.Count)
	}
	return nil
}
func (a Wait) Validate() error {
	if a.Ticks < 1 {
		return fmt.Errorf("ticks: must be at least 1, got %d", a.Ticks)
	}
	if a.Ticks > MaxWaitTicks {
		return fmt.Errorf("ticks: at most %d (an hour of game time) in one wait, got %d; wait several times", MaxWaitTicks, a.Ticks)
	}
	return nil
}
func (a Chat) Validate() error {
	if a.Message == "" {
		return fmt.Errorf("message: must not be empty")
	}
	if len([]rune(a.Message)) > 100 {
		return fmt.Errorf("message: at most 100 characters in 1.7.10, got %d", len([]rune(a.Message)))
	}
	if strings.ContainsAny(a.Message, "\n\r§") {
		return fmt.Errorf("message: must not contain newlines or formatting codes")
	}
	return nil
}

func (a Attack) Validate() error {
	if a.Entity < 0 {
		return fmt.Errorf("entity: must be an entity id (0 or more), got %d", a.Entity)
	}
	return nil
}

func (a DropItem) Validate() error {
	if err := checkItem("item", a.Item); err != nil {
		return err
	}
	if a.Count < 1 || a.Count > MaxDropCount {
		return fmt.Errorf("count: must be within 1..%d (36 slots of 64), got %d", MaxDropCount, a.Count)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FromParams builds a typed action of kind k from untyped parameter values,
// coercing each to its declared type, applying defaults and rejecting unknown
// or missing parameters. The error names the parameter.
func FromParams(k Kind, params map[string]any) (Action, error) {
	spec, ok := SpecOf(k)
	if !ok {
		_, err := ParseKind(string(k))
		return nil, err
	}
	vals := make(map[string]any, len(spec.Params))
	for name := range params {
		if _, ok := spec.Param(name); !ok {
			return nil, fmt.Errorf("%s: unknown parameter %q", k, name)
		}
	}
	for _, p := range spec.Params {
		raw, ok := params[p.Name]
		if !ok || raw == nil {
			if p.Required {
				return nil, fmt.Errorf("%s: missing parameter %q", k, p.Name)
			}
			if p.Default != nil {
				vals[p.Name] = p.Default
			}
			continue
		}
		v, err := p.Type.Coerce(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: parameter %q: %w", k, p.Name, err)
		}
		if len(p.Enum) > 0 && !contains(p.Enum, v.(string)) {
			return nil, fmt.Errorf("%s: parameter %q: must be one of %s, got %q", k, p.Name, strings.Join(p.Enum, ", "), v)
		}
		vals[p.Name] = v
	}
	a := build(k, vals)
	if err := a.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", k, err)
	}
	return a, nil
}

func build(k Kind, v map[string]any) Action {
	str := func(n string) string { s, _ := v[n].(string); return s }
	num := func(n string) int { i, _ := v[n].(int); return i }
	pos := func(n string) world.BlockPos { p, _ := v[n].(world.BlockPos); return p }
	optPos := func(n string) *world.BlockPos {
		if p, ok := v[n].(world.BlockPos); ok {
			return &p
		}
		return nil
	}
	switch k {
	case KindMoveTo:
		r, _ := v["radius"].(float64)
		keep, _ := v["keep"].([]world.BlockPos)
		if len(keep) == 0 {
			keep = nil // an empty list keeps nothing, as none does
		}
		return MoveTo{Pos: pos("pos"), Radius: r, Keep: keep}
	case KindBreakBlock:
		return BreakBlock{Pos: pos("pos")}
	case KindPlaceBlock:
		return PlaceBlock{Pos: pos("pos"), Item: str("item"), Face: str("face")}
	case KindUseItem:
		return UseItem{Item: str("item"), Target: optPos("target")}
	case KindInteract:
		a := Interact{Pos: optPos("pos")}
		if e, ok := v["entity"].(int); ok {
			a.Entity = &e
		}
		return a
	case KindEquip:
		return Equip{Item: str("item")}
	case KindOpenContainer:
		return OpenContainer{Pos: pos("pos")}
	case KindCloseContainer:
		return CloseContainer{}
	case KindTransferItems:
		return TransferItems{Pos: pos("pos"), Item: str("item"), Count: num("count"), Direction: str("direction"), Slot: str("slot")}
	case KindCraft:
		return Craft{Item: str("item"), Count: num("count"), Table: optPos("table")}
	case KindWait:
		t, _ := v["ticks"].(Ticks)
		return Wait{Ticks: t}
	case KindChat:
		return Chat{Message: str("message")}
	case KindAttack:
		return Attack{Entity: num("entity")}
	case KindDropItem:
		return DropItem{Item: str("item"), Count: num("count")}
	}
	panic(fmt.Sprintf("action: kind %q has a spec but no constructor", k))
}

// Marshal encodes an action as a flat JSON object with a "type" field:
// {"type":"move_to","pos":{"x":1,"y":64,"z":2},"radius":1}.
func Marshal(a Action) ([]byte, error) {
	body, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	kind, _ := json.Marshal(string(a.Kind()))
	if string(body) == "{}" {
		return []byte(`{"type":` + string(kind) + `}`), nil
	}
	out := make([]byte, 0, len(body)+len(kind)+9)
	out = append(out, `{"type":`...)
	out = append(out, kind...)
	out = append(out, ',')
	out = append(out, body[1:]...)
	return out, nil
}

// Unmarshal decodes the flat JSON form produced by Marshal.
func Unmarshal(data []byte) (Action, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("action: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("action: trailing data after the JSON object")
	}
	t, ok := m["type"].(string)
	if !ok {
		return nil, fmt.Errorf("action: missing string field \"type\"")
	}
	delete(m, "type")
	return FromParams(Kind(t), m)
}

// Envelope wraps an action so it marshals to and from the flat JSON form
// inside other structures (traces, IPC messages).
type Envelope struct{ Action Action }

// MarshalJSON implements json.Marshaler.
func (e Envelope) MarshalJSON() ([]byte, error) {
	if e.Action == nil {
		return []byte("null"), nil
	}
	return Marshal(e.Action)
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *Envelope) UnmarshalJSON(data []byte) error {
	a, err := Unmarshal(data)
	if err != nil {
		return err
	}
	e.Action = a
	return nil
}

// KindSet is a set of action kinds.
type KindSet map[Kind]struct{}

// NewKindSet builds a set.
func NewKindSet(kinds ...Kind) KindSet {
	s := KindSet{}
	for _, k := range kinds {
		s[k] = struct{}{}
	}
	return s
}

// Has reports membership.
func (s KindSet) Has(k Kind) bool { _, ok := s[k]; return ok }

// Sorted returns the kinds in name order.
func (s KindSet) Sorted() []Kind {
	out := make([]Kind, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
