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
	"github.com/gtnh-agent/gtnh-agent/proto17"
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
		// The origin bot core's defaults and the keys it passes through.
		{`{"type":"block_dig","payload":{"status":"start","x":1,"y":2,"z":3,"face":"auto","hand":"main","sequence":4,"cursor":[0.5,1,0.5]}}`,
			Request{Type: TypeBlockDig, Dig: &BlockDig{Status: DigStart, Pos: world.Pos(1, 2, 3), Face: FaceAuto}}},
		{`{"type":"block_dig","payload":{"status":"abort","x":1,"y":2,"z":3,"face":"AUTO"}}`,
			Request{Type: TypeBlockDig, Dig: &BlockDig{Status: DigAbort, Pos: world.Pos(1, 2, 3), Face: FaceAuto}}},
		{`{"type":"block_place","payload":{"x":1,"y":255,"z":3,"face":"auto","hand":"main","sneak":false}}`,
			Request{Type: TypeBlockPlace, Place: &BlockPlace{Pos: world.Pos(1, 255, 3), Face: FaceAuto}}},
		{`{"type":"block_place","payload":{"x":0,"y":0,"z":0,"face":"auto"}}`,
			Request{Type: TypeBlockPlace, Place: &BlockPlace{Pos: world.Pos(0, 0, 0), Face: FaceAuto}}},
		{`{"type":"use_item","payload":{"target":"self","hand":"main","x":1,"y":2,"z":3}}`,
			Request{Type: TypeUseItem, Use: &UseItem{}}},
		{`{"type":"use_item","payload":{"target":"entity","entity_id":42,"item":"minecraft:shears","face":"auto"}}`,
			Request{Type: TypeUseItem, Use: &UseItem{Entity: ptr(42), Item: "minecraft:shears"}}},
		{`{"type":"use_item","payload":{"target":"block","x":4,"y":5,"z":6,"face":"auto","hand":"main"}}`,
			Request{Type: TypeUseItem, Use: &UseItem{Target: ptr(world.Pos(4, 5, 6))}}},
		{`{"type":"move_step","payload":{"x":1,"y":2,"z":3,"sprint":true,"jump":null}}`,
			Request{Type: TypeMoveStep, Move: &MoveStep{X: 1, Y: 2, Z: 3}}},
		{`{"type":"interact","payload":{"kind":"block","x":4,"y":5,"z":6,"face":"auto","hand":"main"}}`,
			Request{Type: TypeInteract, Interact: &Interact{Pos: ptr(world.Pos(4, 5, 6))}}},
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
		{`{"type":"use_item","payload":{"target":"entity"}}`, BadRequest, "entity_id: missing"},
		{`{"type":"use_item","payload":{"target":"entity","entity_id":"3"}}`, BadRequest, "entity_id: must be a number"},
		{`{"type":"block_place","payload":{"x":1,"y":2,"z":3,"face":"automatic"}}`, BadRequest, "or auto"},
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
	// The player stands at (0.5, 64, 0.5); its eyes are 1.62 higher.
	eye := world.Vec3{X: 0.5, Y: 65.62, Z: 0.5}
	holding := func(item string, meta, count int) stance {
		return stance{inv: world.NewInventory(world.NewStack(item, meta, count)), eye: eye}
	}
	dirt, bucket, none := holding("minecraft:dirt", 0, 4), holding("minecraft:bucket", 0, 1), stance{eye: eye}
	for _, c := range []struct {
		line string
		st   stance
		want []action.Action
		err  string
	}{
		{`{"type":"move_step","payload":{"x":10.7,"y":64,"z":-3.2,"radius":2}}`, none,
			[]action.Action{action.MoveTo{Pos: world.Pos(10, 64, -4), Radius: 2}}, ""},
		{`{"type":"block_dig","payload":{"status":"stop","x":1,"y":2,"z":3}}`, none,
			[]action.Action{action.BreakBlock{Pos: world.Pos(1, 2, 3)}}, ""},
		{`{"type":"block_dig","payload":{"status":"stop","x":1,"y":2,"z":3,"face":"auto"}}`, none,
			[]action.Action{action.BreakBlock{Pos: world.Pos(1, 2, 3)}}, ""},
		{`{"type":"block_place","payload":{"x":1,"y":63,"z":3,"face":1}}`, dirt,
			[]action.Action{action.PlaceBlock{Pos: world.Pos(1, 64, 3), Item: "minecraft:dirt:0", Face: "up"}}, ""},
		{`{"type":"block_place","payload":{"x":1,"y":63,"z":3,"face":"east","item":"minecraft:log:2"}}`, dirt,
			[]action.Action{action.PlaceBlock{Pos: world.Pos(2, 63, 3), Item: "minecraft:log:2", Face: "east"}}, ""},
		{`{"type":"block_place","payload":{"x":1,"y":63,"z":3,"face":2}}`, none, nil, "nothing is held"},
		// auto: the ground two blocks away is seen from above, its top is
		// clicked; a block at eye height to the east shows its west face.
		{`{"type":"block_place","payload":{"x":2,"y":63,"z":0,"face":"auto"}}`, dirt,
			[]action.Action{action.PlaceBlock{Pos: world.Pos(2, 64, 0), Item: "minecraft:dirt:0", Face: "up"}}, ""},
		{`{"type":"block_place","payload":{"x":2,"y":65,"z":0,"face":"auto"}}`, dirt,
			[]action.Action{action.PlaceBlock{Pos: world.Pos(1, 65, 0), Item: "minecraft:dirt:0", Face: "west"}}, ""},
		{`{"type":"block_place","payload":{"x":0,"y":255,"z":0,"face":"auto"}}`,
			stance{inv: dirt.inv, eye: world.Vec3{X: 0.5, Y: 258, Z: 0.5}}, nil, "outside the world"},
		{`{"type":"use_item","payload":{"target":{"x":1,"y":2,"z":3}}}`, bucket,
			[]action.Action{action.UseItem{Item: "minecraft:bucket:0", Target: ptr(world.Pos(1, 2, 3))}}, ""},
		{`{"type":"use_item","payload":{}}`, none, nil, "nothing is held"},
		{`{"type":"use_item","payload":{"target":"self"}}`, bucket,
			[]action.Action{action.UseItem{Item: "minecraft:bucket:0"}}, ""},
		// On an entity: the held item right-clicks it; another is held first.
		{`{"type":"use_item","payload":{"target":"entity","entity_id":9}}`, bucket,
			[]action.Action{action.Interact{Entity: ptr(9)}}, ""},
		{`{"type":"use_item","payload":{"target":"entity","entity_id":9,"item":"minecraft:bucket"}}`, bucket,
			[]action.Action{action.Interact{Entity: ptr(9)}}, ""},
		{`{"type":"use_item","payload":{"target":"entity","entity_id":9,"item":"minecraft:shears"}}`, bucket,
			[]action.Action{action.Equip{Item: "minecraft:shears"}, action.Interact{Entity: ptr(9)}}, ""},
		{`{"type":"use_item","payload":{"target":"entity","entity_id":9}}`, none, nil, "nothing is held"},
		{`{"type":"interact","payload":{"kind":"entity","entity_id":-4}}`, none, []action.Action{action.Interact{Entity: ptr(-4)}}, ""},
	} {
		acts, err := dec(c.line).toActions(c.st)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, c.line)
			continue
		}
		if assert.NoError(t, err, c.line) {
			assert.Equal(t, c.want, acts, c.line)
			for _, a := range acts {
				assert.NoError(t, a.Validate(), c.line)
			}
		}
	}
}

