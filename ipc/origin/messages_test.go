package origin

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func ptr[T any](v T) *T { return &v }

func TestDecodeLine(t *testing.T) {
	for _, c := range []struct {
		line string
		want Request
	}{
		{`{"type":"move_step","payload":{"x":10.5,"y":64,"z":-3.2,"radius":1.5}}`,
			Request{Type: TypeMoveStep, Move: &MoveStep{X: 10.5, Y: 64, Z: -3.2, Radius: 1.5}}},
		{`{"type":"move_step","payload":{"x":1,"y":2,"z":3}}`,
			Request{Type: TypeMoveStep, Move: &MoveStep{X: 1, Y: 2, Z: 3}}},
		{`{"type":"block_dig","id":"a","payload":{"status":"start","x":1,"y":2,"z":3,"face":5}}`,
			Request{Type: TypeBlockDig, ID: []byte(`"a"`), Dig: &BlockDig{Status: DigStart, Pos: world.Pos(1, 2, 3), Face: 5}}},
		{`{"type":"block_dig","payload":{"status":"stop","x":1,"y":2,"z":3,"face":"west"}}`,
			Request{Type: TypeBlockDig, Dig: &BlockDig{Status: DigStop, Pos: world.Pos(1, 2, 3), Face: 4}}},
		{`{"type":"block_dig","payload":{"status":"stop","x":1,"y":2,"z":3}}`,
			Request{Type: TypeBlockDig, Dig: &BlockDig{Status: DigStop, Pos: world.Pos(1, 2, 3), Face: -1}}},
		{`{"type":"block_dig","payload":{"status":"abort"}}`,
			Request{Type: TypeBlockDig, Dig: &BlockDig{Status: DigAbort, Face: -1, AnyPos: true}}},
		{`{"type":"block_dig","payload":{"status":"abort","x":0,"y":0,"z":0}}`,
			Request{Type: TypeBlockDig, Dig: &BlockDig{Status: DigAbort, Face: -1}}},
		{`{"type":"block_place","id":7,"payload":{"x":1,"y":63,"z":3,"face":1}}`,
			Request{Type: TypeBlockPlace, ID: []byte(`7`), Place: &BlockPlace{Pos: world.Pos(1, 63, 3), Face: 1}}},
		{`{"type":"block_place","payload":{"x":1,"y":63,"z":3,"face":"north","item":"minecraft:dirt"}}`,
			Request{Type: TypeBlockPlace, Place: &BlockPlace{Pos: world.Pos(1, 63, 3), Face: 2, Item: "minecraft:dirt"}}},
		{`{"type":"use_item","payload":{}}`, Request{Type: TypeUseItem, Use: &UseItem{}}},
		{`{"type":"use_item"}`, Request{Type: TypeUseItem, Use: &UseItem{}}},
		{`{"type":"use_item","payload":{"target":"air","item":"minecraft:bucket"}}`,
			Request{Type: TypeUseItem, Use: &UseItem{Item: "minecraft:bucket"}}},
		{`{"type":"use_item","payload":{"target":"block","x":4,"y":5,"z":6}}`,
			Request{Type: TypeUseItem, Use: &UseItem{Target: ptr(world.Pos(4, 5, 6))}}},
		{`{"type":"use_item","payload":{"target":{"x":4,"y":5,"z":6}}}`,
			Request{Type: TypeUseItem, Use: &UseItem{Target: ptr(world.Pos(4, 5, 6))}}},
		{`{"type":"interact","payload":{"kind":"entity","entity_id":42}}`,
			Request{Type: TypeInteract, Interact: &Interact{Entity: ptr(42)}}},
		{`{"type":"interact","payload":{"kind":"block","x":4,"y":5,"z":6}}`,
			Request{Type: TypeInteract, Interact: &Interact{Pos: ptr(world.Pos(4, 5, 6))}}},
		{" \t{\"type\":\"use_item\",\"extra\":1,\"payload\":{\"why\":\"unknown fields are ignored\"}} ",
			Request{Type: TypeUseItem, Use: &UseItem{}}},
	} {
		got, err := DecodeLine([]byte(c.line))
		if assert.Nil(t, err, c.line) {
			assert.Equal(t, c.want, got, c.line)
		}
	}
}

