package mapview

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
)

// Bounds of Render.
const (
	// MaxScale is the most pixels a block may take on a side.
	MaxScale = 32
	// MaxPixels is the most pixels an image may have on a side.
	MaxPixels = 8192
	// DefaultScale is the pixels per block agent map draws by default.
	DefaultScale = 4
)

// Marker colours, drawn over the columns.
var (
	BotColor     = color.RGBA{0xff, 0x20, 0x20, 255}
	FacingColor  = color.RGBA{0xff, 0xff, 0xff, 255}
	PathColor    = color.RGBA{0xff, 0xeb, 0x3b, 255}
	TargetColor  = color.RGBA{0xff, 0xeb, 0x3b, 255}
	MachineColor = color.RGBA{0xff, 0x40, 0xff, 255}
	DigColor     = color.RGBA{0xff, 0x80, 0x00, 255}
	PlaceColor   = color.RGBA{0x30, 0xff, 0xc0, 255}
	OreEdgeColor = color.RGBA{0x10, 0x10, 0x10, 255}
	// BarColor is the scale bar under the map, one chunk (16 blocks) long,
	// on a strip of BarBackground.
	BarColor      = color.RGBA{0xff, 0xff, 0xff, 255}
	BarBackground = color.RGBA{0x10, 0x10, 0x10, 255}
)

// RenderOptions choose how a map is drawn.
type RenderOptions struct {
	// Scale is the pixels per block on a side, 1..MaxScale (0: DefaultScale).
	Scale int
	// NoScaleBar leaves out the strip under the map with the scale bar.
	NoScaleBar bool
}

// barHeight is the strip under the map holding the scale bar.
const barHeight = 8

// ImageSize returns the size of the image Render draws for an area, or an
// error naming the bound an area or scale is over.
func ImageSize(a Area, opts RenderOptions) (int, int, error) {
	if err := a.Validate(); err != nil {
		return 0, 0, err
	}
	s := opts.Scale
	if s == 0 {
		s = DefaultScale
	}
	if s < 1 || s > MaxScale {
		return 0, 0, fmt.Errorf("map scale %d: want 1..%d pixels per block", opts.Scale, MaxScale)
	}
	w, h := a.Width()*s, a.Depth()*s
	if w > MaxPixels || h > MaxPixels {
		return 0, 0, fmt.Errorf("map image %d×%d pixels is %w (at most %d a side): lower the scale or the radius", w, h, ErrTooLarge, MaxPixels)
	}
	if !opts.NoScaleBar {
		h += barHeight
	}
	return w, h, nil
}

