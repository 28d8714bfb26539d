package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/url"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// ToolPrefix starts the name of the tool that runs one executable skill
// (skill_chop_tree).
const ToolPrefix = "skill_"

// URIScheme is the scheme of the knowledge skill resources: skill://NAME
// and skill://NAME/PATH.
const URIScheme = "skill"

// Options configure a Server.
type Options struct {
	// Catalog joins the executable skills (its Registry, required) and the
	// knowledge skills (its Library, optional).
	Catalog *catalog.Catalog
	// Conn is the body the skills run on.
	Conn ipc.Conn
	// Goal, when its Text is set, is what goal_status and observe report
	// progress on.
	Goal loop.Goal
	// Packs are the enabled skill packs (nil = every pack of the registry).
	Packs []string
	// Trace receives one JSON line per invocation, as agent run's trace.
	Trace io.Writer
	// OnStep, when set, is called with each invocation's finished step (the
	// metrics of agent mcp --metrics count them).
	OnStep func(loop.StepRecord)
	// Log receives the server's own log (never the protocol).
	Log zerolog.Logger
	// Version is reported to clients (default: the module version of the
	// binary).
	Version string
	// SkillPoll is how often Run looks at the knowledge skills' directories
	// for skills added, removed or edited on disk (default 2 s; negative:
	// never). See WatchSkills.
	SkillPoll time.Duration
}

// DefaultSkillPoll is Options.SkillPoll's default.
const DefaultSkillPoll = 2 * time.Second

// Server is an MCP server over one body. Build it with New, then serve
// with Run (or connect transports to MCP()).
type Server struct {
	cat   *catalog.Catalog
	reg   *registry.Registry
	packs []string
	goal  string
	log   zerolog.Logger
	srv   *mcp.Server
	poll  time.Duration

	// mu serializes what touches the body and the loop: one invocation or
	// observation at a time, and the catalog sync that follows it.
	mu        sync.Mutex
	loop      *loop.Loop
	tier      string
	tools     map[string]string      // mounted skill tools: name -> signature
	resources map[string]resourceRef // mounted resources by URI
}

// New checks the body (every action the enabled skills can emit must be
// supported), observes it once and mounts the tools and resources for its
// tier.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Catalog == nil || opts.Catalog.Registry == nil || opts.Conn == nil {
		return nil, errors.New("mcpserver: Catalog with a Registry, and Conn, are required")
	}
	reg := opts.Catalog.Registry
	if reg.Packs() == nil {
		return nil, errors.New("mcpserver: the registry has no skill packs")
	}
	packs := opts.Packs
	if packs == nil {
		packs = reg.Packs().Names()
	}
	l, err := loop.New(ctx, loop.Config{Registry: reg, Conn: opts.Conn, Goal: opts.Goal, Packs: packs,
		Trace: opts.Trace, OnStep: opts.OnStep, Log: opts.Log})
	if err != nil {
		return nil, err
	}
	version := opts.Version
	if version == "" {
		version = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			version = bi.Main.Version
		}
	}
	s := &Server{
		cat: opts.Catalog, reg: reg, packs: packs, goal: opts.Goal.Text,
		log: opts.Log.With().Str("component", "mcp").Logger(), loop: l,
		tools: map[string]string{}, resources: map[string]resourceRef{}, poll: opts.SkillPoll,
	}
	if s.poll == 0 {
		s.poll = DefaultSkillPoll
	}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "gtnh-agent", Title: "GTNH agent", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       slog.New(zerolog.NewSlogHandler(s.log)),
		HasTools:     true,
		HasResources: true,
	})
	s.srv.AddReceivingMiddleware(boundArgs)
	s.addTools()
	obs, err := l.Observe(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	if err := s.sync(obs.Snapshot.TechState); err != nil {
		return nil, err
	}
	return s, nil
}

const instructions = `This server plays GregTech: New Horizons (Minecraft) through a body: a simulated world or a player on a server.
Start with observe and list_skills. Knowledge skills are instructions: read them with load_skill (and their files with read_skill_resource) before acting.
Executable skills act in the world: call invoke_skill {skill, params}, or the skill's own tool (skill_NAME). Every invocation is checked: parameters are validated, the skill's declared effects are verified in the world afterwards, and an invocation that failed the same way twice is refused until its part of the world changes.
The skill tools follow the tech tier: when the tier changes, the tool list changes.`

// MCP returns the SDK server, to connect transports to.
func (s *Server) MCP() *mcp.Server { return s.srv }

// Run serves one client on the transport until it disconnects (nil, or the
// reason the connection broke) or ctx ends (ctx.Err()). Meanwhile it
// watches the knowledge skills' directories every Options.SkillPoll (see
// WatchSkills).
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	ss, err := s.srv.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	defer s.watch(ctx)()
	// The end of ctx (Ctrl-C, SIGTERM) is an ordinary end of a server, not
	// an error to log.
	stop := context.AfterFunc(ctx, func() { ss.Close() })
	defer stop()
	err = ss.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// watch runs WatchSkills every Options.SkillPoll until ctx ends or the
// returned stop is called (stop waits for it).
func (s *Server) watch(ctx context.Context) (stop func()) {
	if s.poll <= 0 {
		return func() {}
	}
	wctx, cancel := context.WithCancel(ctx)
	tick := time.NewTicker(s.poll)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.WatchSkills(wctx, tick.C)
	}()
	return func() {
		cancel()
		tick.Stop()
		<-done
	}
}