func TestDecodeLineErrors(t *testing.T) {
	for _, c := range []struct {
		line string
		code ErrorCode
		msg  string
	}{
		{``, BadRequest, "one JSON object"},
		{`[]`, BadRequest, "one JSON object"},
		{`{"type":`, BadRequest, "malformed JSON"},
		{`{"payload":{}}`, BadRequest, "type: missing"},
		{`{"type":5}`, BadRequest, "malformed"},
		{`{"type":"teleport","payload":{}}`, UnknownType, `"teleport"`},
		{`{"type":"move_step","payload":[1]}`, BadRequest, "payload"},
		{`{"type":"move_step","id":{"a":1},"payload":{}}`, BadRequest, "id: must be a string or a number"},
		{`{"type":"move_step","id":"` + strings.Repeat("i", 200) + `","payload":{}}`, BadRequest, "id: longer"},
		{`{"type":"move_step","payload":{"x":1,"y":2}}`, BadRequest, "z: missing"},
		{`{"type":"move_step","payload":{"x":"1","y":2,"z":3}}`, BadRequest, "x: must be a number"},
		{`{"type":"move_step","payload":{"x":1,"y":256,"z":3}}`, BadRequest, "y: must be within"},
		{`{"type":"move_step","payload":{"x":1,"y":-1,"z":3}}`, BadRequest, "y: must be within"},
		{`{"type":"move_step","payload":{"x":3e7,"y":1,"z":30000001}}`, BadRequest, "z: must be within"},
		{`{"type":"move_step","payload":{"x":1,"y":2,"z":3,"radius":-1}}`, BadRequest, "radius"},
		{`{"type":"move_step","payload":{"x":1,"y":2,"z":3,"radius":257}}`, BadRequest, "radius"},
		{`{"type":"move_step","payload":{"x":1e999,"y":2,"z":3}}`, BadRequest, "x:"},
		{`{"type":"block_dig","payload":{"x":1,"y":2,"z":3}}`, BadRequest, "status: missing"},
		{`{"type":"block_dig","payload":{"status":"dig","x":1,"y":2,"z":3}}`, BadRequest, "status: must be"},
		{`{"type":"block_dig","payload":{"status":"start","x":1.5,"y":2,"z":3}}`, BadRequest, "x: must be a whole number"},
		{`{"type":"block_dig","payload":{"status":"start","x":1,"y":256,"z":3}}`, BadRequest, "y: must be within 0..255"},
		{`{"type":"interact","payload":{"kind":"block","x":1,"y":-1,"z":3}}`, BadRequest, "y: must be within 0..255"},
		{`{"type":"block_dig","payload":{"status":"start","x":1,"y":2,"z":3,"face":6}}`, BadRequest, "face"},
		{`{"type":"block_dig","payload":{"status":"start","x":1,"y":2,"z":3,"face":"sideways"}}`, BadRequest, "face"},
		{`{"type":"block_dig","payload":{"status":"abort","x":1}}`, BadRequest, "y: missing"},
		{`{"type":"block_place","payload":{"x":1,"y":2,"z":3}}`, BadRequest, "face: missing"},
		{`{"type":"block_place","payload":{"x":1,"y":255,"z":3,"face":1}}`, BadRequest, "outside the world"},
		{`{"type":"block_place","payload":{"x":1,"y":0,"z":3,"face":0}}`, BadRequest, "outside the world"},
		{`{"type":"block_place","payload":{"x":1,"y":2,"z":3,"face":1,"item":"dirt"}}`, BadRequest, "item"},
		{`{"type":"use_item","payload":{"target":"block","x":1}}`, BadRequest, "y: missing"},
		{`{"type":"use_item","payload":{"target":{"x":1,"y":2}}}`, BadRequest, "target.z: missing"},
		{`{"type":"use_item","payload":{"target":3}}`, BadRequest, "target"},
		{`{"type":"use_item","payload":{"target":"moon"}}`, BadRequest, "target"},
		{`{"type":"use_item","payload":{"target":"entity","entity_id":3}}`, Unsupported, "interact"},
		{`{"type":"interact","payload":{"kind":"entity"}}`, BadRequest, "entity_id: missing"},
		{`{"type":"interact","payload":{"kind":"entity","entity_id":3000000000}}`, BadRequest, "entity_id"},
		{`{"type":"interact","payload":{"kind":"block","x":1,"y":2}}`, BadRequest, "z: missing"},
		{`{"type":"interact","payload":{"kind":"chest"}}`, BadRequest, "kind"},
	} {
		_, err := DecodeLine([]byte(c.line))
		if assert.NotNil(t, err, c.line) {
			assert.Equal(t, c.code, err.Code, c.line)
			assert.Contains(t, err.Message, c.msg, c.line)
		}
	}
}

