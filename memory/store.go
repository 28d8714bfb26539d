// Package memory keeps what the bot learned of a world after the process
// ends: where it saw ores, trees, water and machines, what the machines and
// chests it looked into held, named waypoints, where it died and why, and
// which chunk columns it explored.
//
// One file holds many worlds, each a [Place]: a server and a dimension.
// Every kind of record has a bound ([Options]); sightings, the one record
// that grows as the bot walks, forget their oldest first. Each write is one
// bbolt transaction (copy-on-write pages, an fsync before the commit is
// visible), so a process killed in the middle of a write leaves the file as
// the last committed write left it.
//
// The file is read as untrusted bytes: a record of the wrong size or shape
// is an error naming the place and the record, never a crash.
package memory

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// Format is the version of the file's layout this package writes.
const Format = 1

// Place is one world: a server (host:port live, "sim/SCENARIO/SEED" in the
// simulator) and a dimension.
type Place struct {
	Server    string `json:"server"`
	Dimension string `json:"dimension"`
}

func (p Place) String() string { return p.Server + " " + p.Dimension }

func (p Place) key() []byte { return []byte(p.Server + "\x00" + p.Dimension) }

func placeOf(k []byte) Place {
	s, d, _ := bytes.Cut(k, []byte{0})
	return Place{Server: string(s), Dimension: string(d)}
}

// Options bound what a file holds. Zero fields take the defaults.
type Options struct {
	// MaxPlaces is the number of worlds one file keeps (default 64).
	MaxPlaces int
	// MaxSightings is the number of remembered blocks per world (default
	// 50,000; about 5 MB); past it the oldest sighting is forgotten.
	MaxSightings int
	// MaxContainers is the number of machines and chests whose contents a
	// world keeps (default 2,000); past it the oldest is forgotten.
	MaxContainers int
	// MaxWaypoints is the number of named waypoints per world (default 500);
	// past it a new name is refused.
	MaxWaypoints int
	// MaxDeaths is the number of deaths kept per world (default 100); past it
	// the oldest is forgotten.
	MaxDeaths int
	// MaxShelters is the number of shelters kept per world (default 100);
	// past it the oldest is forgotten.
	MaxShelters int
	// MaxExplored is the number of explored chunk columns per world (default
	// 100,000); past it no new column is recorded.
	MaxExplored int
	// LockWait is how long Open waits for another process that holds the
	// file (default 1 s).
	LockWait time.Duration
	// Now stamps records with the wall time a user reads ("seen 2 h ago");
	// default time.Now. No decision depends on it.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxPlaces, 64)
	def(&o.MaxSightings, 50_000)
	def(&o.MaxContainers, 2_000)
	def(&o.MaxWaypoints, 500)
	def(&o.MaxDeaths, 100)
	def(&o.MaxShelters, 100)
	def(&o.MaxExplored, 100_000)
	if o.LockWait <= 0 {
		o.LockWait = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Store is an open memory file. Its methods are safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string
	o    Options
}

// Bucket names. The root holds "format" and "places"; each place's bucket
// holds one bucket per kind of record.
var (
	bFormat     = []byte("format")
	bPlaces     = []byte("places")
	bSightings  = []byte("sightings") // block id → bucket: pos → sighting
	bOrder      = []byte("order")     // seq → block id + pos, oldest first
	bContainers = []byte("containers")
	bWaypoints  = []byte("waypoints")
	bDeaths     = []byte("deaths")
	bShelters   = []byte("shelters") // pos → shelter
	bExplored   = []byte("explored")
	bCounts     = []byte("counts") // "sightings", "explored" → uint64
)

// Open opens or creates the memory file at path.
func Open(path string, o Options) (*Store, error) {
	o = o.withDefaults()
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("memory: %w", err)
		}
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.LockWait})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("memory: %s is in use by another agent process (waited %s)", path, o.LockWait)
		}
		return nil, fmt.Errorf("memory: opening %s: %w", path, err)
	}
	s := &Store{db: db, path: path, o: o}
	err = db.Update(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bFormat); v != nil {
			f := v.Get(bFormat)
			if len(f) != 8 || binary.BigEndian.Uint64(f) != Format {
				return fmt.Errorf("memory: %s has layout %x, this agent reads layout %d", path, f, Format)
			}
		} else {
			b, err := tx.CreateBucket(bFormat)
			if err != nil {
				return err
			}
			if err := b.Put(bFormat, u64(Format)); err != nil {
				return err
			}
		}
		_, err := tx.CreateBucketIfNotExists(bPlaces)
		return err
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Path is the file's path.
func (s *Store) Path() string { return s.path }

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Check reads every page of the file and returns what is inconsistent
// (bbolt's own check), or nil.
func (s *Store) Check() error {
	return s.db.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
}

