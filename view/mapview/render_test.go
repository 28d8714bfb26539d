package mapview

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// pixel is the colour at the centre of the column (x, z) of a map image.
func pixel(img image.Image, m *Map, scale, x, z int) color.RGBA {
	px := (x-m.Area.MinX)*scale + scale/2
	py := (z-m.Area.MinZ)*scale + scale/2
	return color.RGBAModel.Convert(img.At(px, py)).(color.RGBA)
}

// decoded renders a map to PNG bytes and decodes them again.
func decoded(t *testing.T, m *Map, opts RenderOptions) image.Image {
	t.Helper()
	img, err := Render(m, opts)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WritePNG(&buf, img))
	out, err := png.Decode(&buf)
	require.NoError(t, err)
	return out
}

func blueish(c color.RGBA) bool { return int(c.B) > int(c.R)+60 && int(c.B) > int(c.G)+40 }

func TestRenderForestBase(t *testing.T) {
	snap := forestBase(t)
	m, err := Extract(snap, Options{Area: Around(world.Pos(32, 0, 32), 31)})
	require.NoError(t, err)
	const scale = 5
	img := decoded(t, m, RenderOptions{Scale: scale})
	assert.Equal(t, image.Rect(0, 0, 63*scale, 63*scale+barHeight), img.Bounds())

	assert.True(t, blueish(pixel(img, m, scale, 52, 46)), "the pond is blue: %v", pixel(img, m, scale, 52, 46))
	assert.False(t, blueish(pixel(img, m, scale, 60, 60)), "the plain is not")
	grass := pixel(img, m, scale, 60, 60)
	assert.Greater(t, grass.G, grass.R, "grass is green")
	assert.Equal(t, BotColor, pixel(img, m, scale, 24, 32), "the bot's marker is on its column")
	assert.NotEqual(t, BotColor, pixel(img, m, scale, 28, 32), "and not four blocks east")
	assert.Equal(t, MachineColor, color.RGBAModel.Convert(img.At((44-1)*scale, (26-1)*scale)).(color.RGBA), "a machine's cell is outlined")
	assert.Equal(t, BarColor, color.RGBAModel.Convert(img.At(2+8*scale, 63*scale+barHeight/2)).(color.RGBA), "the scale bar is under the map")
}

func TestRenderMarkers(t *testing.T) {
	snap := oreWorld(t)
	yaw := 270.0 // facing east, +x
	target := world.Pos(12, 64, 4)
	m, err := Extract(snap, Options{Area: Area{MaxX: 15, MaxZ: 15}, Overlay: Overlay{
		Yaw:    &yaw,
		Path:   []world.BlockPos{world.Pos(3, 64, 8), world.Pos(4, 64, 8)},
		Target: &target,
		Events: []Event{{Kind: EventDig, Pos: world.Pos(7, 63, 7)}, {Kind: EventPlace, Pos: world.Pos(8, 64, 12)}},
	}})
	require.NoError(t, err)
	const s = 8
	img := decoded(t, m, RenderOptions{Scale: s, NoScaleBar: true})
	assert.Equal(t, image.Rect(0, 0, 16*s, 16*s), img.Bounds())
	assert.Equal(t, PathColor, pixel(img, m, s, 4, 8))
	assert.Equal(t, DigColor, pixel(img, m, s, 7, 7))
	assert.Equal(t, PlaceColor, pixel(img, m, s, 8, 12))
	assert.Equal(t, TargetColor, color.RGBAModel.Convert(img.At(12*s, 4*s)).(color.RGBA), "the target's cell is outlined")
	assert.Equal(t, BotColor, pixel(img, m, s, 3, 4))
	// East of the bot's centre its facing line; west of it, none.
	cx, cy := 3*s+s/2, 4*s+s/2
	assert.Equal(t, FacingColor, color.RGBAModel.Convert(img.At(cx+s, cy)).(color.RGBA), "the bot faces east")
	assert.NotEqual(t, FacingColor, color.RGBAModel.Convert(img.At(cx-s, cy)).(color.RGBA))
	assert.NotEqual(t, FacingColor, color.RGBAModel.Convert(img.At(cx, cy+s)).(color.RGBA))
}

