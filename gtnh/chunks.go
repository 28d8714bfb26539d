package gtnh

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// The terrain the server sends: columns, single and multiple block changes.

func (c *Client) onBlockChange(s *session, p *proto17.BlockChange) {
	pos := world.Pos(int(p.X), int(p.Y), int(p.Z))
	if p.State().IsAir() {
		c.sawAir(s, pos)
	}
	c.setBlocks(func(tx *world.Tx) { tx.SetState(pos, p.State()) })
	c.tagOreBlocks(s, []world.BlockPos{pos})
}

func (c *Client) onMultiBlockChange(s *session, p *proto17.MultiBlockChange) {
	bx, bz := int(p.ChunkX)*16, int(p.ChunkZ)*16
	ps := make([]world.BlockPos, len(p.Records))
	for i, r := range p.Records {
		ps[i] = world.Pos(bx+int(r.X), int(r.Y), bz+int(r.Z))
	}
	for i, r := range p.Records {
		if r.State().IsAir() {
			c.sawAir(s, ps[i])
		}
	}
	c.setBlocks(func(tx *world.Tx) {
		for i, r := range p.Records {
			tx.SetState(ps[i], r.State())
		}
	})
	c.tagOreBlocks(s, ps)
}

// sawAir notes that the server showed the block being dug as air (see
// session.dig).
func (c *Client) sawAir(s *session, pos world.BlockPos) {
	c.mu.Lock()
	if s.dig.watching && s.dig.pos == pos {
		s.dig.air = true
	}
	c.mu.Unlock()
}

// forgetColumn drops a column whose content is no longer known: to the
// pathfinder an unloaded column is Unknown, not air.
func (c *Client) forgetColumn(s *session, cx, cz int) {
	c.markUnknown(fmt.Sprintf("chunk(%d, %d)", cx, cz))
	c.mu.Lock()
	delete(s.loaded, [2]int{cx, cz})
	s.mods.dropColumns(map[[2]int]bool{{cx, cz}: true})
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) { tx.UnloadColumn(cx, cz) })
}

// setBlocks applies block changes and wakes the actions waiting on them.
func (c *Client) setBlocks(fn func(tx *world.Tx)) {
	c.state.Update(fn)
	c.notify()
}

// onChunk decodes one column. The sky-light arrays depend on the
// dimension and are not on the wire: when a column does not fit the
// expected setting, the other one is tried and remembered.
func (c *Client) onChunk(s *session, p *proto17.ChunkData) {
	c.mu.Lock()
	dim := s.dimension
	sky := !s.noSky[dim]
	c.mu.Unlock()
	col, err := s.dec.ChunkData(p, sky)
	if err != nil && p.PrimaryMask != 0 && errors.Is(err, proto17.ErrTruncated) || err != nil && errors.Is(err, proto17.ErrInvalid) && strings.Contains(err.Error(), "inflates to") {
		if col2, err2 := s.dec.ChunkData(p, !sky); err2 == nil {
			col, err = col2, nil
			c.mu.Lock()
			s.noSky[dim] = sky
			c.mu.Unlock()
			c.log.Info().Int32("dimension", dim).Bool("sky_light", !sky).Msg("chunk sky-light setting learned")
		}
	}
	if err != nil {
		_ = c.malformed(s, proto17.IDClientboundChunkData, s.buf.Data, err)
		return
	}
	c.applyColumns(s, []proto17.ChunkColumn{col})
}

func (c *Client) onBulk(s *session, p *proto17.MapChunkBulk) {
	cols, err := s.dec.MapChunkBulk(s.cols[:0], p)
	s.cols = cols[:0]
	if err != nil {
		_ = c.malformed(s, proto17.IDClientboundMapChunkBulk, s.buf.Data, err)
		return
	}
	c.applyColumns(s, cols)
}

func (c *Client) applyColumns(s *session, cols []proto17.ChunkColumn) {
	var evicted [][2]int
	c.mu.Lock()
	for i := range cols {
		col := &cols[i]
		k := [2]int{col.X, col.Z}
		switch {
		case col.Unload:
			delete(s.loaded, k)
		case s.loaded[k]:
		default:
			// The new column may itself be the farthest: then it goes.
			s.loaded[k] = true
			if len(s.loaded) > maxColumns {
				far := s.farthestColumn()
				delete(s.loaded, far)
				evicted = append(evicted, far)
				countName(c.stats.Skipped, "column over limit")
			}
		}
	}
	// A column evicted and loaded again in the same batch stays; the world
	// unloads the others after this batch loads.
	evicted = slices.DeleteFunc(evicted, func(k [2]int) bool { return s.loaded[k] })
	gone := map[[2]int]bool{}
	for _, col := range cols {
		if col.Unload {
			gone[[2]int{col.X, col.Z}] = true
		}
	}
	for _, k := range evicted {
		gone[k] = true
	}
	s.mods.dropColumns(gone)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		s.maybeJoined()
		c.mu.Unlock()
	}()
	c.state.Update(func(tx *world.Tx) {
		for _, col := range cols {
			switch {
			case col.Unload:
				tx.UnloadColumn(col.X, col.Z)
			case col.GroundUp:
				tx.LoadColumn(col.Column)
			default:
				for cy := 0; cy < chunk.ColumnSections; cy++ {
					if col.Mask&(1<<cy) != 0 {
						tx.SetSection(col.X, cy, col.Z, col.Column.Section(cy))
					}
				}
			}
		}
		for _, k := range evicted {
			tx.UnloadColumn(k[0], k[1])
		}
	})
	c.tagOreColumns(s, cols)
	for _, col := range cols {
		c.known(fmt.Sprintf("chunk(%d, %d)", col.X, col.Z))
	}
	c.notify()
}

// farthestColumn is the loaded column farthest from the player (Chebyshev
// distance in chunks; ties broken by coordinates, so the choice does not
// depend on map order); Client.mu is held and s.loaded is not empty.
func (s *session) farthestColumn() [2]int {
	px, pz := ifloor(s.body.x)>>4, ifloor(s.body.z)>>4
	var far [2]int
	best := -1
	for k := range s.loaded {
		d := max(absInt(k[0]-px), absInt(k[1]-pz))
		if d > best || d == best && (k[0] < far[0] || k[0] == far[0] && k[1] < far[1]) {
			far, best = k, d
		}
	}
	return far
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