// A Sighting is a block the bot saw and may want again: an ore, a log, a
// water source.
type Sighting struct {
	Block string        `json:"block"`
	Meta  int           `json:"meta"`
	Pos   game.BlockPos `json:"pos"`
	// Tick is the game tick it was first seen; Seen the wall time.
	Tick int64     `json:"tick"`
	Seen time.Time `json:"seen"`
	seq  uint64
}

// Item is one stack of a remembered container.
type Item struct {
	ID    string `json:"id"`
	Meta  int    `json:"meta,omitempty"`
	Count int    `json:"count"`
}

// A Container is a machine or chest and what it held when the bot last
// looked (Items is empty when its contents were not known).
type Container struct {
	Kind  string        `json:"kind"`
	Pos   game.BlockPos `json:"pos"`
	Items []Item        `json:"items,omitempty"`
	Tick  int64         `json:"tick"`
	Seen  time.Time     `json:"seen"`
}

// A Waypoint is a named position ("base").
type Waypoint struct {
	Name string        `json:"name"`
	Pos  game.BlockPos `json:"pos"`
	Note string        `json:"note,omitempty"`
	Set  time.Time     `json:"set"`
}

// A Death is where and why the bot died.
type Death struct {
	Pos   game.BlockPos `json:"pos"`
	Cause string        `json:"cause"`
	Tick  int64         `json:"tick"`
	// Items is how many items the bot held (they fell where it died).
	Items int `json:"items,omitempty"`
	// WorldAge is the server's world age at the death (0: not known), to
	// tell after a restart how long the items have been lying there.
	WorldAge int64     `json:"world_age,omitempty"`
	When     time.Time `json:"when"`
}

// A Shelter is a place where the bot was walled in (a pit with a roof it
// dug for the night).
type Shelter struct {
	Pos  game.BlockPos `json:"pos"`
	Tick int64         `json:"tick"`
	// Seq orders the shelters as they were found (the oldest goes first
	// past the bound).
	Seq  uint64    `json:"seq"`
	When time.Time `json:"when"`
}

// Limits on what one record may hold, so a record read back is bounded too.
const (
	maxName      = 256 // block ids, kinds, waypoint names, causes
	maxItems     = 128 // stacks of one container
	maxJSONValue = 32 << 10
	sightingSize = 4 + 8 + 8 + 8 // meta, tick, seen (unix ns), seq
)

func u64(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

// posKey orders positions by x, y, z with negative numbers first.
func posKey(p game.BlockPos) []byte {
	b := make([]byte, 12)
	binary.BigEndian.PutUint32(b[0:], uint32(int32(p.X))^1<<31)
	binary.BigEndian.PutUint32(b[4:], uint32(int32(p.Y))^1<<31)
	binary.BigEndian.PutUint32(b[8:], uint32(int32(p.Z))^1<<31)
	return b
}

func keyPos(b []byte) (game.BlockPos, error) {
	if len(b) != 12 {
		return game.BlockPos{}, fmt.Errorf("a position key of %d bytes (12 expected)", len(b))
	}
	c := func(i int) int { return int(int32(binary.BigEndian.Uint32(b[i:]) ^ 1<<31)) }
	return game.Pos(c(0), c(4), c(8)), nil
}

func chunkKey(x, z int) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint32(b[0:], uint32(int32(x))^1<<31)
	binary.BigEndian.PutUint32(b[4:], uint32(int32(z))^1<<31)
	return b
}

func encodeSighting(s Sighting) []byte {
	b := make([]byte, sightingSize)
	binary.BigEndian.PutUint32(b[0:], uint32(int32(s.Meta)))
	binary.BigEndian.PutUint64(b[4:], uint64(s.Tick))
	binary.BigEndian.PutUint64(b[12:], uint64(s.Seen.UnixNano()))
	binary.BigEndian.PutUint64(b[20:], s.seq)
	return b
}