func TestRenderShading(t *testing.T) {
	blocks := world.NewSparseBlocks()
	for z := range 3 {
		blocks.SetID(world.Pos(0, 10+z, z), "minecraft:stone", 0) // rising to the south
		blocks.SetID(world.Pos(1, 10, z), "minecraft:stone", 0)   // flat
	}
	far := world.Player{Pos: world.Vec3{X: 100, Z: 100}} // no bot on the map
	m, err := Extract(&world.Snapshot{Blocks: blocks, Player: far}, Options{Area: Area{MaxX: 1, MaxZ: 2}})
	require.NoError(t, err)
	img := decoded(t, m, RenderOptions{Scale: 1, NoScaleBar: true})
	flat := pixel(img, m, 1, 1, 1)
	rising := pixel(img, m, 1, 0, 1)
	assert.Equal(t, KindColor(KindStone), flat, "a flat column keeps its colour")
	assert.Greater(t, rising.R, flat.R, "a column higher than its northern neighbour is lighter")
	assert.Equal(t, flat, pixel(img, m, 1, 0, 0), "the first row has no slope")
}

func TestRenderBounds(t *testing.T) {
	m := &Map{Area: Around(world.Pos(0, 0, 0), 1024)}
	_, err := Render(m, RenderOptions{Scale: 4})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.ErrorContains(t, err, "lower the scale or the radius")
	_, _, err = ImageSize(m.Area, RenderOptions{Scale: 33})
	assert.ErrorContains(t, err, "want 1..32")
	_, _, err = ImageSize(m.Area, RenderOptions{Scale: -1})
	assert.ErrorContains(t, err, "want 1..32")
	w, h, err := ImageSize(Around(world.Pos(0, 0, 0), 1024), RenderOptions{Scale: 4})
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.Zero(t, w+h)
	w, h, err = ImageSize(Around(world.Pos(0, 0, 0), 1023), RenderOptions{Scale: 4})
	require.NoError(t, err)
	assert.Equal(t, [2]int{8188, 8188 + barHeight}, [2]int{w, h})
	_, _, err = ImageSize(Area{MaxX: 2047}, RenderOptions{Scale: 4})
	assert.NoError(t, err, "8192 pixels wide")
	_, _, err = ImageSize(Area{MaxX: 2048}, RenderOptions{Scale: 4})
	assert.ErrorIs(t, err, ErrTooLarge, "8196 pixels wide")
	_, _, err = ImageSize(Area{MaxZ: 2048}, RenderOptions{Scale: 4})
	assert.ErrorIs(t, err, ErrTooLarge, "8196 pixels high")
	_, err = Render(&Map{Area: Area{}, Columns: []Column{{K: 3}}}, RenderOptions{})
	assert.ErrorContains(t, err, "has look 3 of 0")
	_, err = Render(&Map{Area: Area{MaxX: 1}}, RenderOptions{})
	assert.ErrorContains(t, err, "0 columns")
}

// BenchmarkRender256 extracts and renders a map of 256×256 columns of the
// benchmark's flat world at 4 pixels a block and encodes it as PNG.
func BenchmarkRender256(b *testing.B) {
	snap := wideWorld(b)
	area := Area{MinX: 0, MinZ: 0, MaxX: 255, MaxZ: 255}
	b.Run("extract", func(b *testing.B) {
		for b.Loop() {
			if _, err := Extract(snap, Options{Area: area}); err != nil {
				b.Fatal(err)
			}
		}
	})
	m, err := Extract(snap, Options{Area: area})
	require.NoError(b, err)
	b.Run("render", func(b *testing.B) {
		for b.Loop() {
			if _, err := Render(m, RenderOptions{Scale: 4}); err != nil {
				b.Fatal(err)
			}
		}
	})
	img, err := Render(m, RenderOptions{Scale: 4})
	require.NoError(b, err)
	b.Run("png", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := WritePNG(&buf, img); err != nil {
				b.Fatal(err)
			}
		}
	})
}