func TestToAction(t *testing.T) {
	dec := func(line string) Request {
		r, err := DecodeLine([]byte(line))
		require.Nil(t, err, line)
		return r
	}
	for _, c := range []struct {
		line string
		held string
		want action.Action
		err  string
	}{
		{`{"type":"move_step","payload":{"x":10.7,"y":64,"z":-3.2,"radius":2}}`, "",
			action.MoveTo{Pos: world.Pos(10, 64, -4), Radius: 2}, ""},
		{`{"type":"block_dig","payload":{"status":"stop","x":1,"y":2,"z":3}}`, "",
			action.BreakBlock{Pos: world.Pos(1, 2, 3)}, ""},
		{`{"type":"block_place","payload":{"x":1,"y":63,"z":3,"face":1}}`, "minecraft:dirt:0",
			action.PlaceBlock{Pos: world.Pos(1, 64, 3), Item: "minecraft:dirt:0", Face: "up"}, ""},
		{`{"type":"block_place","payload":{"x":1,"y":63,"z":3,"face":"east","item":"minecraft:log:2"}}`, "minecraft:dirt:0",
			action.PlaceBlock{Pos: world.Pos(2, 63, 3), Item: "minecraft:log:2", Face: "east"}, ""},
		{`{"type":"block_place","payload":{"x":1,"y":63,"z":3,"face":2}}`, "", nil, "nothing is held"},
		{`{"type":"use_item","payload":{"target":{"x":1,"y":2,"z":3}}}`, "minecraft:bucket:0",
			action.UseItem{Item: "minecraft:bucket:0", Target: ptr(world.Pos(1, 2, 3))}, ""},
		{`{"type":"use_item","payload":{}}`, "", nil, "nothing is held"},
		{`{"type":"interact","payload":{"kind":"entity","entity_id":-4}}`, "", action.Interact{Entity: ptr(-4)}, ""},
	} {
		a, err := dec(c.line).toAction(c.held)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, c.line)
			continue
		}
		if assert.NoError(t, err, c.line) {
			assert.Equal(t, c.want, a, c.line)
			assert.NoError(t, a.Validate(), c.line)
		}
	}
}

func TestHeldMatcher(t *testing.T) {
	inv := world.NewInventory(world.NewStack("minecraft:log", 2, 5), world.NewStack("minecraft:dirt", 0, 1))
	assert.Equal(t, "minecraft:log:2", heldMatcher(inv))
	inv.Held = 1
	assert.Equal(t, "minecraft:dirt:0", heldMatcher(inv))
	inv.Held = 2
	assert.Equal(t, "", heldMatcher(inv))
}

func TestLineReader(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 20) + "\n" + "exact-10ch\r\n" + strings.Repeat("y", 11) + "\r\nlast"
	lr := newLineReader(strings.NewReader(in), 10)
	var got []string
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, errLineTooLarge) {
			got = append(got, "<too large>")
			continue
		}
		require.NoError(t, err)
		got = append(got, string(line))
	}
	assert.Equal(t, []string{"short", "<too large>", "exact-10ch", "<too large>", "last"}, got)
}

func TestLineReaderSkipsWithoutHolding(t *testing.T) {
	// A 10 MB line through a 64-byte limit: skipped, and the line after it
	// read; the reader's buffer stays at the limit.
	huge := bytes.Repeat([]byte("z"), 10<<20)
	r := io.MultiReader(bytes.NewReader(huge), strings.NewReader("\nok\n"))
	lr := newLineReader(r, 64)
	_, err := lr.next()
	assert.ErrorIs(t, err, errLineTooLarge)
	line, err := lr.next()
	require.NoError(t, err)
	assert.Equal(t, "ok", string(line))
	assert.LessOrEqual(t, lr.r.Size(), 66)
}
