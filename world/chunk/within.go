package chunk

import "github.com/gtnh-agent/gtnh-agent/game"

// CountWithin returns how many blocks within radius of center (squared
// distance at most radius²) match: len(Nearest(center, radius, 0, match))
// without building, sorting or resolving the hits. Air never matches, as in
// Nearest.
func (c *Chunks) CountWithin(center game.BlockPos, radius int, match func(game.Block) bool) int {
	if radius < 0 {
		return 0
	}
	radius = min(radius, maxQueryRadius)
	q := queryPool.Get().(*nearestQuery)
	q.reset(c, center, radius, 0, match)
	q.counting = true
	q.collect(radius)
	q.collected = len(q.cands)
	for len(q.cands) > 0 {
		q.scanSection(q.popCand())
	}
	n := q.count
	q.release()
	return n
}

// ChangedWithin calls fn for every position within radius of center (squared
// distance at most radius²) whose state differs between c and other, in no
// particular order; an unloaded column reads as air, as in StateAt. It looks
// only into the sections the two do not share: views of one ChunkStore share
// every section that was not written between them, so comparing a view taken
// before a step with one taken after costs the sections the step changed.
// It returns false, without calling fn, when the two resolve states
// differently (states of one cannot be compared with the other's).
func (c *Chunks) ChangedWithin(other *Chunks, center game.BlockPos, radius int, fn func(game.BlockPos)) bool {
	if c.res != other.res {
		return false
	}
	if radius < 0 {
		return true
	}
	radius = min(radius, maxQueryRadius)
	r2 := radius * radius
	cx0, cx1 := (center.X-radius)>>4, (center.X+radius)>>4
	cz0, cz1 := (center.Z-radius)>>4, (center.Z+radius)>>4
	cy0, cy1 := max((center.Y-radius)>>4, 0), min((center.Y+radius)>>4, ColumnSections-1)
	visit := func(a, b *Column) {
		if a == b {
			return
		}
		col := a
		if col == nil {
			col = b
		}
		ox, oz := col.pos.X<<4, col.pos.Z<<4
		h2 := sq(axisDist(center.X, ox)) + sq(axisDist(center.Z, oz))
		if h2 > r2 {
			return
		}
		for cy := cy0; cy <= cy1; cy++ {
			var sa, sb *Section
			if a != nil {
				sa = a.sections[cy]
			}
			if b != nil {
				sb = b.sections[cy]
			}
			if sa == sb || h2+sq(axisDist(center.Y, cy<<4)) > r2 {
				continue
			}
			diffSection(sa, sb, ox, cy<<4, oz, center, r2, fn)
		}
	}
	if span := (cx1 - cx0 + 1) * (cz1 - cz0 + 1); span > 2*(c.columns+other.columns) {
		// A radius wider than the world: walk the loaded columns instead
		// of the chunk positions.
		in := func(p ChunkPos) bool { return p.X >= cx0 && p.X <= cx1 && p.Z >= cz0 && p.Z <= cz1 }
		c.regions.forEach(func(a *Column) {
			if in(a.pos) {
				visit(a, other.regions.column(a.pos.X, a.pos.Z))
			}
		})
		other.regions.forEach(func(b *Column) {
			if in(b.pos) && c.regions.column(b.pos.X, b.pos.Z) == nil {
				visit(nil, b)
			}
		})
	} else {
		for cx := cx0; cx <= cx1; cx++ {
			for cz := cz0; cz <= cz1; cz++ {
				visit(c.regions.column(cx, cz), other.regions.column(cx, cz))
			}
		}
	}
	return true
}

// diffSection calls fn for the cells of two sections at the same place
// (either may be nil, all air) whose states differ and that lie within the
// squared distance r2 of center.
func diffSection(a, b *Section, ox, oy, oz int, center game.BlockPos, r2 int, fn func(game.BlockPos)) {
	at := func(s *Section, i int) StateID {
		if s == nil {
			return AirState
		}
		return s.at(i)
	}
	for y := 0; y < SectionSize; y++ {
		dy2 := sq(oy + y - center.Y)
		if dy2 > r2 {
			continue
		}
		for z := 0; z < SectionSize; z++ {
			dyz := dy2 + sq(oz+z-center.Z)
			if dyz > r2 {
				continue
			}
			for x := 0; x < SectionSize; x++ {
				if dyz+sq(ox+x-center.X) > r2 {
					continue
				}
				i := y<<8 | z<<4 | x
				if at(a, i) != at(b, i) {
					fn(game.BlockPos{X: ox + x, Y: oy + y, Z: oz + z})
				}
			}
		}
	}
}