// TestAutoFace: the face clicked is the one the line from the eyes to the
// block's centre enters by.
func TestAutoFace(t *testing.T) {
	b := world.Pos(10, 64, 10) // centre (10.5, 64.5, 10.5)
	for _, c := range []struct {
		name string
		eye  world.Vec3
		want int8
	}{
		{"from above", world.Vec3{X: 10.5, Y: 70, Z: 10.5}, proto17.FaceTop},
		{"from below", world.Vec3{X: 10.5, Y: 60, Z: 10.5}, proto17.FaceBottom},
		{"from the north", world.Vec3{X: 10.5, Y: 64.5, Z: 5}, proto17.FaceNorth},
		{"from the south", world.Vec3{X: 10.5, Y: 64.5, Z: 15}, proto17.FaceSouth},
		{"from the west", world.Vec3{X: 5, Y: 64.5, Z: 10.5}, proto17.FaceWest},
		{"from the east", world.Vec3{X: 15, Y: 64.5, Z: 10.5}, proto17.FaceEast},
		// Standing beside it on the same level: the eyes are 1.62 above the
		// feet, 1.12 above the centre; 3 blocks east is farther than that.
		{"standing 3 east", world.Vec3{X: 13.5, Y: 65.62, Z: 10.5}, proto17.FaceEast},
		// One block away the height wins: the top.
		{"standing 1 east", world.Vec3{X: 11.5, Y: 65.62, Z: 10.5}, proto17.FaceTop},
		// Diagonal: the larger offset wins.
		{"north-east, more east", world.Vec3{X: 14, Y: 64.5, Z: 8}, proto17.FaceEast},
		{"north-east, more north", world.Vec3{X: 12, Y: 64.5, Z: 6}, proto17.FaceNorth},
		// Ties: y, then z, then x.
		{"edge: above and east", world.Vec3{X: 12.5, Y: 66.5, Z: 10.5}, proto17.FaceTop},
		{"edge: south and east", world.Vec3{X: 12.5, Y: 64.5, Z: 12.5}, proto17.FaceSouth},
		{"edge: north and west", world.Vec3{X: 8.5, Y: 64.5, Z: 8.5}, proto17.FaceNorth},
		{"at the centre", world.Vec3{X: 10.5, Y: 64.5, Z: 10.5}, proto17.FaceTop},
		{"inside, near the west side", world.Vec3{X: 10.1, Y: 64.6, Z: 10.5}, proto17.FaceWest},
	} {
		assert.Equal(t, faceActionNames[c.want], faceActionNames[AutoFace(b, c.eye)], c.name)
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
