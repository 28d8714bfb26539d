package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Bounds on what a client sends.
const (
	maxNameLen   = 128      // a skill name
	maxPathLen   = 1024     // a resource path
	maxParams    = 64       // parameters of one invocation
	maxArgsBytes = 64 << 10 // the arguments of one tool call
)

// boundArgs refuses a tool call whose arguments are over maxArgsBytes
// before anything decodes them: the one place the bound is kept, for
// invoke_skill, the skill_NAME tools and the others alike. The refusal
// names the size only, so the arguments are neither echoed to the client
// nor carried into a step and its trace line.
func boundArgs(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && len(r.Params.Arguments) > maxArgsBytes {
			return toolError("%s: the arguments are %d bytes; a tool call's arguments are at most %d", clipName(r.Params.Name), len(r.Params.Arguments), maxArgsBytes), nil
		}
		return next(ctx, method, req)
	}
}

// clipName bounds a client's tool name for an error message.
func clipName(name string) string {
	if len(name) > maxNameLen {
		return name[:maxNameLen] + "…"
	}
	return name
}

// Tool names.
const (
	ToolListSkills        = "list_skills"
	ToolLoadSkill         = "load_skill"
	ToolReadSkillResource = "read_skill_resource"
	ToolObserve           = "observe"
	ToolInvokeSkill       = "invoke_skill"
	ToolGoalStatus        = "goal_status"
	ToolSetPacks          = "set_packs"
	ToolRecall            = "recall"
)

// RecallArg is recall's input.
type RecallArg struct {
	Block       string `json:"block" jsonschema:"the block id to recall, e.g. minecraft:iron_ore or gregtech:gt.blockores:32 (modid:name[:meta])"`
	MaxDistance int    `json:"max_distance,omitempty" jsonschema:"how far from the bot, in blocks (default 256, at most 4096)"`
	Limit       int    `json:"limit,omitempty" jsonschema:"how many positions at most (default 8, at most 64)"`
}

// RecallResult is what recall returns.
type RecallResult struct {
	Block     string           `json:"block"`
	Positions []world.BlockPos `json:"positions" jsonschema:"remembered positions, nearest first"`
}

// PacksArg is set_packs' input.
type PacksArg struct {
	Packs []string `json:"packs" jsonschema:"the skill packs to enable (packs list names them); an empty list enables every pack"`
}

// PacksResult is what set_packs returns.
type PacksResult struct {
	Enabled []string `json:"enabled" jsonschema:"the packs now enabled"`
	Active  []string `json:"active" jsonschema:"those active at the body's tier, with the packs they depend on"`
	Tier    string   `json:"tier" jsonschema:"the body's tech tier"`
}

// ListSkillsResult is what list_skills returns.
type ListSkillsResult struct {
	Tier   string         `json:"tier" jsonschema:"the body's tech tier now"`
	Packs  []string       `json:"packs" jsonschema:"the skill packs active at this tier"`
	Skills []CatalogEntry `json:"skills"`
}

// CatalogEntry is one skill of the catalog.
type CatalogEntry struct {
	Name        string `json:"name"`
	Kind        string `json:"kind" jsonschema:"knowledge (instructions: load_skill), go or template (executable: invoke_skill), or knowledge+go / knowledge+template (both)"`
	Description string `json:"description"`
	// Tool is the skill's own tool, for an executable skill.
	Tool string `json:"tool,omitempty" jsonschema:"the tool that runs this skill"`
	// Executable names the executable skill a knowledge skill carries.
	Executable string `json:"executable,omitempty"`
	// Resource is the URI of a knowledge skill's instructions.
	Resource string `json:"resource,omitempty"`
}

// NameArg is load_skill's input.
type NameArg struct {
	Name string `json:"name" jsonschema:"the skill's name (or id)"`
}

// ResourceArg is read_skill_resource's input.
type ResourceArg struct {
	Name string `json:"name" jsonschema:"the knowledge skill's name (or id)"`
	Path string `json:"path" jsonschema:"a file the skill lists under Resources, relative to its root"`
}

