package gtnh

import (
	"sync"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// session is one connection in the play state. Fields marked "reader" are
// used only by the read goroutine; the rest are guarded by Client.mu.
type session struct {
	c          *conn
	uuid       string
	joined     chan struct{} // closed once Join Game, the first position and its column arrived
	joinedOnce sync.Once
	ended      chan struct{} // closed when the session ended
	once       sync.Once
	err        error
	wg         sync.WaitGroup

	// reader
	fml  *fmlHandshake
	mp   proto17.Multipart
	dec  *proto17.ChunkDecoder
	buf  pk.Packet
	cols []proto17.ChunkColumn
	// bqAsm puts BetterQuesting's message pieces together (quests.go).
	bqAsm modnet.BQAssembler

	// guarded by Client.mu
	vanilla    bool // the server did not run the FML handshake
	inGame     bool // Join Game arrived
	spawned    bool // the first position arrived
	entityID   int32
	gameMode   uint8
	dimension  int32
	noSky      map[int32]bool // dimensions whose chunks carry no sky light
	health     float32
	food       int16
	body       motion
	inv        inventory
	loaded     map[[2]int]bool
	entities   map[int32]bool
	players    map[int32]seenPlayer // spawned players, for their UUIDs
	collected  []collected          // the last maxCollected items picked up
	collectedN int                  // items picked up in the session (collected's last is the collectedN-th)
	// dig is the block being dug and whether the server has shown it as
	// air since the dig started: sand or gravel falling into it sends the
	// block back right after, in the same tick.
	dig struct {
		pos           world.BlockPos
		watching, air bool
	}
	confirms   map[confirmKey]*pendingClick // clicks waiting for their Confirm Transaction
	actionNum  int16
	confirmSeq uint64
	spawnPoint world.BlockPos
	// opening is the block an open_container clicked, for the window that follows.
	opening *world.BlockPos
	// mods is what the mod channels said (GregTech, Railcraft).
	mods modState
	// fluids is the server's Forge fluid id map (FORGE FluidIdMapMessage);
	// Names is nil until it came. Replaced, never changed in place.
	fluids modnet.FluidIDMap
	// quests is the player's quest progress as the server's BetterQuesting
	// sent it (quests.go).
	quests questBook
	// routes is the long-route planner's cache shared by move_to actions
	// (nil while one uses it); worldGen counts the respawns and dimension
	// changes, each of which voids it.
	routes   *routeCache
	worldGen uint64
}

// maxCollected bounds the collected items a session remembers.
const maxCollected = 256

// collectedSince is what was picked up after the first mark items of the
// session (c.mu held); the oldest may have been forgotten.
func (s *session) collectedSince(mark int) []collected {
	first := s.collectedN - len(s.collected) // the session index of collected[0]
	return s.collected[min(max(mark-first, 0), len(s.collected)):]
}

// collected is an item the bot picked up (Collect Item with its id).
type collected struct {
	entity int32
	item   *world.ItemStack
	tick   int64
}

type confirmKey struct {
	window uint8
	action int16
}

// pendingClick is a click waiting for the server's Confirm Transaction.
type pendingClick struct {
	seq      uint64 // registration order, to evict the oldest
	answered bool
	accepted bool
}

// maxPendingClicks bounds the clicks waiting for an answer. Clicks are sent
// one at a time and each removes its entry when it returns, so more than one
// means a leak; the bound keeps one from growing the map.
const maxPendingClicks = 16

// expectConfirm registers a click waiting for its answer, evicting the
// oldest when maxPendingClicks are waiting; Client.mu is held.
func (s *session) expectConfirm(key confirmKey) *pendingClick {
	for len(s.confirms) >= maxPendingClicks {
		var oldest confirmKey
		first := true
		for k, p := range s.confirms {
			if first || p.seq < s.confirms[oldest].seq {
				oldest, first = k, false
			}
		}
		delete(s.confirms, oldest)
	}
	s.confirmSeq++
	p := &pendingClick{seq: s.confirmSeq}
	s.confirms[key] = p
	return p
}

// confirm records the server's answer to a click; answers to clicks the
// client is not waiting for are dropped. Client.mu is held.
func (s *session) confirm(key confirmKey, accepted bool) {
	if p := s.confirms[key]; p != nil && !p.answered {
		p.answered, p.accepted = true, accepted
	}
}

func newSession(c *Client, cn *conn, mods []proto17.ModInfo, uuid string) *session {
	s := &session{
		c:        cn,
		uuid:     uuid,
		joined:   make(chan struct{}),
		ended:    make(chan struct{}),
		fml:      newFMLHandshake(mods),
		dec:      proto17.NewChunkDecoder(cn.Formats()),
		noSky:    map[int32]bool{-1: true, 1: true},
		loaded:   map[[2]int]bool{},
		entities: map[int32]bool{},
		players:  map[int32]seenPlayer{},
		confirms: map[confirmKey]*pendingClick{},
		health:   20,
		food:     20,
		mods:     newModState(),
	}
	s.inv.reset()
	return s
}

// maybeJoined closes joined once the player is placed in a loaded column
// (the server sends the position before the chunks); Client.mu is held.
func (s *session) maybeJoined() bool {
	if !s.spawned || !s.loaded[[2]int{ifloor(s.body.x) >> 4, ifloor(s.body.z) >> 4}] {
		return false
	}
	first := false
	s.joinedOnce.Do(func() { close(s.joined); first = true })
	return first
}

// isJoined reports whether joined is closed.
func (s *session) isJoined() bool {
	select {
	case <-s.joined:
		return true
	default:
		return false
	}
}

// end stops the session with a cause (the first one wins).
func (s *session) end(err error) {
	s.once.Do(func() {
		s.err = err
		s.c.close()
		close(s.ended)
	})
}

// writeGrace is how long a failed write waits for the reader to end the
// session with the server's reason.
const writeGrace = time.Second

// endAfterWrite ends the session after a failed write, but first lets the
// reader finish: a server that kicks sends Disconnect and closes the
// connection, and a write racing the close fails before the reader has
// read the reason (the reader then reads it, or the end of the stream, at
// once).
func (s *session) endAfterWrite(err error) {
	t := time.NewTimer(writeGrace)
	defer t.Stop()
	select {
	case <-s.ended:
	case <-t.C:
		s.end(err)
	}
}

// cause is why the session ended.
func (s *session) cause() error {
	select {
	case <-s.ended:
		return s.err
	default:
		return nil
	}
}

// wait waits for the session's goroutines.
func (s *session) wait() { s.wg.Wait() }
