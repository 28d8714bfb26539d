package action

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

func ptrPos(x, y, z int) *world.BlockPos { p := world.Pos(x, y, z); return &p }
func ptrInt(i int) *int                  { return &i }

func TestKindsAndSpecs(t *testing.T) {
	kinds := Kinds()
	assert.Equal(t, []Kind{
		KindMoveTo, KindBreakBlock, KindPlaceBlock, KindUseItem, KindInteract, KindEquip,
		KindOpenContainer, KindCloseContainer, KindTransferItems, KindCraft, KindWait, KindChat, KindAttack, KindDropItem,
	}, kinds)
	specs := Specs()
	require.Len(t, specs, len(kinds))
	for i, k := range kinds {
		assert.True(t, k.Valid())
		s, ok := SpecOf(k)
		require.True(t, ok)
		assert.Equal(t, k, s.Kind)
		assert.Equal(t, specs[i], s)
		assert.NotEmpty(t, s.Doc)
		for _, p := range s.Params {
			assert.True(t, p.Type.Valid(), "%s.%s", k, p.Name)
			assert.NotEmpty(t, p.Doc, "%s.%s", k, p.Name)
			got, ok := s.Param(p.Name)
			assert.True(t, ok)
			assert.Equal(t, p, got)
			if p.Default != nil {
				assert.False(t, p.Required, "%s.%s has a default and is required", k, p.Name)
				_, err := p.Type.Coerce(p.Default)
				assert.NoError(t, err, "default of %s.%s", k, p.Name)
			}
		}
		_, ok = s.Param("nope")
		assert.False(t, ok)
	}
	// Specs returns a copy.
	specs[0].Kind = "changed"
	assert.Equal(t, KindMoveTo, Specs()[0].Kind)

	_, ok := SpecOf("fly")
	assert.False(t, ok)
	assert.False(t, Kind("fly").Valid())
	assert.False(t, Kind("").Valid())
}

func TestParseKind(t *testing.T) {
	for _, k := range Kinds() {
		got, err := ParseKind(string(k))
		require.NoError(t, err)
		assert.Equal(t, k, got)
	}
	for _, bad := range []string{"", "fly", "MOVE_TO", "move_to ", "navigate_to"} {
		_, err := ParseKind(bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "unknown action type")
		assert.Contains(t, err.Error(), "move_to, break_block")
	}
}