// InvokeArg is invoke_skill's input.
type InvokeArg struct {
	Skill  string         `json:"skill" jsonschema:"an executable skill available now (list_skills)"`
	Params map[string]any `json:"params,omitempty" jsonschema:"the skill's parameters by name; omitted ones take their defaults"`
}

func (s *Server) addTools() {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s.srv, &mcp.Tool{Name: ToolListSkills, Annotations: ro,
		Description: "The skills usable at the body's current tier with the enabled packs: executable skills (run them with invoke_skill or their skill_NAME tool) and knowledge skills (instructions: read them with load_skill). Name, kind and description of each."},
		s.listSkills)
	mcp.AddTool(s.srv, &mcp.Tool{Name: ToolLoadSkill, Annotations: ro,
		Description: "The full instructions of a skill: a knowledge skill's SKILL.md body with {baseDir} resolved to its root path, and the files it lists; an executable skill's parameters, preconditions and effects."},
		s.loadSkill)
	mcp.AddTool(s.srv, &mcp.Tool{Name: ToolReadSkillResource, Annotations: ro,
		Description: "Read one file of a knowledge skill, named exactly as load_skill lists it under Resources (relative to the skill's root; no absolute paths, no ..)."},
		s.readSkillResource)
	mcp.AddTool(s.srv, &mcp.Tool{Name: ToolObserve, Annotations: ro,
		Description: "The world now: game tick, position, tech tier, health and food, inventory, known machines nearest first, the goal's progress, and the invocations that are blocked until the world changes."},
		s.observe)
	mcp.AddTool(s.srv, &mcp.Tool{Name: ToolInvokeSkill, Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(true)},
		Description: "Run an executable skill on the body: {skill, params}. The parameters are validated, the actions executed, and the skill's declared effects checked in the world. Returns the verdict (success, action_failed, effects_unmet, skill_failed, rejected, noop), the effect checks, the actions with their results and the inventory change. A skill that failed the same way twice is refused until its part of the world changes."},
		s.invokeSkill)
	mcp.AddTool(s.srv, &mcp.Tool{Name: ToolSetPacks,
		Description: "Enable these skill packs (an empty list: every pack) for the rest of the session. The skill tools and resources change to match, with list-changed notifications."},
		s.setPacks)
	mcp.AddTool(s.srv, &mcp.Tool{Name: ToolRecall, Annotations: ro,
		Description: "Where the bot remembers seeing a block, beyond what it sees now: positions from its memory of this world (earlier in this run or in earlier runs with the same memory file), nearest first. The skill walk_to_remembered walks to the nearest."},
		s.recall)
	mcp.AddTool(s.srv, &mcp.Tool{Name: ToolGoalStatus, Annotations: ro,
		Description: "Whether the goal the agent was started with holds now, and which parts do not."},
		s.goalStatus)
}