// decodeSighting reads a sighting stored under block id and position key k.
func decodeSighting(id string, k, v []byte) (Sighting, error) {
	pos, err := keyPos(k)
	if err != nil {
		return Sighting{}, err
	}
	if len(v) != sightingSize {
		return Sighting{}, fmt.Errorf("a sighting of %d bytes (%d expected)", len(v), sightingSize)
	}
	meta := int(int32(binary.BigEndian.Uint32(v[0:])))
	if meta < 0 || meta > 32767 {
		return Sighting{}, fmt.Errorf("a sighting with metadata %d", meta)
	}
	return Sighting{Block: id, Meta: meta, Pos: pos, Tick: int64(binary.BigEndian.Uint64(v[4:])),
		Seen: time.Unix(0, int64(binary.BigEndian.Uint64(v[12:]))).UTC(), seq: binary.BigEndian.Uint64(v[20:])}, nil
}

// decodeJSON reads a JSON record, refusing one larger than the bound.
func decodeJSON(what string, v []byte, dst any) error {
	if len(v) > maxJSONValue {
		return fmt.Errorf("a %s record of %d bytes (at most %d)", what, len(v), maxJSONValue)
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return fmt.Errorf("a %s record: %w", what, err)
	}
	return nil
}

// corrupt names the place and the record that could not be read.
func corrupt(p Place, err error) error {
	return fmt.Errorf("memory: %s: %w (agent memory forget can drop this world)", p, err)
}

