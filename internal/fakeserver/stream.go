package fakeserver

import (
	"slices"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Streamed terrain (Options.Stream): the flat ground of the spawn area,
// crossed every StreamWallEvery blocks along x by a stone wall three blocks
// high with a two-block gap every StreamGapEvery blocks along z, so a long
// walk must find the gaps as the columns arrive.
const (
	// StreamWallEvery is the distance between the walls along x; a wall
	// stands where x mod StreamWallEvery is StreamWallAt.
	StreamWallEvery = 96
	StreamWallAt    = 40
	// StreamGapEvery is the distance between the gaps along z; a gap is
	// where z mod StreamGapEvery is StreamGapAt or StreamGapAt+1.
	StreamGapEvery = 64
	StreamGapAt    = 30
)

// StreamWall reports whether the streamed terrain has wall blocks in
// column (x, z) (outside the area generated at startup).
func StreamWall(x, z int) bool {
	gz := ((z % StreamGapEvery) + StreamGapEvery) % StreamGapEvery
	wx := ((x % StreamWallEvery) + StreamWallEvery) % StreamWallEvery
	return wx == StreamWallAt && gz != StreamGapAt && gz != StreamGapAt+1
}

// streamState is what one player has been sent of a streamed world.
type streamState struct {
	at   chunk.ChunkPos
	sent map[chunk.ChunkPos]bool
}

// streamLocked sends the columns that came into view since the player's
// last column change and unloads the ones left far behind; s.mu is held.
func (c *conn) streamLocked(out *outbox) {
	s := c.s
	if !s.opts.Stream {
		return
	}
	at := chunk.ChunkOf(c.pos.Block())
	if c.stream == nil {
		// The join sent every column the server had.
		c.stream = &streamState{at: at, sent: map[chunk.ChunkPos]bool{}}
		for p := range s.cols {
			c.stream.sent[p] = true
		}
	} else if c.stream.at == at {
		return
	}
	c.stream.at = at
	r := s.opts.ViewRadius
	var fresh []*chunk.Column
	for cx := at.X - r; cx <= at.X+r; cx++ {
		for cz := at.Z - r; cz <= at.Z+r; cz++ {
			p := chunk.ChunkPos{X: cx, Z: cz}
			if c.stream.sent[p] {
				continue
			}
			col := s.cols[p]
			if col == nil {
				col = s.streamColumn(p)
				s.cols[p] = col
			}
			c.stream.sent[p] = true
			fresh = append(fresh, col.Clone())
		}
	}
	slices.SortFunc(fresh, func(a, b *chunk.Column) int {
		da, db := chunkDist(a.Pos(), at), chunkDist(b.Pos(), at)
		if da != db {
			return da - db
		}
		if a.Pos().X != b.Pos().X {
			return a.Pos().X - b.Pos().X
		}
		return a.Pos().Z - b.Pos().Z
	})
	pkts, err := chunkPackets(fresh, s.formats, s.opts.Chunks)
	if err != nil {
		s.logf("conn %d: streaming columns: %v", c.id, err)
		return
	}
	var far []chunk.ChunkPos
	for p := range c.stream.sent {
		if chunkDist(p, at) > r+2 {
			far = append(far, p)
		}
	}
	slices.SortFunc(far, func(a, b chunk.ChunkPos) int {
		if a.X != b.X {
			return a.X - b.X
		}
		return a.Z - b.Z
	})
	enc := proto17.NewChunkEncoder(s.formats)
	for _, p := range far {
		u, err := enc.Unload(int32(p.X), int32(p.Z))
		if err != nil {
			s.logf("conn %d: unloading %v: %v", c.id, p, err)
			continue
		}
		delete(c.stream.sent, p)
		pkts = append(pkts, u)
	}
	var sent outbox
	for _, p := range pkts {
		sent.to(c, StageNone, p)
		// The tiles of a column that comes (back) into view follow it,
		// as at the join.
		for _, m := range s.modPacketsLocked(packetColumns(p)) {
			sent.to(c, StageNone, m)
		}
	}
	if d := s.opts.StreamDelay; d > 0 && len(sent) > 0 {
		c.sendLate(sent, d)
		return
	}
	out.add(sent...)
}

// chunkDist is the Chebyshev distance between two columns.
func chunkDist(a, b chunk.ChunkPos) int {
	return max(abs(a.X-b.X), abs(a.Z-b.Z))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// streamColumn generates a column of the streamed terrain.
func (s *Server) streamColumn(p chunk.ChunkPos) *chunk.Column {
	state := func(name string) chunk.StateID {
		id, _ := s.ids.BlockID(name) // vanilla names are always in the registry
		return chunk.MakeState(id, 0)
	}
	bedrock, stone, dirt, grass := state("minecraft:bedrock"), state("minecraft:stone"), state("minecraft:dirt"), state("minecraft:grass")
	g := s.opts.GroundY
	col := chunk.NewColumn(p.X, p.Z)
	for x := 0; x < 16; x++ {
		for z := 0; z < 16; z++ {
			col.SetState(x, 0, z, bedrock)
			for y := 1; y <= g-4; y++ {
				col.SetState(x, y, z, stone)
			}
			for y := g - 3; y < g; y++ {
				col.SetState(x, y, z, dirt)
			}
			col.SetState(x, g, z, grass)
			if StreamWall(p.X*16+x, p.Z*16+z) {
				for y := g + 1; y <= g+3; y++ {
					col.SetState(x, y, z, stone)
				}
			}
		}
	}
	return col
}