// toolError is a tool result that reports a failure to the model (the
// protocol call itself succeeded).
func toolError(format string, args ...any) *mcp.CallToolResult {
	r := &mcp.CallToolResult{}
	r.SetError(fmt.Errorf(format, args...))
	return r
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func (s *Server) listSkills(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, *ListSkillsResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.look(ctx); err != nil {
		// The catalog of the last tier seen is still the best answer.
		s.log.Warn().Err(err).Msg("list_skills: observing the body")
	}
	tier := s.tier
	entries, err := s.cat.ForTechState(tier, s.packs)
	if err != nil {
		return nil, nil, fmt.Errorf("the skill catalog at %s: %v", tier, err)
	}
	out := &ListSkillsResult{Tier: tier, Packs: s.activePacks(tier), Skills: []CatalogEntry{}}
	for _, e := range entries {
		info := CatalogEntry{Name: e.Name, Kind: string(e.Kind), Description: e.Description, Executable: e.Executable}
		if d := e.Spec(); d != nil && e.Kind.Executable() {
			info.Tool = ToolPrefix + d.Name
		}
		if e.Kind.Knowledge() {
			info.Resource = skillURI(e.Name, "")
		}
		out.Skills = append(out.Skills, info)
	}
	return nil, out, nil
}

// activePacks lists the enabled packs active at a tier.
func (s *Server) activePacks(tier string) []string {
	out := []string{}
	res, err := s.reg.Packs().Resolve(tier, s.packs)
	if err != nil {
		return out
	}
	for _, p := range res.Packs {
		if p.Active {
			out = append(out, p.Name)
		}
	}
	return out
}

// lookup finds a skill of the catalog by name or id, or explains why not.
func (s *Server) lookup(name string) (catalog.Entry, error) {
	switch {
	case name == "":
		return catalog.Entry{}, errors.New("name is empty: give a skill's name (list_skills)")
	case len(name) > maxNameLen:
		return catalog.Entry{}, fmt.Errorf("name is %d bytes; skill names are at most %d", len(name), maxNameLen)
	}
	e, ok := s.cat.Lookup(name)
	if !ok {
		return catalog.Entry{}, fmt.Errorf("unknown skill %q%s (list_skills lists them)", name, suggest.DidYouMean(name, catalog.Names(s.cat.Entries())))
	}
	return e, nil
}

func (s *Server) loadSkill(ctx context.Context, _ *mcp.CallToolRequest, in NameArg) (*mcp.CallToolResult, any, error) {
	if _, err := s.lookup(in.Name); err != nil {
		return nil, nil, err
	}
	l, err := s.cat.LoadSkill(in.Name)
	if err != nil {
		return nil, nil, err
	}
	return text(l.Text()), nil, nil
}

func (s *Server) readSkillResource(ctx context.Context, _ *mcp.CallToolRequest, in ResourceArg) (*mcp.CallToolResult, any, error) {
	e, err := s.lookup(in.Name)
	if err != nil {
		return nil, nil, err
	}
	if len(in.Path) > maxPathLen {
		return nil, nil, fmt.Errorf("path is %d bytes; at most %d", len(in.Path), maxPathLen)
	}
	if !e.Kind.Knowledge() || s.cat.Library == nil {
		return nil, nil, fmt.Errorf("%s is an executable skill without files; load_skill shows its spec", e.Name)
	}
	data, err := s.cat.Library.ReadResource(e.ID, in.Path)
	if err != nil {
		return nil, nil, err
	}
	if isText(data) {
		return text(string(data)), nil, nil
	}
	c, _ := knowledge.CleanResourcePath(in.Path)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
		URI: skillURI(e.Name, c), MIMEType: mimeType(c), Blob: data}}}}, nil, nil
}

func isText(data []byte) bool { return utf8.Valid(data) && !bytes.ContainsRune(data, 0) }

// mimeType guesses a resource's type from its name (markdown for a skill's
// instructions).
func mimeType(p string) string {
	switch ext := strings.ToLower(path.Ext(p)); ext {
	case "", ".md":
		return "text/markdown"
	case ".yaml", ".yml":
		return "application/yaml"
	default:
		if t := mime.TypeByExtension(ext); t != "" {
			return t
		}
	}
	return "application/octet-stream"
}

// goalView is the goal's progress in an observation (nil without a goal).
func (s *Server) goalView(obs loop.Observation) *GoalStatus {
	if s.goal == "" {
		return nil
	}
	return &GoalStatus{Goal: s.goal, Met: obs.Progress.Met, Unmet: obs.Progress.Unmet}
}

// look observes the body and follows a tier change. The caller holds mu.
func (s *Server) look(ctx context.Context) (loop.Observation, error) {
	obs, err := s.loop.Observe(ctx)
	if err != nil {
		return obs, err
	}
	if obs.Snapshot.TechState != s.tier {
		s.log.Info().Str("from", s.tier).Str("to", obs.Snapshot.TechState).Msg("tier changed")
	}
	// The packs or the library may have changed too: sync always (it only
	// touches what differs).
	if err := s.sync(obs.Snapshot.TechState); err != nil {
		s.log.Warn().Err(err).Msg("skill tools not updated")
	}
	return obs, nil
}

func (s *Server) observe(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, *Observation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	obs, err := s.look(ctx)
	if err != nil {
		return nil, nil, bodyError(err)
	}
	o := observation(obs, s.goalView(obs))
	return nil, &o, nil
}

// bodyError reports a body that could not be observed (a lost
// connection) as the tool's failure.
func bodyError(err error) error {
	return fmt.Errorf("the body did not answer: %w", err)
}