func TestFromParams(t *testing.T) {
	tests := []struct {
		name   string
		kind   Kind
		params map[string]any
		want   Action
		err    string
	}{
		// move_to
		{"move_to defaults radius", KindMoveTo, map[string]any{"pos": []any{1, 64, 2}}, MoveTo{Pos: world.Pos(1, 64, 2)}, ""},
		{"move_to radius int", KindMoveTo, map[string]any{"pos": "1,64,2", "radius": 3}, MoveTo{Pos: world.Pos(1, 64, 2), Radius: 3}, ""},
		{"move_to pos map", KindMoveTo, map[string]any{"pos": map[string]any{"x": 1, "y": 2, "z": 3}, "radius": 1.5}, MoveTo{Pos: world.Pos(1, 2, 3), Radius: 1.5}, ""},
		{"move_to null radius uses default", KindMoveTo, map[string]any{"pos": world.Pos(0, 0, 0), "radius": nil}, MoveTo{}, ""},
		{"move_to missing pos", KindMoveTo, map[string]any{"radius": 1.0}, nil, `move_to: missing parameter "pos"`},
		{"move_to null pos", KindMoveTo, map[string]any{"pos": nil}, nil, `move_to: missing parameter "pos"`},
		{"move_to unknown param", KindMoveTo, map[string]any{"pos": world.Pos(0, 0, 0), "speed": 2}, nil, `move_to: unknown parameter "speed"`},
		{"move_to bad pos", KindMoveTo, map[string]any{"pos": []any{1, 2}}, nil, `move_to: parameter "pos": expected a block position`},
		{"move_to negative radius", KindMoveTo, map[string]any{"pos": world.Pos(0, 0, 0), "radius": -1}, nil, "move_to: radius: must be within 0..256, got -1"},
		{"move_to huge radius", KindMoveTo, map[string]any{"pos": world.Pos(0, 0, 0), "radius": 257}, nil, "radius: must be within 0..256"},
		// break_block
		{"break_block", KindBreakBlock, map[string]any{"pos": world.Pos(1, 2, 3)}, BreakBlock{Pos: world.Pos(1, 2, 3)}, ""},
		{"break_block wrong type", KindBreakBlock, map[string]any{"pos": 5}, nil, `break_block: parameter "pos"`},
		// place_block
		{"place_block default face", KindPlaceBlock, map[string]any{"pos": world.Pos(1, 2, 3), "item": "minecraft:dirt"}, PlaceBlock{Pos: world.Pos(1, 2, 3), Item: "minecraft:dirt", Face: "auto"}, ""},
		{"place_block face", KindPlaceBlock, map[string]any{"pos": world.Pos(1, 2, 3), "item": "minecraft:dirt", "face": "up"}, PlaceBlock{Pos: world.Pos(1, 2, 3), Item: "minecraft:dirt", Face: "up"}, ""},
		{"place_block bad face enum", KindPlaceBlock, map[string]any{"pos": world.Pos(1, 2, 3), "item": "minecraft:dirt", "face": "sideways"}, nil, `place_block: parameter "face": must be one of auto, down, up, north, south, west, east, got "sideways"`},
		{"place_block bad item", KindPlaceBlock, map[string]any{"pos": world.Pos(1, 2, 3), "item": "dirt"}, nil, `place_block: parameter "item"`},
		{"place_block missing item", KindPlaceBlock, map[string]any{"pos": world.Pos(1, 2, 3)}, nil, `place_block: missing parameter "item"`},
		// use_item
		{"use_item in air", KindUseItem, map[string]any{"item": "minecraft:water_bucket"}, UseItem{Item: "minecraft:water_bucket"}, ""},
		{"use_item on block", KindUseItem, map[string]any{"item": "ore:bucketEmpty", "target": []any{0, 63, 0}}, UseItem{Item: "ore:bucketEmpty", Target: ptrPos(0, 63, 0)}, ""},
		{"use_item bad item", KindUseItem, map[string]any{"item": 5}, nil, `use_item: parameter "item": expected an item id`},
		// interact
		{"interact pos", KindInteract, map[string]any{"pos": world.Pos(1, 1, 1)}, Interact{Pos: ptrPos(1, 1, 1)}, ""},
		{"interact entity", KindInteract, map[string]any{"entity": 42}, Interact{Entity: ptrInt(42)}, ""},
		{"interact entity float", KindInteract, map[string]any{"entity": 42.0}, Interact{Entity: ptrInt(42)}, ""},
		{"interact both", KindInteract, map[string]any{"pos": world.Pos(1, 1, 1), "entity": 42}, nil, "interact: exactly one of pos and entity is required"},
		{"interact neither", KindInteract, map[string]any{}, nil, "interact: exactly one of pos and entity is required"},
		{"interact nil map", KindInteract, nil, nil, "interact: exactly one of pos and entity is required"},
		// equip
		{"equip tool class", KindEquip, map[string]any{"item": "tool:axe"}, Equip{Item: "tool:axe"}, ""},
		{"equip missing", KindEquip, nil, nil, `equip: missing parameter "item"`},
		// open / close container
		{"open_container", KindOpenContainer, map[string]any{"pos": world.Pos(5, 5, 5)}, OpenContainer{Pos: world.Pos(5, 5, 5)}, ""},
		{"close_container", KindCloseContainer, nil, CloseContainer{}, ""},
		{"close_container unknown param", KindCloseContainer, map[string]any{"pos": world.Pos(5, 5, 5)}, nil, `close_container: unknown parameter "pos"`},
		// transfer_items
		{"transfer_items", KindTransferItems, map[string]any{"pos": world.Pos(1, 2, 3), "item": "minecraft:coal:0", "count": 8, "direction": "deposit", "slot": "fuel"},
			TransferItems{Pos: world.Pos(1, 2, 3), Item: "minecraft:coal:0", Count: 8, Direction: Deposit, Slot: "fuel"}, ""},
		{"transfer_items count 0", KindTransferItems, map[string]any{"pos": world.Pos(1, 2, 3), "item": "minecraft:coal", "count": 0, "direction": "withdraw"}, nil, "transfer_items: count: must be at least 1, got 0"},
		{"transfer_items bad direction", KindTransferItems, map[string]any{"pos": world.Pos(1, 2, 3), "item": "minecraft:coal", "count": 1, "direction": "sideways"}, nil, `transfer_items: parameter "direction": must be one of deposit, withdraw, got "sideways"`},
		{"transfer_items missing direction", KindTransferItems, map[string]any{"pos": world.Pos(1, 2, 3), "item": "minecraft:coal", "count": 1}, nil, `transfer_items: missing parameter "direction"`},
		{"transfer_items fractional count", KindTransferItems, map[string]any{"pos": world.Pos(1, 2, 3), "item": "minecraft:coal", "count": 1.5, "direction": "deposit"}, nil, `transfer_items: parameter "count": expected an integer, got 1.5`},
		// craft
		{"craft default count", KindCraft, map[string]any{"item": "minecraft:planks"}, Craft{Item: "minecraft:planks", Count: 1}, ""},
		{"craft at table", KindCraft, map[string]any{"item": "minecraft:chest", "count": 2, "table": "3 64 3"}, Craft{Item: "minecraft:chest", Count: 2, Table: ptrPos(3, 64, 3)}, ""},
		{"craft count 0", KindCraft, map[string]any{"item": "minecraft:planks", "count": 0}, nil, "craft: count: must be at least 1, got 0"},
		{"craft not an id", KindCraft, map[string]any{"item": "planks"}, nil, `craft: parameter "item"`},
		{"craft ore name", KindCraft, map[string]any{"item": "ore:plankWood"}, nil, "craft needs one exact item id"},
		{"craft tool class", KindCraft, map[string]any{"item": "tool:axe"}, nil, "craft needs one exact item id"},
		// wait
		{"wait ticks int", KindWait, map[string]any{"ticks": 40}, Wait{Ticks: 40}, ""},
		{"wait seconds", KindWait, map[string]any{"ticks": "2s"}, Wait{Ticks: 40}, ""},
		{"wait 0", KindWait, map[string]any{"ticks": 0}, nil, "wait: ticks: must be at least 1, got 0"},
		{"wait negative", KindWait, map[string]any{"ticks": -5}, nil, `wait: parameter "ticks": duration -5 is negative`},
		{"wait bad", KindWait, map[string]any{"ticks": "soon"}, nil, `wait: parameter "ticks": "soon" is not a duration`},
		// chat
		{"chat", KindChat, map[string]any{"message": "hello"}, Chat{Message: "hello"}, ""},
		{"chat 100 chars", KindChat, map[string]any{"message": strings.Repeat("a", 100)}, Chat{Message: strings.Repeat("a", 100)}, ""},
		{"chat 100 runes", KindChat, map[string]any{"message": strings.Repeat("é", 100)}, Chat{Message: strings.Repeat("é", 100)}, ""},
		{"chat 101 chars", KindChat, map[string]any{"message": strings.Repeat("a", 101)}, nil, "chat: message: at most 100 characters in 1.7.10, got 101"},
		{"chat empty", KindChat, map[string]any{"message": ""}, nil, "chat: message: must not be empty"},
		{"chat newline", KindChat, map[string]any{"message": "a\nb"}, nil, "must not contain newlines or formatting codes"},
		{"chat formatting code", KindChat, map[string]any{"message": "§cred"}, nil, "must not contain newlines or formatting codes"},
		{"chat not a string", KindChat, map[string]any{"message": 5}, nil, `chat: parameter "message": expected a string, got 5 (int)`},
		// drop_item
		{"drop_item", KindDropItem, map[string]any{"item": "minecraft:dirt", "count": 64}, DropItem{Item: "minecraft:dirt", Count: 64}, ""},
		{"drop_item missing count", KindDropItem, map[string]any{"item": "minecraft:dirt"}, nil, `drop_item: missing parameter "count"`},
		{"drop_item count 0", KindDropItem, map[string]any{"item": "minecraft:dirt", "count": 0}, nil, "drop_item: count: must be within 1..2304 (36 slots of 64), got 0"},
		{"drop_item not an id", KindDropItem, map[string]any{"item": "dirt", "count": 1}, nil, `drop_item: parameter "item"`},
		// unknown kind
		{"unknown kind", Kind("fly"), nil, nil, `unknown action type "fly"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := FromParams(tc.kind, tc.params)
			if tc.err != "" {
				require.Error(t, err)
				assert.Nil(t, a)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, a)
			assert.Equal(t, tc.kind, a.Kind())
			assert.NoError(t, a.Validate())
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		a    Action
		err  string
	}{
		{"move_to ok", MoveTo{Radius: 256}, ""},
		{"move_to radius", MoveTo{Radius: 256.5}, "radius"},
		{"move_to keep", MoveTo{Keep: make([]world.BlockPos, MaxPosList)}, ""},
		{"move_to keep too long", MoveTo{Keep: make([]world.BlockPos, MaxPosList+1)}, "keep: at most 4096 block positions, got 4097"},
		{"break_block", BreakBlock{}, ""},
		{"open_container", OpenContainer{}, ""},
		{"close_container", CloseContainer{}, ""},
		{"place_block empty face", PlaceBlock{Item: "minecraft:dirt"}, "face: must be one of"},
		{"place_block auto face", PlaceBlock{Item: "minecraft:dirt", Face: "auto"}, ""},
		{"place_block bad face", PlaceBlock{Item: "minecraft:dirt", Face: "top"}, "face: must be one of"},
		{"place_block bad item", PlaceBlock{Item: "dirt", Face: "up"}, "item:"},
		{"use_item bad item", UseItem{Item: ""}, "item:"},
		{"equip bad item", Equip{Item: "tool:"}, "item:"},
		{"equip ok", Equip{Item: "ore:logWood"}, ""},
		{"interact both", Interact{Pos: ptrPos(0, 0, 0), Entity: ptrInt(1)}, "exactly one of pos and entity"},
		{"interact neither", Interact{}, "exactly one of pos and entity"},
		{"interact entity 0 is an entity", Interact{Entity: ptrInt(0)}, ""},
		{"transfer bad item", TransferItems{Item: "x", Count: 1, Direction: Deposit}, "item:"},
		{"transfer count", TransferItems{Item: "a:b", Count: 0, Direction: Deposit}, "count: must be at least 1"},
		{"transfer direction", TransferItems{Item: "a:b", Count: 1, Direction: ""}, "direction: must be deposit or withdraw"},
		{"transfer ok", TransferItems{Item: "a:b", Count: 1, Direction: Withdraw}, ""},
		{"craft bad item", Craft{Item: "planks", Count: 1}, "item:"},
		{"craft count", Craft{Item: "a:b", Count: -1}, "count: must be at least 1, got -1"},
		{"drop_item ok", DropItem{Item: "minecraft:dirt", Count: MaxDropCount}, ""},
		{"drop_item too many", DropItem{Item: "minecraft:dirt", Count: MaxDropCount + 1}, "count: must be within 1..2304 (36 slots of 64), got 2305"},
		{"drop_item none", DropItem{Item: "minecraft:dirt"}, "count: must be within 1..2304"},
		{"drop_item bad item", DropItem{Item: "dirt", Count: 1}, "item:"},
		{"wait 0", Wait{}, "ticks: must be at least 1, got 0"},
		{"wait 1", Wait{Ticks: 1}, ""},
		{"wait an hour", Wait{Ticks: MaxWaitTicks}, ""},
		{"wait past an hour", Wait{Ticks: MaxWaitTicks + 1}, "ticks: at most 72000 (an hour of game time) in one wait, got 72001"},
		{"wait 2^63-1", Wait{Ticks: math.MaxInt64}, "got 9223372036854775807"},
		{"chat carriage return", Chat{Message: "a\rb"}, "newlines"},
		{"chat 101 runes", Chat{Message: strings.Repeat("ü", 101)}, "got 101"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.a.Validate()
			if tc.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

// samples has one canonical action of every kind, as FromParams builds them.
func samples() map[Kind][]Action {
	return map[Kind][]Action{
		KindMoveTo: {MoveTo{Pos: world.Pos(1, 64, -2), Radius: 1.5}, MoveTo{Pos: world.Pos(-100, 5, 30000000)},
			MoveTo{Pos: world.Pos(3, 64, 2), Keep: []world.BlockPos{world.Pos(2, 63, 2), world.Pos(3, 63, 2)}}},
		KindBreakBlock:     {BreakBlock{Pos: world.Pos(0, 0, 0)}},
		KindPlaceBlock:     {PlaceBlock{Pos: world.Pos(1, 2, 3), Item: "minecraft:sapling:2", Face: "down"}},
		KindUseItem:        {UseItem{Item: "minecraft:bucket"}, UseItem{Item: "ore:bucketEmpty", Target: ptrPos(4, 62, 4)}},
		KindInteract:       {Interact{Pos: ptrPos(1, 1, 1)}, Interact{Entity: ptrInt(1234567)}},
		KindEquip:          {Equip{Item: "tool:axe"}},
		KindOpenContainer:  {OpenContainer{Pos: world.Pos(9, 9, 9)}},
		KindCloseContainer: {CloseContainer{}},
		KindTransferItems: {
			TransferItems{Pos: world.Pos(1, 2, 3), Item: "minecraft:coal:0", Count: 64, Direction: Deposit, Slot: "fuel"},
			TransferItems{Pos: world.Pos(1, 2, 3), Item: "Railcraft:fuel.coke", Count: 1, Direction: Withdraw},
		},
		KindCraft:    {Craft{Item: "minecraft:planks", Count: 1}, Craft{Item: "minecraft:chest", Count: 3, Table: ptrPos(0, 64, 1)}},
		KindWait:     {Wait{Ticks: 1}, Wait{Ticks: 72000}},
		KindChat:     {Chat{Message: `quotes " and <tags> & ünïcödé \ backslash`}},
		KindAttack:   {Attack{Entity: 0}, Attack{Entity: 2147483647}},
		KindDropItem: {DropItem{Item: "minecraft:dirt", Count: 1}, DropItem{Item: "ore:treeSapling", Count: MaxDropCount}},
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	all := samples()
	for _, k := range Kinds() {
		list, ok := all[k]
		require.True(t, ok, "no sample for %s", k)
		for _, a := range list {
			t.Run(string(k), func(t *testing.T) {
				require.NoError(t, a.Validate())
				data, err := Marshal(a)
				require.NoError(t, err)

				// Flat object with the type first.
				assert.True(t, strings.HasPrefix(string(data), `{"type":"`+string(k)+`"`), string(data))
				var flat map[string]any
				require.NoError(t, json.Unmarshal(data, &flat))
				assert.Equal(t, string(k), flat["type"])

				back, err := Unmarshal(data)
				require.NoError(t, err, string(data))
				assert.Equal(t, a, back)
			})
		}
	}
}

func TestMarshalShape(t *testing.T) {
	tests := []struct {
		a    Action
		want string
	}{
		{MoveTo{Pos: world.Pos(1, 64, 2), Radius: 1}, `{"type":"move_to","pos":{"x":1,"y":64,"z":2},"radius":1}`},
		{CloseContainer{}, `{"type":"close_container"}`},
		{UseItem{Item: "minecraft:bucket"}, `{"type":"use_item","item":"minecraft:bucket"}`},
		{Interact{Entity: ptrInt(7)}, `{"type":"interact","entity":7}`},
		{Wait{Ticks: 40}, `{"type":"wait","ticks":40}`},
		{Craft{Item: "a:b", Count: 2}, `{"type":"craft","item":"a:b","count":2}`},
	}
	for _, tc := range tests {
		data, err := Marshal(tc.a)
		require.NoError(t, err)
		assert.JSONEq(t, tc.want, string(data))
		assert.Equal(t, tc.want, string(data))
	}
}

func TestUnmarshal(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Action
		err  string
	}{
		{"pos as list", `{"type":"break_block","pos":[1,2,3]}`, BreakBlock{Pos: world.Pos(1, 2, 3)}, ""},
		{"pos as string", `{"type":"break_block","pos":"1, 2, 3"}`, BreakBlock{Pos: world.Pos(1, 2, 3)}, ""},
		{"type first is not required", `{"pos":{"x":1,"y":2,"z":3},"type":"break_block"}`, BreakBlock{Pos: world.Pos(1, 2, 3)}, ""},
		{"duration string", `{"type":"wait","ticks":"1.5s"}`, Wait{Ticks: 30}, ""},
		{"radius default", `{"type":"move_to","pos":[0,0,0]}`, MoveTo{}, ""},
		{"float radius", `{"type":"move_to","pos":[0,0,0],"radius":2.25}`, MoveTo{Radius: 2.25}, ""},
		{"big entity id", `{"type":"interact","entity":9007199254740993}`, Interact{Entity: ptrInt(9007199254740993)}, ""},
		{"not json", `{"type":`, nil, "action: "},
		{"array", `[1,2]`, nil, "action: "},
		{"null", `null`, nil, `missing string field "type"`},
		{"no type", `{"pos":[1,2,3]}`, nil, `missing string field "type"`},
		{"type not a string", `{"type":3}`, nil, `missing string field "type"`},
		{"unknown type", `{"type":"fly"}`, nil, `unknown action type "fly"`},
		{"unknown field", `{"type":"close_container","extra":1}`, nil, `unknown parameter "extra"`},
		{"fractional count", `{"type":"craft","item":"a:b","count":1.5}`, nil, `parameter "count": expected an integer`},
		{"pos with extra key", `{"type":"break_block","pos":{"x":1,"y":2,"z":3,"w":4}}`, nil, `parameter "pos"`},
		{"pos missing key", `{"type":"break_block","pos":{"x":1,"y":2,"w":4}}`, nil, `parameter "pos"`},
		{"radius huge", `{"type":"move_to","pos":[0,0,0],"radius":1e400}`, nil, `parameter "radius"`},
		{"validate runs", `{"type":"wait","ticks":0}`, nil, "ticks: must be at least 1"},
		{"wait 2^63-1", `{"type":"wait","ticks":9223372036854775807}`, nil, "ticks: at most 72000"},
		{"wait 5h", `{"type":"wait","ticks":"5h"}`, nil, "ticks: at most 72000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Unmarshal([]byte(tc.in))
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, a)
		})
	}
}

