package web

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// MaxPathNodes bounds the search that draws a move's route.
const MaxPathNodes = 20000

// resentEvents is how many of the latest events every update carries
// again, so that a result arriving after its event was sent is shown.
const resentEvents = 16

// publisher holds the browsers' event streams and the latest update.
type publisher struct {
	mu      sync.Mutex
	clients map[*client]struct{}
	// watching is len(clients), read by the agent's hooks without the
	// lock: while it is 0 they wake nobody.
	watching atomic.Int32
	latest   json.RawMessage // the last Status published
	joined   chan struct{}   // a browser joined: publish now
	// The heading: the last position seen and the direction moved.
	lastPos world.Vec3
	hasPos  bool
	head    float64
	// The route drawn last, and whose.
	routeKey      routeKey
	route         []world.BlockPos
	routeComplete bool
	routeBy       string
	// dropped, when set (tests), is called when a browser is dropped.
	dropped func()
}

// client is one browser's event stream: a mailbox of one update.
type client struct {
	mail                chan struct{}
	lastStep, lastEvent int
}

func (p *publisher) init() {
	p.clients = map[*client]struct{}{}
	p.joined = make(chan struct{}, 1)
}

func (p *publisher) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.clients)
}

func (p *publisher) heading(pos world.Vec3) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hasPos {
		p.head = heading(p.lastPos, pos, p.head)
	}
	p.lastPos, p.hasPos = pos, true
	return p.head
}

// Publish builds an update whenever the view changed, at most once per
// interval and only while a browser is connected, and hands it to every
// browser's mailbox without waiting for any. Serve runs it; it returns
// when ctx ends.
func (v *View) Publish(ctx context.Context, interval time.Duration) {
	interval = max(interval, DefaultInterval)
	timer := time.NewTimer(interval)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.changed:
		case <-v.pub.joined:
		}
		if v.pub.count() == 0 {
			continue // nobody to tell; a browser that joins gets the whole state
		}
		st := v.status()
		v.fillRoute(&st)
		b, err := json.Marshal(st)
		if err != nil {
			continue
		}
		v.pub.mu.Lock()
		v.pub.latest = b
		for c := range v.pub.clients {
			select {
			case c.mail <- struct{}{}:
			default: // it has an update waiting; it will read this one
			}
		}
		v.pub.mu.Unlock()
		timer.Reset(interval)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
	}
}

// RouteSource is a body that tells the route its move_to plans and walks
// (sim.Sim and gtnh.Client do): the view draws that route. Of a body that
// does not (one across the IPC), the view draws its own search's.
type RouteSource interface {
	// PlannedRoute is the latest route a move_to planned, from where the
	// player stood, numbered from 1 (0: none yet).
	PlannedRoute() (seq uint64, steps []path.Step)
}

// LookSource is a body that tells the way it faces (gtnh.Client does: the
// look it last told the server): the view draws the bot's heading from
// its yaw. Of a body that does not (the simulator, which keeps no look,
// or one across the IPC), the heading is the direction it last moved.
type LookSource interface {
	// Facing is Minecraft's yaw and pitch in degrees (yaw 0 facing
	// south, growing clockwise seen from above); ok is false before the
	// body has any.
	Facing() (yaw, pitch float32, ok bool)
}

// fillRoute draws the current move's route: the body's, when it tells it
// (the latest one it planned since the move started), else the path
// planner's search from where the move started to its target over the
// world model now, once per move.
func (v *View) fillRoute(st *Status) {
	if st.Move == nil {
		return
	}
	key := routeKey{move: st.Move.seq}
	var steps []path.Step
	if v.routes != nil {
		key.body, steps = v.routes.PlannedRoute()
		if key.body <= st.Move.routeBase {
			key.body, steps = 0, nil // the move has planned none yet
		}
	}
	v.pub.mu.Lock()
	if v.pub.routeKey == key {
		st.Move.Path, st.Move.Complete, st.Move.PlannedBy = v.pub.route, v.pub.routeComplete, v.pub.routeBy
		v.pub.mu.Unlock()
		return
	}
	v.pub.mu.Unlock()
	var route []world.BlockPos
	var complete bool
	by := "body"
	switch {
	case v.routes != nil:
		route = make([]world.BlockPos, len(steps))
		for i, s := range steps {
			route[i] = s.Pos
		}
		complete = len(route) > 0 && path.Near(st.Move.To, st.Move.Radius).Reached(route[len(route)-1])
	default:
		snap, _ := v.snapshot()
		route, complete = Route(snap, st.Move.From, st.Move.To, st.Move.Radius)
		by = "view"
	}
	if len(route) == 0 {
		route, by = nil, ""
	}
	v.pub.mu.Lock()
	v.pub.routeKey, v.pub.route, v.pub.routeComplete, v.pub.routeBy = key, route, complete, by
	v.pub.mu.Unlock()
	st.Move.Path, st.Move.Complete, st.Move.PlannedBy = route, complete, by
}