// place returns the place's bucket, creating it (and its kinds) when create
// is set; nil when it does not exist.
func (s *Store) place(tx *bolt.Tx, p Place, create bool) (*bolt.Bucket, error) {
	root := tx.Bucket(bPlaces)
	if root == nil {
		return nil, errors.New("memory: the file has no places bucket")
	}
	if b := root.Bucket(p.key()); b != nil || !create {
		return b, nil
	}
	if p.Server == "" || p.Dimension == "" || len(p.Server)+len(p.Dimension) > maxName {
		return nil, fmt.Errorf("memory: a place needs a server and a dimension of at most %d bytes, not %q", maxName, p.String())
	}
	if n := keyCount(root); n >= s.o.MaxPlaces {
		return nil, fmt.Errorf("memory: %s already holds %d worlds (the bound); forget one with agent memory forget", s.path, n)
	}
	b, err := root.CreateBucket(p.key())
	if err != nil {
		return nil, err
	}
	for _, k := range [][]byte{bSightings, bOrder, bContainers, bWaypoints, bDeaths, bShelters, bExplored, bCounts} {
		if _, err := b.CreateBucket(k); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// kind returns one of a place's buckets or an error naming it.
func kind(pb *bolt.Bucket, p Place, name []byte) (*bolt.Bucket, error) {
	if b := pb.Bucket(name); b != nil {
		return b, nil
	}
	return nil, corrupt(p, fmt.Errorf("no %s bucket", name))
}

// keyCount counts a bucket's keys (nested buckets included) with a cursor:
// bbolt's Stats does not see a write transaction's own deletes. The buckets
// counted this way are small (their bounds are in the hundreds or
// thousands).
func keyCount(b *bolt.Bucket) int {
	n := 0
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n
}

func count(pb *bolt.Bucket, name []byte) uint64 {
	c := pb.Bucket(bCounts)
	if c == nil {
		return 0
	}
	v := c.Get(name)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func setCount(pb *bolt.Bucket, name []byte, n uint64) error {
	c := pb.Bucket(bCounts)
	if c == nil {
		return errors.New("no counts bucket")
	}
	return c.Put(name, u64(n))
}

// Places lists the worlds the file remembers, with how much of each.
func (s *Store) Places() ([]Summary, error) {
	var out []Summary
	err := s.db.View(func(tx *bolt.Tx) error {
		root := tx.Bucket(bPlaces)
		if root == nil {
			return nil
		}
		return root.ForEachBucket(func(k []byte) error {
			p := placeOf(k)
			pb := root.Bucket(k)
			sum := Summary{Place: p, Sightings: int(count(pb, bSightings)), Explored: int(count(pb, bExplored))}
			for _, c := range []struct {
				name []byte
				n    *int
			}{{bContainers, &sum.Containers}, {bWaypoints, &sum.Waypoints}, {bDeaths, &sum.Deaths}, {bShelters, &sum.Shelters}} {
				if b := pb.Bucket(c.name); b != nil {
					*c.n = keyCount(b)
				}
			}
			out = append(out, sum)
			return nil
		})
	})
	return out, err
}

// Summary counts what the file remembers of one world.
type Summary struct {
	Place      Place `json:"place"`
	Sightings  int   `json:"sightings"`
	Containers int   `json:"containers"`
	Waypoints  int   `json:"waypoints"`
	Deaths     int   `json:"deaths"`
	Shelters   int   `json:"shelters"`
	Explored   int   `json:"explored_chunks"`
}

// Observation is what one look at the world adds to and takes from memory.
type Observation struct {
	Tick int64
	// Seen are the blocks to remember.
	Seen []Sighting
	// View, when set, is the part of the world the look covered: a
	// remembered block inside it that is no longer there is forgotten.
	View *View
	// Containers are machines and chests with what they hold.
	Containers []Container
	// Chunks are the chunk columns (x, z) the look explored.
	Chunks [][2]int
}

// View is a ball of the world that a look saw in full.
type View struct {
	Center game.BlockPos
	Radius int
	// Holds reports whether the block at a position is still the given
	// block id and metadata.
	Holds func(pos game.BlockPos, id string, meta int) bool
}

// Changes counts what a Record changed.
type Changes struct {
	Added, Forgotten, Evicted int
}

// Record merges one observation into a world's memory. A look that changes
// nothing writes nothing.
func (s *Store) Record(p Place, o Observation) (Changes, error) {
	var ch Changes
	if s.unchanged(p, o) {
		return ch, nil
	}
	now := s.o.Now()
	err := s.db.Update(func(tx *bolt.Tx) error {
		ch = Changes{}
		pb, err := s.place(tx, p, true)
		if err != nil {
			return err
		}
		sb, err := kind(pb, p, bSightings)
		if err != nil {
			return err
		}
		ob, err := kind(pb, p, bOrder)
		if err != nil {
			return err
		}
		n := count(pb, bSightings)
		if o.View != nil {
			gone, err := s.stale(p, sb, o.View)
			if err != nil {
				return err
			}
			for _, g := range gone {
				if err := forgetSighting(sb, ob, g); err != nil {
					return corrupt(p, err)
				}
				n--
				ch.Forgotten++
			}
		}
		for _, sg := range o.Seen {
			if sg.Block == "" || len(sg.Block) > maxName {
				return fmt.Errorf("memory: a sighting needs a block id of at most %d bytes, not %q", maxName, sg.Block)
			}
			ib, err := sb.CreateBucketIfNotExists([]byte(sg.Block))
			if err != nil {
				return err
			}
			k := posKey(sg.Pos)
			if old := ib.Get(k); old != nil {
				prev, err := decodeSighting(sg.Block, k, old)
				if err != nil {
					return corrupt(p, err)
				}
				if prev.Meta == sg.Meta {
					continue
				}
				prev.Meta = sg.Meta
				if err := ib.Put(k, encodeSighting(prev)); err != nil {
					return err
				}
				continue
			}
			seq, err := ob.NextSequence()
			if err != nil {
				return err
			}
			sg.seq, sg.Tick = seq, o.Tick
			if sg.Seen.IsZero() {
				sg.Seen = now
			}
			if err := ib.Put(k, encodeSighting(sg)); err != nil {
				return err
			}
			if err := ob.Put(u64(seq), append([]byte(sg.Block+"\x00"), k...)); err != nil {
				return err
			}
			n++
			ch.Added++
			for n > uint64(s.o.MaxSightings) {
				if err := evictOldest(sb, ob); err != nil {
					return corrupt(p, err)
				}
				n--
				ch.Evicted++
			}
		}
		if err := setCount(pb, bSightings, n); err != nil {
			return err
		}
		if err := s.putContainers(pb, p, o, now); err != nil {
			return err
		}
		return s.putChunks(pb, p, o)
	})
	return ch, err
}

// unchanged reports, from a read, that a Record would write nothing: every
// sighting is known with its metadata, no remembered block in the view is
// gone, every chunk is known and no container is given.
func (s *Store) unchanged(p Place, o Observation) bool {
	same := true
	_ = s.db.View(func(tx *bolt.Tx) error {
		pb, err := s.place(tx, p, false)
		if err != nil || pb == nil {
			same = false
			return nil
		}
		sb, eb := pb.Bucket(bSightings), pb.Bucket(bExplored)
		if sb == nil || eb == nil {
			same = false
			return nil
		}
		for _, sg := range o.Seen {
			ib := sb.Bucket([]byte(sg.Block))
			if ib == nil {
				same = false
				return nil
			}
			v := ib.Get(posKey(sg.Pos))
			if len(v) != sightingSize || int(int32(binary.BigEndian.Uint32(v))) != sg.Meta {
				same = false
				return nil
			}
		}
		for _, c := range o.Chunks {
			if eb.Get(chunkKey(c[0], c[1])) == nil && count(pb, bExplored) < uint64(s.o.MaxExplored) {
				same = false
				return nil
			}
		}
		if cb := pb.Bucket(bContainers); len(o.Containers) > 0 {
			for _, c := range o.Containers {
				if cb == nil || !sameContainer(cb.Get(posKey(c.Pos)), c) {
					same = false
					return nil
				}
			}
		}
		if o.View != nil {
			if gone, err := s.stale(p, sb, o.View); err != nil || len(gone) > 0 {
				same = false
			}
		}
		return nil
	})
	return same
}

// sameContainer reports whether a stored container record holds the same
// kind and items as c.
func sameContainer(v []byte, c Container) bool {
	if v == nil {
		return false
	}
	var old Container
	if decodeJSON("container", v, &old) != nil || old.Kind != c.Kind || len(old.Items) != len(c.Items) {
		return false
	}
	for i := range c.Items {
		if old.Items[i] != c.Items[i] {
			return false
		}
	}
	return true
}

// stale lists the remembered blocks inside the view that are gone.
func (s *Store) stale(p Place, sb *bolt.Bucket, v *View) ([]Sighting, error) {
	var gone []Sighting
	r2 := v.Radius * v.Radius
	err := sb.ForEachBucket(func(id []byte) error {
		ib := sb.Bucket(id)
		lo, hi := posKey(v.Center.Add(-v.Radius, 0, 0)), posKey(v.Center.Add(v.Radius, 0, 0))
		hi = append(hi[:4], 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
		lo = append(lo[:4], 0, 0, 0, 0, 0, 0, 0, 0)
		c := ib.Cursor()
		for k, val := c.Seek(lo); k != nil && bytes.Compare(k, hi) <= 0; k, val = c.Next() {
			sg, err := decodeSighting(string(id), k, val)
			if err != nil {
				return corrupt(p, err)
			}
			if sg.Pos.DistSq(v.Center) > r2 {
				continue
			}
			if !v.Holds(sg.Pos, sg.Block, sg.Meta) {
				gone = append(gone, sg)
			}
		}
		return nil
	})
	return gone, err
}

func forgetSighting(sb, ob *bolt.Bucket, sg Sighting) error {
	ib := sb.Bucket([]byte(sg.Block))
	if ib == nil {
		return fmt.Errorf("no bucket for %s", sg.Block)
	}
	if err := ib.Delete(posKey(sg.Pos)); err != nil {
		return err
	}
	return ob.Delete(u64(sg.seq))
}

// evictOldest forgets the sighting first in the order bucket.
func evictOldest(sb, ob *bolt.Bucket) error {
	k, v := ob.Cursor().First()
	if k == nil {
		return errors.New("the sightings count says more than the order holds")
	}
	id, pk, ok := bytes.Cut(v, []byte{0})
	if !ok || len(pk) != 12 {
		return fmt.Errorf("an order record of %d bytes", len(v))
	}
	if ib := sb.Bucket(id); ib != nil {
		if err := ib.Delete(pk); err != nil {
			return err
		}
	}
	return ob.Delete(k)
}

func (s *Store) putContainers(pb *bolt.Bucket, p Place, o Observation, now time.Time) error {
	if len(o.Containers) == 0 {
		return nil
	}
	cb, err := kind(pb, p, bContainers)
	if err != nil {
		return err
	}
	for _, c := range o.Containers {
		if c.Kind == "" || len(c.Kind) > maxName {
			return fmt.Errorf("memory: a container needs a kind of at most %d bytes, not %q", maxName, c.Kind)
		}
		if len(c.Items) > maxItems {
			c.Items = c.Items[:maxItems]
		}
		c.Tick, c.Seen = o.Tick, now
		k := posKey(c.Pos)
		old := cb.Get(k)
		if sameContainer(old, c) {
			continue
		}
		if old == nil {
			for keyCount(cb) >= s.o.MaxContainers {
				if err := evictOldestContainer(cb, p); err != nil {
					return err
				}
			}
		}
		v, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := cb.Put(k, v); err != nil {
			return err
		}
	}
	return nil
}

func evictOldestContainer(cb *bolt.Bucket, p Place) error {
	var oldest []byte
	var oldestTick int64
	err := cb.ForEach(func(k, v []byte) error {
		var c Container
		if err := decodeJSON("container", v, &c); err != nil {
			return corrupt(p, err)
		}
		if oldest == nil || c.Tick < oldestTick {
			oldest, oldestTick = append([]byte(nil), k...), c.Tick
		}
		return nil
	})
	if err != nil {
		return err
	}
	return cb.Delete(oldest)
}

func (s *Store) putChunks(pb *bolt.Bucket, p Place, o Observation) error {
	if len(o.Chunks) == 0 {
		return nil
	}
	eb, err := kind(pb, p, bExplored)
	if err != nil {
		return err
	}
	n := count(pb, bExplored)
	for _, c := range o.Chunks {
		k := chunkKey(c[0], c[1])
		if eb.Get(k) != nil || n >= uint64(s.o.MaxExplored) {
			continue
		}
		if err := eb.Put(k, u64(uint64(o.Tick))); err != nil {
			return err
		}
		n++
	}
	return setCount(pb, bExplored, n)
}

// Query asks for remembered blocks.
type Query struct {
	// Block is the block id; Meta its metadata, or -1 for any.
	Block string
	Meta  int
	// From and MaxDist bound the search (MaxDist 0: no bound).
	From    game.BlockPos
	MaxDist int
	// K is how many to return at most (0: all).
	K int
}

// Recall returns the remembered blocks the query asks for, nearest first
// (ties by position).
func (s *Store) Recall(p Place, q Query) ([]Sighting, error) {
	var out []Sighting
	err := s.db.View(func(tx *bolt.Tx) error {
		pb, err := s.place(tx, p, false)
		if err != nil || pb == nil {
			return err
		}
		sb, err := kind(pb, p, bSightings)
		if err != nil {
			return err
		}
		ib := sb.Bucket([]byte(q.Block))
		if ib == nil {
			return nil
		}
		return ib.ForEach(func(k, v []byte) error {
			sg, err := decodeSighting(q.Block, k, v)
			if err != nil {
				return corrupt(p, err)
			}
			if q.Meta >= 0 && sg.Meta != q.Meta {
				return nil
			}
			if q.MaxDist > 0 && sg.Pos.DistSq(q.From) > q.MaxDist*q.MaxDist {
				return nil
			}
			out = append(out, sg)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool {
		di, dj := out[i].Pos.DistSq(q.From), out[j].Pos.DistSq(q.From)
		if di != dj {
			return di < dj
		}
		return out[i].Pos.Less(out[j].Pos)
	})
	if q.K > 0 && len(out) > q.K {
		out = out[:q.K]
	}
	return out, err
}

// Contents is everything a world's memory holds, for a user to read.
type Contents struct {
	Summary    Summary     `json:"summary"`
	Sightings  []Sighting  `json:"sightings,omitempty"`
	Containers []Container `json:"containers,omitempty"`
	Waypoints  []Waypoint  `json:"waypoints,omitempty"`
	Deaths     []Death     `json:"deaths,omitempty"`
	Shelters   []Shelter   `json:"shelters,omitempty"`
}

// Show reads a world's memory: every container, waypoint and death, and
// the sightings in file order up to maxSightings (0: all).
func (s *Store) Show(p Place, maxSightings int) (Contents, error) {
	var c Contents
	sums, err := s.Places()
	if err != nil {
		return c, err
	}
	found := false
	for _, sm := range sums {
		if sm.Place == p {
			c.Summary, found = sm, true
		}
	}
	if !found {
		return c, fmt.Errorf("memory: %s remembers nothing of %s", s.path, p)
	}
	err = s.db.View(func(tx *bolt.Tx) error {
		pb, err := s.place(tx, p, false)
		if err != nil || pb == nil {
			return err
		}
		sb, err := kind(pb, p, bSightings)
		if err != nil {
			return err
		}
		full := errors.New("full")
		err = sb.ForEachBucket(func(id []byte) error {
			return sb.Bucket(id).ForEach(func(k, v []byte) error {
				if maxSightings > 0 && len(c.Sightings) >= maxSightings {
					return full
				}
				sg, err := decodeSighting(string(id), k, v)
				if err != nil {
					return corrupt(p, err)
				}
				c.Sightings = append(c.Sightings, sg)
				return nil
			})
		})
		if err != nil && !errors.Is(err, full) {
			return err
		}
		for _, r := range []struct {
			name []byte
			what string
			add  func([]byte) error
		}{
			{bContainers, "container", func(v []byte) error {
				var x Container
				err := decodeJSON("container", v, &x)
				c.Containers = append(c.Containers, x)
				return err
			}},
			{bWaypoints, "waypoint", func(v []byte) error {
				var x Waypoint
				err := decodeJSON("waypoint", v, &x)
				c.Waypoints = append(c.Waypoints, x)
				return err
			}},
			{bDeaths, "death", func(v []byte) error {
				var x Death
				err := decodeJSON("death", v, &x)
				c.Deaths = append(c.Deaths, x)
				return err
			}},
			{bShelters, "shelter", func(v []byte) error {
				var x Shelter
				err := decodeJSON("shelter", v, &x)
				c.Shelters = append(c.Shelters, x)
				return err
			}},
		} {
			if pb.Bucket(r.name) == nil && bytes.Equal(r.name, bShelters) {
				continue // a file from before shelters were kept
			}
			b, err := kind(pb, p, r.name)
			if err != nil {
				return err
			}
			if err := b.ForEach(func(_, v []byte) error {
				if err := r.add(v); err != nil {
					return corrupt(p, err)
				}
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	})
	return c, err
}

// updateKind runs f on one kind of a world's records in a write
// transaction, creating the world when it is new.
func (s *Store) updateKind(p Place, name []byte, f func(*bolt.Bucket) error) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		pb, err := s.place(tx, p, true)
		if err != nil {
			return err
		}
		b, err := kind(pb, p, name)
		if err != nil {
			return err
		}
		return f(b)
	})
}

// SetWaypoint names a position in a world, replacing a waypoint of the
// same name.
func (s *Store) SetWaypoint(p Place, w Waypoint) error {
	if w.Name == "" || len(w.Name) > maxName || len(w.Note) > maxName {
		return fmt.Errorf("memory: a waypoint needs a name (and a note) of at most %d bytes", maxName)
	}
	w.Set = s.o.Now()
	return s.updateKind(p, bWaypoints, func(wb *bolt.Bucket) error {
		if wb.Get([]byte(w.Name)) == nil && keyCount(wb) >= s.o.MaxWaypoints {
			return fmt.Errorf("memory: %s already has %d waypoints (the bound); forget some first", p, s.o.MaxWaypoints)
		}
		v, err := json.Marshal(w)
		if err != nil {
			return err
		}
		return wb.Put([]byte(w.Name), v)
	})
}

// RecordDeath remembers a death; past the bound the oldest is forgotten.
func (s *Store) RecordDeath(p Place, d Death) error {
	if len(d.Cause) > maxName {
		d.Cause = d.Cause[:maxName]
	}
	d.When = s.o.Now()
	return s.updateKind(p, bDeaths, func(db *bolt.Bucket) error {
		seq, err := db.NextSequence()
		if err != nil {
			return err
		}
		v, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if err := db.Put(u64(seq), v); err != nil {
			return err
		}
		for keyCount(db) > s.o.MaxDeaths {
			k, _ := db.Cursor().First()
			if err := db.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// LastDeath returns the latest death remembered of a world; ok is false
// when there is none.
func (s *Store) LastDeath(p Place) (d Death, ok bool, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		pb, err := s.place(tx, p, false)
		if err != nil || pb == nil {
			return err
		}
		db, err := kind(pb, p, bDeaths)
		if err != nil {
			return err
		}
		_, v := db.Cursor().Last()
		if v == nil {
			return nil
		}
		if err := decodeJSON("death", v, &d); err != nil {
			return corrupt(p, err)
		}
		ok = true
		return nil
	})
	return d, ok, err
}

// Shelters returns up to k (0: all) remembered shelters of a world within
// maxDist of from (0: anywhere), nearest first.
func (s *Store) Shelters(p Place, from game.BlockPos, maxDist, k int) ([]Shelter, error) {
	var out []Shelter
	err := s.db.View(func(tx *bolt.Tx) error {
		pb, err := s.place(tx, p, false)
		if err != nil || pb == nil {
			return err
		}
		b := pb.Bucket(bShelters)
		if b == nil {
			return nil // a file from before shelters were kept
		}
		return b.ForEach(func(_, v []byte) error {
			var x Shelter
			if err := decodeJSON("shelter", v, &x); err != nil {
				return corrupt(p, err)
			}
			if maxDist <= 0 || x.Pos.DistSq(from) <= maxDist*maxDist {
				out = append(out, x)
			}
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool {
		di, dj := out[i].Pos.DistSq(from), out[j].Pos.DistSq(from)
		if di != dj {
			return di < dj
		}
		return out[i].Pos.Less(out[j].Pos)
	})
	if k > 0 && len(out) > k {
		out = out[:k]
	}
	return out, err
}

// RecordShelter remembers a place where the bot was walled in; one it
// already remembers is left as it is (false). Past the bound the oldest
// is forgotten.
func (s *Store) RecordShelter(p Place, sh Shelter) (bool, error) {
	added := false
	sh.When = s.o.Now()
	err := s.db.Update(func(tx *bolt.Tx) error {
		pb, err := s.place(tx, p, true)
		if err != nil {
			return err
		}
		b, err := pb.CreateBucketIfNotExists(bShelters)
		if err != nil {
			return err
		}
		k := posKey(sh.Pos)
		if b.Get(k) != nil {
			return nil
		}
		for keyCount(b) >= s.o.MaxShelters {
			var oldest []byte
			var first uint64
			if err := b.ForEach(func(k, v []byte) error {
				var x Shelter
				if err := decodeJSON("shelter", v, &x); err != nil {
					return corrupt(p, err)
				}
				if oldest == nil || x.Seq < first {
					oldest, first = append([]byte(nil), k...), x.Seq
				}
				return nil
			}); err != nil {
				return err
			}
			if err := b.Delete(oldest); err != nil {
				return err
			}
		}
		if sh.Seq, err = b.NextSequence(); err != nil {
			return err
		}
		v, err := json.Marshal(sh)
		if err != nil {
			return err
		}
		added = true
		return b.Put(k, v)
	})
	return added, err
}

// What names a kind of record to forget.
type What string

// The kinds Forget takes.
const (
	ForgetAll        What = "all"
	ForgetSightings  What = "sightings"
	ForgetContainers What = "containers"
	ForgetWaypoints  What = "waypoints"
	ForgetDeaths     What = "deaths"
	ForgetShelters   What = "shelters"
	ForgetExplored   What = "explored"
)

// Kinds lists what Forget takes.
func Kinds() []string {
	return []string{string(ForgetAll), string(ForgetSightings), string(ForgetContainers), string(ForgetWaypoints),
		string(ForgetDeaths), string(ForgetShelters), string(ForgetExplored)}
}

// Forget drops a kind of record of a world (all of it for ForgetAll), or,
// with block set and ForgetSightings, the sightings of that block only. It
// returns false when the world is not remembered.
func (s *Store) Forget(p Place, what What, block string) (bool, error) {
	found := false
	err := s.db.Update(func(tx *bolt.Tx) error {
		root := tx.Bucket(bPlaces)
		pb, err := s.place(tx, p, false)
		if err != nil || pb == nil {
			return err
		}
		found = true
		reset := func(name []byte) error {
			if err := pb.DeleteBucket(name); err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
				return err
			}
			_, err := pb.CreateBucket(name)
			return err
		}
		switch what {
		case ForgetAll:
			return root.DeleteBucket(p.key())
		case ForgetSightings:
			if block != "" {
				return s.forgetBlock(pb, p, block)
			}
			if err := reset(bSightings); err != nil {
				return err
			}
			if err := reset(bOrder); err != nil {
				return err
			}
			return setCount(pb, bSightings, 0)
		case ForgetContainers:
			return reset(bContainers)
		case ForgetWaypoints:
			return reset(bWaypoints)
		case ForgetDeaths:
			return reset(bDeaths)
		case ForgetShelters:
			return reset(bShelters)
		case ForgetExplored:
			if err := reset(bExplored); err != nil {
				return err
			}
			return setCount(pb, bExplored, 0)
		}
		return fmt.Errorf("memory: nothing called %q to forget (one of %v)", what, Kinds())
	})
	return found, err
}

func (s *Store) forgetBlock(pb *bolt.Bucket, p Place, block string) error {
	sb, err := kind(pb, p, bSightings)
	if err != nil {
		return err
	}
	ob, err := kind(pb, p, bOrder)
	if err != nil {
		return err
	}
	ib := sb.Bucket([]byte(block))
	if ib == nil {
		return nil
	}
	var gone []Sighting
	if err := ib.ForEach(func(k, v []byte) error {
		sg, err := decodeSighting(block, k, v)
		if err != nil {
			return corrupt(p, err)
		}
		gone = append(gone, sg)
		return nil
	}); err != nil {
		return err
	}
	for _, g := range gone {
		if err := ob.Delete(u64(g.seq)); err != nil {
			return err
		}
	}
	if err := sb.DeleteBucket([]byte(block)); err != nil {
		return err
	}
	n := count(pb, bSightings)
	if uint64(len(gone)) > n {
		n = uint64(len(gone))
	}
	return setCount(pb, bSightings, n-uint64(len(gone)))
}