func (s *Server) goalStatus(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, *GoalStatus, error) {
	if s.goal == "" {
		return nil, nil, fmt.Errorf("no goal was given: start the agent's MCP server with --goal \"...\" to track one")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	obs, err := s.look(ctx)
	if err != nil {
		return nil, nil, bodyError(err)
	}
	return nil, s.goalView(obs), nil
}

func (s *Server) setPacks(ctx context.Context, _ *mcp.CallToolRequest, in PacksArg) (*mcp.CallToolResult, *PacksResult, error) {
	if len(in.Packs) > maxParams {
		return nil, nil, fmt.Errorf("%d packs; at most %d", len(in.Packs), maxParams)
	}
	known := s.reg.Packs().Names()
	packs := []string{}
	for _, p := range in.Packs {
		if !slices.Contains(known, p) {
			return nil, nil, fmt.Errorf("unknown skill pack %q%s (known: %s)", p, suggest.DidYouMean(p, known), strings.Join(known, ", "))
		}
		if !slices.Contains(packs, p) {
			packs = append(packs, p)
		}
	}
	if len(packs) == 0 {
		packs = known
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.reg.Packs().Resolve(s.tier, packs); err != nil {
		return nil, nil, fmt.Errorf("packs %s: %v", strings.Join(packs, ", "), err)
	}
	if err := s.loop.SetPacks(packs); err != nil {
		return nil, nil, err
	}
	old := s.packs
	s.packs = packs
	if err := s.sync(s.tier); err != nil {
		s.packs = old
		_ = s.loop.SetPacks(old)
		return nil, nil, err
	}
	return nil, &PacksResult{Enabled: slices.Clone(packs), Active: s.activePacks(s.tier), Tier: s.tier}, nil
}

func (s *Server) invokeSkill(ctx context.Context, _ *mcp.CallToolRequest, in InvokeArg) (*mcp.CallToolResult, *StepResult, error) {
	return s.invoke(ctx, in.Skill, in.Params)
}

// skillHandler is the handler of one skill's own tool.
func (s *Server) skillHandler(skill string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		params, err := decodeParams(req.Params.Arguments)
		if err != nil {
			return toolError("%v", err), nil
		}
		res, out, err := s.invoke(ctx, skill, params)
		if err != nil {
			return toolError("%v", err), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		if out != nil {
			b, err := json.Marshal(out)
			if err != nil {
				return nil, fmt.Errorf("encoding the step: %w", err)
			}
			res.StructuredContent = json.RawMessage(b)
			if res.Content == nil {
				res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
			}
		}
		return res, nil
	}
}

// decodeParams reads a skill tool's arguments: a JSON object of parameters
// (absent or null: none) with at most maxParams names; boundArgs has kept
// them within maxArgsBytes. Numbers stay json.Number, so integers keep
// every digit.
func decodeParams(raw []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var params map[string]any
	if err := dec.Decode(&params); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object of parameters: %v", err)
	}
	if dec.More() {
		return nil, errors.New("the arguments are not one JSON object: more follows it")
	}
	if len(params) > maxParams {
		return nil, fmt.Errorf("%d parameters; at most %d", len(params), maxParams)
	}
	return params, nil
}

// invoke runs one invocation through the loop and follows the tier.
func (s *Server) invoke(ctx context.Context, skill string, params map[string]any) (*mcp.CallToolResult, *StepResult, error) {
	switch {
	case skill == "":
		return nil, nil, fmt.Errorf("skill is empty: give an executable skill's name (list_skills)")
	case len(skill) > maxNameLen:
		return nil, nil, fmt.Errorf("skill is %d bytes; skill names are at most %d", len(skill), maxNameLen)
	case len(params) > maxParams:
		return nil, nil, fmt.Errorf("%d parameters; at most %d", len(params), maxParams)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, err := s.loop.Step(ctx, loop.Invocation{Skill: skill, Params: params})
	if err != nil && rec.Invocation == nil {
		return nil, nil, bodyError(err) // nothing ran: the body could not be observed
	}
	if err != nil {
		s.log.Warn().Err(err).Msg("the step ran but its trace was not written")
	}
	out := stepResult(rec)
	out.Skill = skill
	if obs, err := s.look(ctx); err != nil {
		s.log.Warn().Err(err).Msg("observing after the step")
	} else {
		out.Goal = s.goalView(obs)
	}
	if rec.Verdict == loop.Rejected {
		return toolError("rejected: %s%s", rec.Error, s.hint(rec, params)), &out, nil
	}
	return nil, &out, nil
}

// hint adds to a rejection what the model most likely meant: the skill's
// tier when it exists but is not available now, a close skill name, or a
// close parameter name.
func (s *Server) hint(rec loop.StepRecord, params map[string]any) string {
	skill := rec.Invocation.Skill
	tier := rec.Before.TechState
	avail, err := s.reg.DescribeForTechState(tier, s.packs)
	if err != nil && !errors.Is(err, registry.ErrNoPacks) {
		return ""
	}
	var names []string
	var desc *registry.Description
	for _, d := range avail {
		names = append(names, d.Name)
		if d.Name == skill {
			desc = d
		}
	}
	slices.Sort(names)
	if desc == nil {
		if d, err := s.reg.Describe(skill); err == nil {
			if !knowledge.TierAllows(s.reg.Tiers(), d.Preconditions.TechStatesAnyOf, tier) {
				return fmt.Sprintf("; %s is for tiers %s and the body is at %s", skill, strings.Join(d.Preconditions.TechStatesAnyOf, ", "), tier)
			}
			return fmt.Sprintf("; %s is in none of the packs active at %s (%s)", skill, tier, strings.Join(s.activePacks(tier), ", "))
		}
		if m := suggest.DidYouMean(skill, names); m != "" {
			return m
		}
		return "; available now: " + strings.Join(names, ", ")
	}
	var hints []string
	known := desc.ParamNames()
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, ok := desc.Params[k]; !ok {
			if m := suggest.Closest(k, known); m != "" {
				hints = append(hints, fmt.Sprintf("%q: did you mean %q?", k, m))
			}
		}
	}
	if len(hints) > 0 {
		return " (" + strings.Join(hints, "; ") + ")"
	}
	return ""
}

// resourceRef is what one resource serves: a knowledge skill's
// instructions (path "") or one of its files.
type resourceRef struct {
	id    string
	path  string
	title string
	desc  string
}

func (s *Server) resourceHandler(ref resourceRef) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		if ref.path == "" {
			l, err := s.cat.LoadSkill(ref.id)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", uri, err)
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: l.Text()}}}, nil
		}
		data, err := s.cat.Library.ReadResource(ref.id, ref.path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", uri, err)
		}
		c := &mcp.ResourceContents{URI: uri, MIMEType: mimeType(ref.path)}
		if isText(data) {
			c.Text = string(data)
		} else {
			c.Blob = data
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
	}
}