func TestEnvelope(t *testing.T) {
	type step struct {
		N      int        `json:"n"`
		Action Envelope   `json:"action"`
		More   []Envelope `json:"more,omitempty"`
	}
	in := step{
		N:      3,
		Action: Envelope{MoveTo{Pos: world.Pos(1, 64, 2), Radius: 1}},
		More:   []Envelope{{Wait{Ticks: 20}}, {CloseContainer{}}, {Chat{Message: "hi"}}},
	}
	data, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, `{"n":3,"action":{"type":"move_to","pos":{"x":1,"y":64,"z":2},"radius":1},
		"more":[{"type":"wait","ticks":20},{"type":"close_container"},{"type":"chat","message":"hi"}]}`, string(data))

	var out step
	require.NoError(t, json.Unmarshal(data, &out))
	assert.Equal(t, in, out)

	t.Run("nil action", func(t *testing.T) {
		data, err := json.Marshal(step{N: 1})
		require.NoError(t, err)
		assert.JSONEq(t, `{"n":1,"action":null}`, string(data))
		data, err = json.Marshal(&Envelope{})
		require.NoError(t, err)
		assert.Equal(t, "null", string(data))
	})

	t.Run("bad action inside", func(t *testing.T) {
		var out step
		err := json.Unmarshal([]byte(`{"n":1,"action":{"type":"wait","ticks":-1}}`), &out)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "negative")
		err = json.Unmarshal([]byte(`{"n":1,"action":{"type":"teleport"}}`), &out)
		assert.ErrorContains(t, err, `unknown action type "teleport"`)
	})
}