// routeKey names a route drawn: the move's number and the body's route's.
type routeKey struct {
	move int
	body uint64
}

// Route is the path planner's route from feet at from to within radius of
// to over the snapshot's blocks (digging and placing allowed, as move_to
// does), at most MaxPathNodes nodes searched; complete is false when it
// stops short.
func Route(s *world.Snapshot, from, to world.BlockPos, radius float64) (route []world.BlockPos, complete bool) {
	if s == nil || s.Blocks == nil || from == to {
		return nil, from == to
	}
	res, err := path.Find(path.NewBlockGrid(s.Blocks, nil), from, path.Near(to, radius),
		path.Options{MaxNodes: MaxPathNodes, Dig: true, Place: true})
	if err != nil {
		return nil, false
	}
	route = make([]world.BlockPos, len(res.Steps))
	for i, st := range res.Steps {
		route[i] = st.Pos
	}
	return route, res.Complete
}

// streamer serves /api/events: the whole state first, then each update
// with the steps and events the browser has not had.
type streamer struct {
	v    *View
	opts ServeOptions
}

// update is one event of the stream.
type update struct {
	Status json.RawMessage `json:"status"`
	Steps  []StepView      `json:"steps"`
	Events []Event         `json:"events"`
}

func (s *streamer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v, p := s.v, &s.v.pub
	c := &client{mail: make(chan struct{}, 1)}
	p.mu.Lock()
	if len(p.clients) >= s.opts.MaxClients {
		p.mu.Unlock()
		s.opts.Log.Warn().Int("max_clients", s.opts.MaxClients).Str("remote", r.RemoteAddr).Msg("web view refused: too many open")
		http.Error(w, errTooMany.Error()+"; close one or try later", http.StatusServiceUnavailable)
		return
	}
	p.clients[c] = struct{}{}
	p.watching.Store(int32(len(p.clients)))
	p.mu.Unlock()
	if s.opts.startPublisher != nil {
		s.opts.startPublisher()
	}
	defer func() {
		p.mu.Lock()
		delete(p.clients, c)
		p.watching.Store(int32(len(p.clients)))
		p.mu.Unlock()
	}()
	select {
	case p.joined <- struct{}{}:
	default:
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	rc := http.NewResponseController(w)
	st := v.status()
	v.fillRoute(&st)
	first, err := json.Marshal(st)
	if err != nil {
		return
	}
	if !s.send(rc, w, c, first) {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-c.mail:
		}
		p.mu.Lock()
		latest := p.latest
		p.mu.Unlock()
		if !s.send(rc, w, c, latest) {
			return
		}
	}
}

// send writes one update with what the browser has not had; false when
// the browser is gone or stalled past the write timeout.
func (s *streamer) send(rc *http.ResponseController, w http.ResponseWriter, c *client, status json.RawMessage) bool {
	v := s.v
	u := update{Status: status, Steps: []StepView{}, Events: []Event{}}
	if steps := v.stepViews(c.lastStep); len(steps) > 0 {
		u.Steps = steps
	}
	v.mu.Lock()
	for i, ev := range v.events {
		if ev.Seq > c.lastEvent || i >= len(v.events)-resentEvents {
			u.Events = append(u.Events, ev)
		}
	}
	v.mu.Unlock()
	if n := len(u.Steps); n > 0 {
		c.lastStep = u.Steps[n-1].Seq
	}
	if n := len(u.Events); n > 0 {
		c.lastEvent = u.Events[n-1].Seq
	}
	b, err := json.Marshal(u)
	if err != nil {
		return false
	}
	_ = rc.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
	_, err = w.Write(append(append([]byte("event: update\ndata: "), b...), '\n', '\n'))
	if err == nil {
		err = rc.Flush()
	}
	if err != nil {
		s.opts.Log.Info().Err(err).Msg("web view: a browser stopped taking updates; dropped")
		if v.pub.dropped != nil {
			v.pub.dropped()
		}
		return false
	}
	return true
}