func (s *Server) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallArg) (*mcp.CallToolResult, *RecallResult, error) {
	if len(in.Block) > maxNameLen {
		return nil, nil, fmt.Errorf("block is %d bytes; block ids are at most %d", len(in.Block), maxNameLen)
	}
	id, meta, err := world.SplitID(in.Block)
	if err != nil {
		return nil, nil, fmt.Errorf("block: %v", err)
	}
	dist, limit := in.MaxDistance, in.Limit
	if dist == 0 {
		dist = 256
	}
	if limit == 0 {
		limit = 8
	}
	if dist < 1 || dist > 4096 || limit < 1 || limit > 64 {
		return nil, nil, fmt.Errorf("max_distance must be 1..4096 and limit 1..64, got %d and %d", in.MaxDistance, in.Limit)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	obs, err := s.look(ctx)
	if err != nil {
		return nil, nil, bodyError(err)
	}
	snap := obs.Snapshot
	if snap.Recall == nil {
		return nil, nil, fmt.Errorf("the bot remembers nothing in this session: start the agent's MCP server with --memory FILE (on a server the memory is on by default)")
	}
	pos := snap.Recall.RecallBlocks(id, meta, snap.Feet(), dist, limit)
	if pos == nil {
		pos = []world.BlockPos{}
	}
	return nil, &RecallResult{Block: in.Block, Positions: pos}, nil
}