func TestKindSet(t *testing.T) {
	s := NewKindSet(KindWait, KindChat, KindMoveTo, KindWait)
	assert.Len(t, s, 3)
	assert.True(t, s.Has(KindChat))
	assert.False(t, s.Has(KindCraft))
	assert.Equal(t, []Kind{KindChat, KindMoveTo, KindWait}, s.Sorted())
	assert.Empty(t, NewKindSet().Sorted())
	assert.False(t, KindSet(nil).Has(KindChat))
}

// FuzzUnmarshal: Unmarshal never panics, and whatever it accepts is a valid
// action that survives Marshal → Unmarshal unchanged.
func FuzzUnmarshal(f *testing.F) {
	for _, list := range samples() {
		for _, a := range list {
			data, err := Marshal(a)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, s := range []string{
		`{"type":"wait","ticks":"2s"}`,
		`{"type":"move_to","pos":"1,2,3","radius":null}`,
		`{"type":"interact","pos":[1,2,3],"entity":4}`,
		`{"type":"transfer_items","pos":{"x":1,"y":2,"z":3},"item":"ore:gemCoal","count":2.0,"direction":"deposit"}`,
		`{"type":"chat","message":"\u00a7"}`,
		`{"type":3}`,
		`null`,
		`[]`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Unmarshal(data)
		if err != nil {
			if a != nil {
				t.Fatalf("Unmarshal returned both an action and an error: %v", err)
			}
			return
		}
		if a == nil {
			t.Fatal("Unmarshal returned neither an action nor an error")
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("Unmarshal accepted an invalid action %#v: %v", a, err)
		}
		out, err := Marshal(a)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", a, err)
		}
		back, err := Unmarshal(out)
		if err != nil {
			t.Fatalf("Unmarshal(Marshal(%#v)) = %s: %v", a, out, err)
		}
		if !assert.ObjectsAreEqual(a, back) {
			t.Fatalf("round trip changed the action:\n%#v\n%#v\nvia %s", a, back, out)
		}
	})
}

func TestUnmarshalRejectsTrailingData(t *testing.T) {
	_, err := Unmarshal([]byte(`{"type":"close_container"} {"type":"close_container"}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "trailing data")
	a, err := Unmarshal([]byte(`{"type":"close_container"}` + "\n"))
	require.NoError(t, err)
	assert.Equal(t, CloseContainer{}, a)
}