// WatchSkills picks up knowledge skills added, removed or edited on disk
// while the server runs: on every tick it compares the library's directory
// stamp (Library.Stamp: a few stats per skill) with the one its skills were
// read at (Library.Loaded), and when they differ, refreshes the library and mounts the resources to match; the
// SDK tells the client with a resources list-changed notification (and a
// tools one when a skill's tool changed). It returns when ctx ends or ticks
// closes. Run calls it; a server connected some other way (MCP()) calls it
// with its own ticker.
func (s *Server) WatchSkills(ctx context.Context, ticks <-chan time.Time) {
	lib := s.cat.Library
	if lib == nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-ticks:
			if !ok {
				return
			}
		}
		// Against the stamp the served skills were read at, not one taken
		// when this started: a skill added before the first tick is new.
		if lib.Stamp() == lib.Loaded() {
			continue
		}
		lib.Refresh()
		s.mu.Lock()
		err := s.sync(s.tier)
		s.mu.Unlock()
		if err != nil {
			s.log.Warn().Err(err).Msg("skills changed on disk; the tools and resources were not updated")
			continue
		}
		s.log.Info().Int("knowledge_skills", len(lib.Skills())).Msg("skills changed on disk; refreshed")
	}
}

// sync mounts the skill tools and resources of the catalog at a tier and
// removes those no longer in it; the SDK sends the list-changed
// notifications. The caller holds mu (or owns s during New).
func (s *Server) sync(tier string) error {
	entries, err := s.cat.ForTechState(tier, s.packs)
	if err != nil {
		return fmt.Errorf("mcpserver: the skill catalog at %s: %w", tier, err)
	}
	s.tier = tier
	wantTools := map[string]*registry.Description{}
	wantRes := map[string]resourceRef{}
	for _, e := range entries {
		if d := e.Spec(); d != nil && e.Kind.Executable() {
			wantTools[ToolPrefix+d.Name] = d
		}
		if e.Kind.Knowledge() && s.cat.Library != nil {
			sk, ok := s.cat.Library.Get(e.ID)
			if !ok {
				continue
			}
			wantRes[skillURI(e.Name, "")] = resourceRef{id: e.ID, title: e.Name, desc: e.Description}
			for _, p := range sk.Resources {
				wantRes[skillURI(e.Name, p)] = resourceRef{id: e.ID, path: p, title: e.Name + "/" + p,
					desc: fmt.Sprintf("A file of the knowledge skill %s.", e.Name)}
			}
		}
	}
	if gone := dropMissing(s.tools, wantTools); len(gone) > 0 {
		s.srv.RemoveTools(gone...)
	}
	for _, name := range slices.Sorted(maps.Keys(wantTools)) {
		d := wantTools[name]
		sig := fmt.Sprintf("%s@%d", d.Name, d.Version)
		if s.tools[name] == sig {
			continue
		}
		s.tools[name] = sig
		s.srv.AddTool(skillTool(name, d), s.skillHandler(d.Name))
	}
	if gone := dropMissing(s.resources, wantRes); len(gone) > 0 {
		s.srv.RemoveResources(gone...)
	}
	for _, uri := range slices.Sorted(maps.Keys(wantRes)) {
		ref := wantRes[uri]
		if old, ok := s.resources[uri]; ok && old == ref {
			continue
		}
		s.resources[uri] = ref
		s.srv.AddResource(&mcp.Resource{URI: uri, Name: ref.title, Description: ref.desc, MIMEType: mimeType(ref.path)},
			s.resourceHandler(ref))
	}
	s.log.Debug().Str("tier", tier).Int("skill_tools", len(s.tools)).Int("resources", len(s.resources)).Msg("catalog synced")
	return nil
}

// skillURI is the resource URI of a knowledge skill (path "") or one of its
// files; each path element is escaped.
func skillURI(name, path string) string {
	u := URIScheme + "://" + url.PathEscape(name)
	if path == "" {
		return u
	}
	parts := strings.Split(path, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return u + "/" + strings.Join(parts, "/")
}

// skillTool is the tool that runs one executable skill.
func skillTool(name string, d *registry.Description) *mcp.Tool {
	desc := strings.TrimSpace(d.Description)
	if len(d.Preconditions.TechStatesAnyOf) > 0 {
		desc += "\n\nTiers: " + strings.Join(d.Preconditions.TechStatesAnyOf, ", ") + "."
	}
	desc += "\nRuns the skill on the body and returns the verdict, the declared effects as checked in the world, the actions taken and the inventory change."
	return &mcp.Tool{
		Name: name, Title: d.Name, Description: desc, InputSchema: ParamsSchema(d),
		Annotations: &mcp.ToolAnnotations{Title: d.Name, OpenWorldHint: ptr(true)},
	}
}

func ptr[T any](v T) *T { return &v }

// dropMissing deletes from have every key want lacks and returns those
// keys, sorted.
func dropMissing[V, W any](have map[string]V, want map[string]W) []string {
	var gone []string
	for k := range have {
		if _, ok := want[k]; !ok {
			gone = append(gone, k)
			delete(have, k)
		}
	}
	slices.Sort(gone)
	return gone
}