// Render draws a map: every column a Scale×Scale square of its look's
// colour, shaded by its height against its northern neighbour (Shade),
// then the planned path, the markers and the scale bar.
func Render(m *Map, opts RenderOptions) (*image.RGBA, error) {
	if m == nil {
		return nil, errors.New("map: nothing to render")
	}
	w, h, err := ImageSize(m.Area, opts)
	if err != nil {
		return nil, err
	}
	if len(m.Columns) != m.Area.Width()*m.Area.Depth() {
		return nil, fmt.Errorf("map: %d columns for an area of %d×%d", len(m.Columns), m.Area.Width(), m.Area.Depth())
	}
	s := max(opts.Scale, 1)
	if opts.Scale == 0 {
		s = DefaultScale
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := &renderer{m: m, img: img, s: s}
	colors := make([]color.RGBA, len(m.Looks))
	for i, l := range m.Looks {
		colors[i] = l.RGBA()
	}
	W := m.Area.Width()
	for row := range m.Area.Depth() {
		for col := range W {
			c := m.Columns[row*W+col]
			if c.K < 0 || c.K >= len(colors) {
				return nil, fmt.Errorf("map: column (%d, %d) has look %d of %d", m.Area.MinX+col, m.Area.MinZ+row, c.K, len(colors))
			}
			north := c.Y
			if row > 0 {
				if n := m.Columns[(row-1)*W+col]; n.Y >= 0 {
					north = n.Y
				}
			}
			clr := colors[c.K]
			if c.Y >= 0 {
				clr = shaded(clr, Shade(c.Y, north))
			}
			r.fill(col*s, row*s, s, s, clr)
		}
	}
	r.draw()
	if !opts.NoScaleBar {
		r.scaleBar(h - barHeight)
	}
	return img, nil
}

// WritePNG encodes an image as PNG.
func WritePNG(w io.Writer, img image.Image) error {
	return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
}

// renderer draws markers on an image at s pixels per block.
type renderer struct {
	m   *Map
	img *image.RGBA
	s   int
}

// fill paints a rectangle clipped to the map's part of the image.
func (r *renderer) fill(x, y, w, h int, c color.RGBA) {
	mw, mh := r.m.Area.Width()*r.s, r.m.Area.Depth()*r.s
	for py := max(y, 0); py < min(y+h, mh); py++ {
		off := r.img.PixOffset(0, py)
		for px := max(x, 0); px < min(x+w, mw); px++ {
			i := off + px*4
			r.img.Pix[i], r.img.Pix[i+1], r.img.Pix[i+2], r.img.Pix[i+3] = c.R, c.G, c.B, c.A
		}
	}
}

// cell is the top-left pixel of the column at (x, z).
func (r *renderer) cell(x, z int) (int, int) {
	return (x - r.m.Area.MinX) * r.s, (z - r.m.Area.MinZ) * r.s
}

// centre paints a centred square of side n (at least one pixel) in a cell.
func (r *renderer) centre(x, z, n int, c color.RGBA) {
	px, py := r.cell(x, z)
	n = min(max(n, 1), r.s)
	off := (r.s - n) / 2
	r.fill(px+off, py+off, n, n, c)
}

// outline paints the border of a cell, one pixel wide (the whole cell
// below 3 pixels a block).
func (r *renderer) outline(x, z int, c color.RGBA) {
	px, py := r.cell(x, z)
	if r.s < 3 {
		r.fill(px, py, r.s, r.s, c)
		return
	}
	r.fill(px, py, r.s, 1, c)
	r.fill(px, py+r.s-1, r.s, 1, c)
	r.fill(px, py, 1, r.s, c)
	r.fill(px+r.s-1, py, 1, r.s, c)
}

// draw paints the path and the markers in order.
func (r *renderer) draw() {
	for _, p := range r.m.Path {
		r.centre(p.X, p.Z, r.s/3, PathColor)
	}
	for _, mk := range r.m.Markers {
		switch mk.Kind {
		case MarkerMachine:
			r.outline(mk.Pos.X, mk.Pos.Z, MachineColor)
		case MarkerOre:
			if r.s >= 4 {
				r.outline(mk.Pos.X, mk.Pos.Z, OreEdgeColor)
			}
		case MarkerDig:
			r.centre(mk.Pos.X, mk.Pos.Z, r.s/2, DigColor)
		case MarkerPlace:
			r.centre(mk.Pos.X, mk.Pos.Z, r.s/2, PlaceColor)
		case MarkerTarget:
			r.outline(mk.Pos.X, mk.Pos.Z, TargetColor)
		case MarkerBot:
			r.bot(mk)
		}
	}
}

// bot paints the bot: a disc over its column and beyond (so it shows at one
// pixel a block) and a line from its centre the way it faces.
func (r *renderer) bot(mk Marker) {
	px, py := r.cell(mk.Pos.X, mk.Pos.Z)
	cx, cy := float64(px)+float64(r.s)/2, float64(py)+float64(r.s)/2
	rad := math.Max(float64(r.s)*0.8, 2.5)
	for y := int(cy - rad - 1); y <= int(cy+rad+1); y++ {
		for x := int(cx - rad - 1); x <= int(cx+rad+1); x++ {
			if dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy; dx*dx+dy*dy <= rad*rad {
				r.fill(x, y, 1, 1, BotColor)
			}
		}
	}
	if mk.Yaw == nil {
		return
	}
	// The game's yaw: 0 faces +z (south, down the image), 90 faces -x.
	a := *mk.Yaw * math.Pi / 180
	dx, dz := -math.Sin(a), math.Cos(a)
	length := rad * 2
	for t := rad * 0.6; t <= length; t += 0.5 {
		r.fill(int(cx+dx*t), int(cy+dz*t), 1, 1, FacingColor)
	}
}

// scaleBar paints the strip under the map and a bar one chunk long.
func (r *renderer) scaleBar(y0 int) {
	b := r.img.Bounds()
	for y := y0; y < b.Max.Y; y++ {
		for x := 0; x < b.Max.X; x++ {
			r.img.SetRGBA(x, y, BarBackground)
		}
	}
	n := min(16*r.s, b.Max.X-4)
	for x := 2; x < 2+n; x++ {
		r.img.SetRGBA(x, y0+barHeight/2, BarColor)
	}
	for _, x := range []int{2, 1 + n} {
		for y := y0 + 2; y < y0+barHeight-2; y++ {
			r.img.SetRGBA(x, y, BarColor)
		}
	}
}
