package chunk

import (
	"encoding/binary"
	"slices"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// Nearest implements BlockSource. It is exact: the result is what a scan of
// every block within radius would return, nearest first with ties broken by
// BlockPos.Less.
//
// It works section by section. Every loaded section within the radius is
// summarised by its palette: match is evaluated once per distinct state for
// the whole query (cached by StateID), and a section none of whose present
// states match is never opened. The remaining sections are visited in order of
// their minimum possible distance from center, and the search stops as soon as
// the next section cannot hold anything nearer than the k-th result found so
// far. Inside a section, rows that cannot beat that bound are skipped too.
func (c *Chunks) Nearest(center game.BlockPos, radius, k int, match func(game.Block) bool) []game.BlockHit {
	if radius < 0 {
		return nil
	}
	radius = min(radius, maxQueryRadius)
	q := queryPool.Get().(*nearestQuery)
	q.reset(c, center, radius, k, match)
	q.collect(radius)
	q.collected = len(q.cands)
	for len(q.cands) > 0 {
		cand := q.popCand()
		if cand.d2 > q.bound {
			break
		}
		q.scanSection(cand)
	}
	hits := q.results()
	q.release()
	return hits
}

// maxQueryRadius caps the radius so that squared distances cannot overflow;
// it is far beyond any loaded world.
const maxQueryRadius = 1 << 24

var queryPool = sync.Pool{New: func() any { return &nearestQuery{cache: newStateCache()} }}

// sectionCand is a section that may hold a match, keyed by the squared
// distance from the query centre to the nearest point of its box.
type sectionCand struct {
	d2         int
	sec        *Section
	ox, oy, oz int // world coordinates of the section's lowest corner
}

type rawHit struct {
	d   int
	pos game.BlockPos
	st  StateID
}

type nearestQuery struct {
	chunks     *Chunks
	cx, cy, cz int
	r2         int
	k          int
	match      func(game.Block) bool
	bound      int // squared distance a block must not exceed to enter the results
	cands      []sectionCand
	hits       []rawHit // max-heap on (d, pos) while k > 0, so hits[0] is the worst kept
	want       []bool   // per palette index of the section being scanned
	pats       [maxPatterns]uint64
	npat       int // patterns in use; 0 = test every block of a row
	collected  int // candidates gathered, to clear their section pointers on release
	cache      *stateCache
	counting   bool // CountWithin: add counts a hit instead of keeping it
	count      int
}

// maxPatterns is how many wanted palette indices a row is tested against
// word-wise before falling back to a block-by-block test.
const maxPatterns = 4

// Word-wise "does this row hold index v" tests: every nibble (4-bit rows) or
// byte (8-bit rows) is XORed with v and checked for zero in parallel.
const (
	nibbleOnes  = 0x1111111111111111
	nibbleHighs = 0x8888888888888888
	byteOnes    = 0x0101010101010101
	byteHighs   = 0x8080808080808080
)

func hasZeroNibble(x uint64) bool { return (x-nibbleOnes)&^x&nibbleHighs != 0 }

func hasZeroByte(x uint64) bool { return (x-byteOnes)&^x&byteHighs != 0 }

// rowMayMatch reports whether a packed row can hold a wanted index; it never
// answers false for a row that does.
func (q *nearestQuery) rowMayMatch(sec *Section, base int) bool {
	switch sec.bits {
	case 4:
		w := binary.LittleEndian.Uint64(sec.data[base>>1:])
		for _, p := range q.pats[:q.npat] {
			if hasZeroNibble(w ^ p) {
				return true
			}
		}
		return false
	case 8:
		lo := binary.LittleEndian.Uint64(sec.data[base:])
		hi := binary.LittleEndian.Uint64(sec.data[base+8:])
		for _, p := range q.pats[:q.npat] {
			if hasZeroByte(lo^p) || hasZeroByte(hi^p) {
				return true
			}
		}
		return false
	}
	return true
}

func (q *nearestQuery) reset(c *Chunks, center game.BlockPos, radius, k int, match func(game.Block) bool) {
	q.chunks = c
	q.cx, q.cy, q.cz = center.X, center.Y, center.Z
	q.r2 = radius * radius
	q.bound = q.r2
	q.k = k
	q.match = match
	q.cands = q.cands[:0]
	q.hits = q.hits[:0]
	q.cache.reset()
	q.counting, q.count = false, 0
}

func (q *nearestQuery) release() {
	q.chunks, q.match = nil, nil
	// Pooled queries must not keep old snapshots' sections alive.
	clear(q.cands[:q.collected])
	if cap(q.hits) > 4096 {
		q.hits = nil
	}
	if cap(q.cands) > 1<<14 {
		q.cands = nil
	}
	queryPool.Put(q)
}

// axisDist is the distance along one axis from v to the span [lo, lo+15].
func axisDist(v, lo int) int {
	switch {
	case v < lo:
		return lo - v
	case v > lo+15:
		return v - lo - 15
	}
	return 0
}

// collect gathers the loaded sections within the radius whose palette holds a
// matching state, as a min-heap on distance. It walks the chunk positions the
// radius covers, or the loaded columns when those are fewer.
func (q *nearestQuery) collect(radius int) {
	cx0, cx1 := (q.cx-radius)>>4, (q.cx+radius)>>4
	cz0, cz1 := (q.cz-radius)>>4, (q.cz+radius)>>4
	cy0, cy1 := max((q.cy-radius)>>4, 0), min((q.cy+radius)>>4, ColumnSections-1)
	if cy0 > cy1 {
		return
	}
	if span := (cx1 - cx0 + 1) * (cz1 - cz0 + 1); span > 2*q.chunks.columns {
		q.chunks.regions.forEach(func(col *Column) {
			if p := col.pos; p.X >= cx0 && p.X <= cx1 && p.Z >= cz0 && p.Z <= cz1 {
				q.addColumn(col, cy0, cy1)
			}
		})
	} else {
		var (
			lastKey uint64
			lastReg *region
			haveReg bool
		)
		for cx := cx0; cx <= cx1; cx++ {
			for cz := cz0; cz <= cz1; cz++ {
				key := regionKey(cx, cz)
				if !haveReg || key != lastKey {
					lastKey, lastReg, haveReg = key, q.chunks.regions[key], true
				}
				if lastReg == nil {
					continue
				}
				if col := lastReg.cols[regionSlot(cx, cz)]; col != nil {
					q.addColumn(col, cy0, cy1)
				}
			}
		}
	}
	for i := len(q.cands)/2 - 1; i >= 0; i-- {
		q.siftCand(i)
	}
}

func (q *nearestQuery) addColumn(col *Column, cy0, cy1 int) {
	ox, oz := col.pos.X<<4, col.pos.Z<<4
	h2 := sq(axisDist(q.cx, ox)) + sq(axisDist(q.cz, oz))
	if h2 > q.r2 {
		return
	}
	for cy := cy0; cy <= cy1; cy++ {
		sec := col.sections[cy]
		if sec == nil {
			continue
		}
		// The scan reads palette indices; a raw section answers with its
		// palette form (built once, then cached).
		sec = sec.packed()
		d2 := h2 + sq(axisDist(q.cy, cy<<4))
		if d2 > q.r2 || !q.anyMatch(sec) {
			continue
		}
		q.cands = append(q.cands, sectionCand{d2: d2, sec: sec, ox: ox, oy: cy << 4, oz: oz})
	}
}

func (q *nearestQuery) siftCand(i int) {
	h := q.cands
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].d2 < h[l].d2 {
			m = r
		}
		if h[i].d2 <= h[m].d2 {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (q *nearestQuery) popCand() sectionCand {
	top := q.cands[0]
	last := len(q.cands) - 1
	q.cands[0] = q.cands[last]
	q.cands = q.cands[:last]
	q.siftCand(0)
	return top
}

// matches evaluates match for a state once per query.
func (q *nearestQuery) matches(st StateID) bool {
	if st == AirState {
		return false
	}
	if v, ok := q.cache.get(st); ok {
		return v
	}
	v := true
	if q.match != nil {
		v = q.match(q.chunks.res.Block(st))
	}
	q.cache.put(st, v)
	return v
}

// anyMatch reports whether a state present in the section matches.
func (q *nearestQuery) anyMatch(sec *Section) bool {
	for j, st := range sec.palette {
		if sec.counts[j] > 0 && q.matches(st) {
			return true
		}
	}
	return false
}

// fillWant marks the matching palette entries of a section and, when few
// entries match, prepares the word-wise row patterns.
func (q *nearestQuery) fillWant(sec *Section) []bool {
	n := len(sec.palette)
	if cap(q.want) < n {
		q.want = make([]bool, n, max(n, 256))
	}
	w := q.want[:n]
	q.npat = 0
	wanted := 0
	for j, st := range sec.palette {
		w[j] = sec.counts[j] > 0 && q.matches(st)
		if !w[j] {
			continue
		}
		wanted++
		if wanted <= maxPatterns {
			switch sec.bits {
			case 4:
				q.pats[wanted-1] = uint64(j) * nibbleOnes
			case 8:
				q.pats[wanted-1] = uint64(j) * byteOnes
			}
		}
	}
	if wanted <= maxPatterns && (sec.bits == 4 || sec.bits == 8) {
		q.npat = wanted
	}
	return w
}

func clamp15(v int) int { return min(max(v, 0), 15) }

// scanSection visits the rows of a section outward from the row nearest the
// centre, stopping in each direction once rows can no longer beat the bound.
func (q *nearestQuery) scanSection(c sectionCand) {
	want := q.fillWant(c.sec)
	dx := axisDist(q.cx, c.ox)
	minX2 := dx * dx
	ly := clamp15(q.cy - c.oy)
	lz := clamp15(q.cz - c.oz)
	for y := ly; y >= 0; y-- {
		if !q.scanLayer(c, want, y, lz, minX2) {
			break
		}
	}
	for y := ly + 1; y < SectionSize; y++ {
		if !q.scanLayer(c, want, y, lz, minX2) {
			break
		}
	}
}

func (q *nearestQuery) scanLayer(c sectionCand, want []bool, y, lz, minX2 int) bool {
	dy := c.oy + y - q.cy
	dy2 := dy * dy
	if dy2+minX2+sq(axisDist(q.cz, c.oz)) > q.bound {
		return false
	}
	// The common case, one wanted state in a 4-bit section, tests each row
	// with one word operation before any block is looked at.
	single4 := c.sec.bits == 4 && q.npat == 1
	pat := q.pats[0]
	for z := lz; z >= 0; z-- {
		dz := c.oz + z - q.cz
		dyz := dy2 + dz*dz
		if dyz+minX2 > q.bound {
			break
		}
		if single4 && !hasZeroNibble(binary.LittleEndian.Uint64(c.sec.data[(y<<8|z<<4)>>1:])^pat) {
			continue
		}
		q.scanRow(c, want, y, z, dyz)
	}
	for z := lz + 1; z < SectionSize; z++ {
		dz := c.oz + z - q.cz
		dyz := dy2 + dz*dz
		if dyz+minX2 > q.bound {
			break
		}
		if single4 && !hasZeroNibble(binary.LittleEndian.Uint64(c.sec.data[(y<<8|z<<4)>>1:])^pat) {
			continue
		}
		q.scanRow(c, want, y, z, dyz)
	}
	return true
}

func sq(v int) int { return v * v }

// scanRow tests the 16 blocks of one x-row against the palette marks.
func (q *nearestQuery) scanRow(c sectionCand, want []bool, y, z, dyz int) {
	sec := c.sec
	base := y<<8 | z<<4
	if q.npat > 0 && !q.rowMayMatch(sec, base) {
		return
	}
	wy, wz := c.oy+y, c.oz+z
	x0 := c.ox - q.cx // dx of x = 0
	switch sec.bits {
	case 0:
		for x := 0; x < SectionSize; x++ {
			if d := dyz + sq(x0+x); d <= q.bound {
				q.add(d, game.BlockPos{X: c.ox + x, Y: wy, Z: wz}, sec.palette[0])
			}
		}
	case 4:
		row := sec.data[base>>1 : base>>1+8]
		for i, b := range row {
			if lo := b & 15; want[lo] {
				x := 2 * i
				if d := dyz + sq(x0+x); d <= q.bound {
					q.add(d, game.BlockPos{X: c.ox + x, Y: wy, Z: wz}, sec.palette[lo])
				}
			}
			if hi := b >> 4; want[hi] {
				x := 2*i + 1
				if d := dyz + sq(x0+x); d <= q.bound {
					q.add(d, game.BlockPos{X: c.ox + x, Y: wy, Z: wz}, sec.palette[hi])
				}
			}
		}
	case 8:
		row := sec.data[base : base+16]
		for x, v := range row {
			if want[v] {
				if d := dyz + sq(x0+x); d <= q.bound {
					q.add(d, game.BlockPos{X: c.ox + x, Y: wy, Z: wz}, sec.palette[v])
				}
			}
		}
	case 16:
		row := sec.wide[base : base+16]
		for x, v := range row {
			if want[v] {
				if d := dyz + sq(x0+x); d <= q.bound {
					q.add(d, game.BlockPos{X: c.ox + x, Y: wy, Z: wz}, sec.palette[v])
				}
			}
		}
	}
}

// worse reports whether a ranks after b: farther, or as far and later in
// BlockPos order.
func worse(a, b rawHit) bool {
	if a.d != b.d {
		return a.d > b.d
	}
	return b.pos.Less(a.pos)
}

// cmpHits orders hits nearest first, then by BlockPos.Less (Y, Z, X).
func cmpHits(a, b rawHit) int {
	switch {
	case a.d != b.d:
		return cmpInt(a.d, b.d)
	case a.pos.Y != b.pos.Y:
		return cmpInt(a.pos.Y, b.pos.Y)
	case a.pos.Z != b.pos.Z:
		return cmpInt(a.pos.Z, b.pos.Z)
	}
	return cmpInt(a.pos.X, b.pos.X)
}

func cmpInt(a, b int) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// add offers a block within the bound to the results.
func (q *nearestQuery) add(d int, p game.BlockPos, st StateID) {
	if q.counting {
		q.count++
		return
	}
	h := rawHit{d: d, pos: p, st: st}
	if q.k <= 0 {
		q.hits = append(q.hits, h)
		return
	}
	if len(q.hits) < q.k {
		q.hits = append(q.hits, h)
		// Sift up.
		i := len(q.hits) - 1
		for i > 0 {
			parent := (i - 1) / 2
			if !worse(q.hits[i], q.hits[parent]) {
				break
			}
			q.hits[i], q.hits[parent] = q.hits[parent], q.hits[i]
			i = parent
		}
		if len(q.hits) == q.k {
			q.bound = q.hits[0].d
		}
		return
	}
	if !worse(q.hits[0], h) {
		return
	}
	q.hits[0] = h
	siftDown(q.hits, 0)
	q.bound = q.hits[0].d
}

// siftDown restores the max-heap order (worst hit first) below i.
func siftDown(hs []rawHit, i int) {
	for {
		l := 2*i + 1
		if l >= len(hs) {
			return
		}
		m := l
		if r := l + 1; r < len(hs) && worse(hs[r], hs[l]) {
			m = r
		}
		if !worse(hs[m], hs[i]) {
			return
		}
		hs[i], hs[m] = hs[m], hs[i]
		i = m
	}
}

// results sorts the kept hits and resolves their blocks.
func (q *nearestQuery) results() []game.BlockHit {
	if len(q.hits) == 0 {
		return nil
	}
	if q.k > 0 {
		// The kept hits already form a max-heap: finish a heapsort.
		for end := len(q.hits) - 1; end > 0; end-- {
			q.hits[0], q.hits[end] = q.hits[end], q.hits[0]
			siftDown(q.hits[:end], 0)
		}
	} else {
		slices.SortFunc(q.hits, cmpHits)
	}
	out := make([]game.BlockHit, len(q.hits))
	for i, h := range q.hits {
		out[i] = game.BlockHit{Pos: h.pos, Block: q.chunks.res.Block(h.st), DistSq: h.d}
	}
	return out
}

// stateCache is a small open-addressing map from non-air states to the
// query's verdict, cheaper per lookup than a Go map on the hot path.
type stateCache struct {
	keys []StateID // AirState marks an empty slot
	vals []bool
	n    int
	mask uint32
}

func newStateCache() *stateCache {
	c := &stateCache{}
	c.init(64)
	return c
}

func (c *stateCache) init(size int) {
	c.keys = make([]StateID, size)
	c.vals = make([]bool, size)
	c.mask = uint32(size - 1)
	c.n = 0
}

func (c *stateCache) reset() {
	if len(c.keys) > 1024 {
		c.init(64)
		return
	}
	clear(c.keys)
	c.n = 0
}

func (c *stateCache) slot(s StateID) uint32 { return (uint32(s) * 0x9E3779B1) >> 7 & c.mask }

func (c *stateCache) get(s StateID) (bool, bool) {
	for i := c.slot(s); ; i = (i + 1) & c.mask {
		switch c.keys[i] {
		case s:
			return c.vals[i], true
		case AirState:
			return false, false
		}
	}
}

func (c *stateCache) put(s StateID, v bool) {
	if 2*(c.n+1) > len(c.keys) {
		oldK, oldV := c.keys, c.vals
		c.init(2 * len(oldK))
		for i, k := range oldK {
			if k != AirState {
				c.put(k, oldV[i])
			}
		}
	}
	i := c.slot(s)
	for c.keys[i] != AirState && c.keys[i] != s {
		i = (i + 1) & c.mask
	}
	if c.keys[i] == AirState {
		c.n++
	}
	c.keys[i], c.vals[i] = s, v
}
