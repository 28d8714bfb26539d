package registry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/packs"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// fakeImpl is an Implementation built from a function field.
type fakeImpl struct {
	name    string
	suggest func(w *world.Snapshot, p skills.Params) ([]action.Action, error)
}

func (f fakeImpl) Name() string { return f.name }
func (f fakeImpl) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	if f.suggest == nil {
		return []action.Action{action.Wait{Ticks: 1}}, nil
	}
	return f.suggest(w, p)
}

var _ skills.Implementation = fakeImpl{}

// spec builds a go spec from a few fields; extra is appended YAML.
func spec(t *testing.T, name string, version int, status string, extra string) *skills.Spec {
	t.Helper()
	doc := fmt.Sprintf("name: %s\nversion: %d\nstatus: %s\ndescription: test skill %s\nemits: [wait, move_to]\n%s", name, version, status, name, extra)
	s, err := skills.ParseSpec("", []byte(doc))
	require.NoError(t, err)
	return s
}

func templateSpec(t *testing.T, name string) *skills.Spec {
	t.Helper()
	doc := fmt.Sprintf("name: %s\nversion: 1\ndescription: a template\naction_sequence:\n  - type: chat\n    message: hello {player}\n", name)
	s, err := skills.ParseSpec("", []byte(doc))
	require.NoError(t, err)
	return s
}

func snapshot() *world.Snapshot {
	return &world.Snapshot{
		Player:    world.Player{Name: "Bot", Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}, Dimension: world.Overworld, Health: 20, Food: 20},
		Inventory: world.NewInventory(),
		Blocks:    world.NewSparseBlocks(),
		TechState: "stone_age",
	}
}

func TestRegister(t *testing.T) {
	newReg := func(t *testing.T) *Registry {
		r, err := New([]*skills.Spec{
			spec(t, "alpha", 1, "active", ""),
			spec(t, "old", 1, "deprecated", ""),
			templateSpec(t, "tmpl"),
		}, Options{})
		require.NoError(t, err)
		return r
	}
	tests := []struct {
		name    string
		prepare func(r *Registry)
		impl    skills.Implementation
		wantErr error
	}{
		{"ok", nil, fakeImpl{name: "alpha"}, nil},
		{"no spec", nil, fakeImpl{name: "ghost"}, ErrNoSpec},
		{"duplicate", func(r *Registry) { require.NoError(t, r.Register(fakeImpl{name: "alpha"})) }, fakeImpl{name: "alpha"}, ErrDuplicate},
		{"deprecated", nil, fakeImpl{name: "old"}, ErrDeprecated},
		{"template needs none", nil, fakeImpl{name: "tmpl"}, ErrNotGo},
		{"after finalize", func(r *Registry) {
			require.NoError(t, r.Register(fakeImpl{name: "alpha"}))
			require.NoError(t, r.Finalize())
		}, fakeImpl{name: "alpha"}, ErrFinalized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newReg(t)
			if tc.prepare != nil {
				tc.prepare(r)
			}
			err := r.Register(tc.impl)
			if tc.wantErr == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tc.wantErr)
				assert.Contains(t, err.Error(), tc.impl.Name())
			}
		})
	}
}

func TestFinalize(t *testing.T) {
	r, err := New([]*skills.Spec{
		spec(t, "alpha", 1, "active", ""),
		spec(t, "beta", 1, "active", ""),
		spec(t, "gamma", 1, "candidate", ""),
		templateSpec(t, "tmpl"),
	}, Options{})
	require.NoError(t, err)
	err = r.Finalize()
	require.ErrorIs(t, err, ErrMissingImpl)
	assert.Contains(t, err.Error(), "alpha@1")
	assert.Contains(t, err.Error(), "beta@1")
	assert.NotContains(t, err.Error(), "gamma", "candidates need no implementation until promoted")
	assert.NotContains(t, err.Error(), "tmpl", "template skills need no Go code")
	assert.False(t, r.Finalized())

	require.NoError(t, r.Register(fakeImpl{name: "alpha"}))
	require.NoError(t, r.Register(fakeImpl{name: "beta"}))
	require.NoError(t, r.Finalize())
	assert.True(t, r.Finalized())
	assert.Equal(t, []string{"alpha", "beta", "tmpl"}, r.ListSkills())
}

func TestNewRejectsConflicts(t *testing.T) {
	_, err := New([]*skills.Spec{spec(t, "a", 1, "active", ""), spec(t, "a", 1, "candidate", "")}, Options{})
	assert.ErrorIs(t, err, ErrConflict)
	_, err = New([]*skills.Spec{spec(t, "a", 1, "active", ""), spec(t, "a", 2, "active", "")}, Options{})
	require.ErrorIs(t, err, ErrConflict)
	assert.Contains(t, err.Error(), "a@1, a@2")
}

func versioned(t *testing.T, opts Options) *Registry {
	t.Helper()
	r, err := New([]*skills.Spec{
		spec(t, "chop", 1, "deprecated", ""),
		spec(t, "chop", 2, "active", ""),
		spec(t, "chop", 3, "candidate", ""),
		spec(t, "fresh", 1, "candidate", ""),
		spec(t, "gone", 1, "deprecated", ""),
	}, opts)
	require.NoError(t, err)
	require.NoError(t, r.Register(fakeImpl{name: "chop"}))
	require.NoError(t, r.Register(fakeImpl{name: "fresh"}))
	require.NoError(t, r.Finalize())
	return r
}

func TestVersionGating(t *testing.T) {
	tests := []struct {
		policy  Policy
		list    []string
		chopVer int
	}{
		{ActiveOnly, []string{"chop"}, 2},
		{CandidatesAsFallback, []string{"chop", "fresh"}, 2},
		{PreferCandidates, []string{"chop", "fresh"}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.policy.String(), func(t *testing.T) {
			r := versioned(t, Options{Policy: tc.policy})
			assert.Equal(t, tc.list, r.ListSkills())
			sk, err := r.GetSkill("chop")
			require.NoError(t, err)
			assert.Equal(t, tc.chopVer, sk.Version())
			descs := r.DescribeAll()
			require.Len(t, descs, len(tc.list))
			assert.Equal(t, tc.chopVer, descs[0].Version)
			_, err = r.GetSkill("gone")
			assert.ErrorIs(t, err, ErrUnknownSkill)
		})
	}
	r := versioned(t, Options{})
	_, err := r.GetSkill("fresh")
	require.ErrorIs(t, err, ErrUnknownSkill)
	assert.Contains(t, err.Error(), "only candidate versions")
	old, err := r.GetSkillVersion("chop", 1)
	require.NoError(t, err, "deprecated versions stay reachable by explicit version")
	assert.Equal(t, 1, old.Version())
	require.NoError(t, r.SetPolicy(PreferCandidates))
	sk, err := r.GetSkill("fresh")
	require.NoError(t, err)
	assert.Equal(t, skills.StatusCandidate, sk.Spec().Status)
	assert.Error(t, r.SetPolicy(Policy(9)))
}

func TestParsePolicy(t *testing.T) {
	for _, p := range []Policy{ActiveOnly, CandidatesAsFallback, PreferCandidates} {
		got, err := ParsePolicy(p.String())
		require.NoError(t, err)
		assert.Equal(t, p, got)
	}
	_, err := ParsePolicy("newest")
	assert.ErrorIs(t, err, ErrUnknownPolicy)
}

func TestPromoteCandidate(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	r := versioned(t, Options{StatePath: state})
	require.NoError(t, r.PromoteCandidate("chop", 3))
	sk, err := r.GetSkill("chop")
	require.NoError(t, err)
	assert.Equal(t, 3, sk.Version())
	vs, err := r.Versions("chop")
	require.NoError(t, err)
	assert.Equal(t, []skills.Status{skills.StatusDeprecated, skills.StatusDeprecated, skills.StatusActive},
		[]skills.Status{vs[0].Status, vs[1].Status, vs[2].Status})

	assert.ErrorIs(t, r.PromoteCandidate("chop", 3), ErrNotCandidate)
	assert.ErrorIs(t, r.PromoteCandidate("chop", 9), ErrUnknownSkill)
	assert.ErrorIs(t, r.PromoteCandidate("nope", 1), ErrUnknownSkill)

	// The promotion survives a restart.
	again := versioned(t, Options{StatePath: state})
	sk, err = again.GetSkill("chop")
	require.NoError(t, err)
	assert.Equal(t, 3, sk.Version())

	// A go candidate without an implementation cannot be promoted.
	r2, err := New([]*skills.Spec{spec(t, "x", 1, "candidate", "")}, Options{})
	require.NoError(t, err)
	assert.ErrorIs(t, r2.PromoteCandidate("x", 1), ErrNotRunnable)
}

func TestUpdateSpec(t *testing.T) {
	r := versioned(t, Options{})
	s := spec(t, "chop", 2, "active", "")
	s.Description = "improved wording"
	require.NoError(t, r.UpdateSpec(s))
	d, err := r.Describe("chop")
	require.NoError(t, err)
	assert.Equal(t, "improved wording", d.Description)

	s.Description = "mutating the caller's copy must not leak in"
	d, _ = r.Describe("chop")
	assert.Equal(t, "improved wording", d.Description)

	require.NoError(t, r.UpdateSpec(spec(t, "chop", 4, "candidate", "")), "new versions can be added")
	vs, _ := r.Versions("chop")
	assert.Len(t, vs, 4)

	assert.ErrorIs(t, r.UpdateSpec(spec(t, "chop", 5, "active", "")), ErrConflict)
	bad := spec(t, "chop", 6, "candidate", "")
	bad.Emits = nil
	assert.ErrorIs(t, r.UpdateSpec(bad), ErrInvalidSpec)
	assert.ErrorIs(t, r.UpdateSpec(spec(t, "brand_new", 1, "active", "")), ErrMissingImpl, "after Finalize an active go spec needs an implementation")
	require.NoError(t, r.UpdateSpec(templateSpec(t, "new_template")))
	assert.Contains(t, r.ListSkills(), "new_template")
}

func TestRecordOutcomeMovingAverage(t *testing.T) {
	r := versioned(t, Options{Alpha: 0.5})
	m, err := r.RecordOutcome("chop", 0, true, 100)
	require.NoError(t, err)
	assert.InDelta(t, 1.0, *m.SuccessRate, 1e-9)
	assert.InDelta(t, 100.0, *m.AvgCost, 1e-9)
	m, err = r.RecordOutcome("chop", 0, false, 200)
	require.NoError(t, err)
	// n=2: w = max(0.5, 1/2) = 0.5
	assert.InDelta(t, 0.5, *m.SuccessRate, 1e-9)
	assert.InDelta(t, 150.0, *m.AvgCost, 1e-9)
	m, err = r.RecordOutcome("chop", 0, false, 50)
	require.NoError(t, err)
	// n=3: w = max(0.5, 1/3) = 0.5
	assert.InDelta(t, 0.25, *m.SuccessRate, 1e-9)
	assert.InDelta(t, 100.0, *m.AvgCost, 1e-9)
	assert.Equal(t, 3, m.Samples)

	// Default alpha 0.2: the first five samples are an exact mean.
	r = versioned(t, Options{})
	outcomes := []bool{true, false, true, true, false}
	for i, ok := range outcomes {
		m, err = r.RecordOutcome("chop", 2, ok, float64(10*(i+1)))
		require.NoError(t, err)
	}
	assert.InDelta(t, 0.6, *m.SuccessRate, 1e-9)
	assert.InDelta(t, 30.0, *m.AvgCost, 1e-9)
	m, err = r.RecordOutcome("chop", 2, true, 30)
	require.NoError(t, err)
	assert.InDelta(t, 0.6+0.2*0.4, *m.SuccessRate, 1e-9)

	d, _ := r.Describe("chop")
	assert.Equal(t, 6, d.Metrics.Samples, "descriptions reflect new metrics")

	_, err = r.RecordOutcome("chop", 0, true, -1)
	assert.Error(t, err)
	_, err = r.RecordOutcome("nope", 0, true, 1)
	assert.ErrorIs(t, err, ErrUnknownSkill)
	_, err = r.RecordOutcome("chop", 7, true, 1)
	assert.ErrorIs(t, err, ErrUnknownSkill)
}

func TestMetricsPersistence(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "sub", "state.json")
	r := versioned(t, Options{StatePath: state})
	_, err := r.RecordOutcome("chop", 0, true, 40)
	require.NoError(t, err)
	_, err = r.RecordOutcome("chop", 0, false, 60)
	require.NoError(t, err)

	again := versioned(t, Options{StatePath: state})
	d, err := again.Describe("chop")
	require.NoError(t, err)
	require.NotNil(t, d.Metrics.SuccessRate)
	assert.InDelta(t, 0.5, *d.Metrics.SuccessRate, 1e-9)
	assert.InDelta(t, 50.0, *d.Metrics.AvgCost, 1e-9)
	assert.Equal(t, 2, d.Metrics.Samples)

	entries, err := os.ReadDir(filepath.Dir(state))
	require.NoError(t, err)
	require.Len(t, entries, 1, "the atomic write leaves no temporary files")

	// Entries of skills this configuration does not load are preserved.
	_, err = New([]*skills.Spec{spec(t, "other", 1, "active", "")}, Options{StatePath: state})
	require.NoError(t, err)
	data, err := os.ReadFile(state)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"chop@2"`)
}

func TestCorruptState(t *testing.T) {
	cases := map[string]string{
		"syntax":        "{\n  \"format\": 1,\n  \"skills\": {\n    \"chop@2\": {\"metrics\": {\"success_rate\": 0.5,}}\n  }\n}\n",
		"truncated":     `{"format": 1, "skills": {"chop@2": {"metrics"`,
		"unknown field": `{"format": 1, "skills": {}, "extra": true}`,
		"bad format":    `{"format": 7, "skills": {}}`,
		"bad rate":      `{"format": 1, "skills": {"chop@2": {"metrics": {"success_rate": 3}}}}`,
		"bad key":       `{"format": 1, "skills": {"chop": {"metrics": {}}}}`,
		"bad status":    `{"format": 1, "skills": {"chop@2": {"status": "retired", "metrics": {}}}}`,
		"trailing":      `{"format": 1, "skills": {}} {}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
			_, err := New([]*skills.Spec{spec(t, "chop", 2, "active", "")}, Options{StatePath: path})
			require.ErrorIs(t, err, ErrCorruptState)
			assert.Contains(t, err.Error(), path)
			after, _ := os.ReadFile(path)
			assert.Equal(t, content, string(after), "a corrupt file is reported, not reset")
		})
	}
	path := filepath.Join(t.TempDir(), "state.json")
	require.NoError(t, os.WriteFile(path, []byte(cases["syntax"]), 0o644))
	_, err := New(nil, Options{StatePath: path})
	assert.Contains(t, err.Error(), "line 4", "syntax errors name the line")
}

func TestSuggest(t *testing.T) {
	params := "params:\n  n:\n    type: int\n    default: 2\n    max: 5\n    description: n\n"
	specs := []*skills.Spec{
		spec(t, "good", 1, "active", params),
		spec(t, "panics", 1, "active", ""),
		spec(t, "sneaky", 1, "active", ""),
		spec(t, "broken", 1, "active", ""),
		spec(t, "nether_only", 1, "active", "preconditions:\n  dimension_allowlist: [nether]\n"),
		spec(t, "fails", 1, "active", ""),
		templateSpec(t, "greet"),
	}
	r, err := New(specs, Options{})
	require.NoError(t, err)
	require.NoError(t, r.Register(fakeImpl{name: "good", suggest: func(_ *world.Snapshot, p skills.Params) ([]action.Action, error) {
		return []action.Action{action.Wait{Ticks: action.Ticks(p.Int("n"))}}, nil
	}}))
	require.NoError(t, r.Register(fakeImpl{name: "panics", suggest: func(*world.Snapshot, skills.Params) ([]action.Action, error) {
		var m map[string]int
		m["boom"] = 1
		return nil, nil
	}}))
	require.NoError(t, r.Register(fakeImpl{name: "sneaky", suggest: func(*world.Snapshot, skills.Params) ([]action.Action, error) {
		return []action.Action{action.Chat{Message: "not declared"}}, nil
	}}))
	require.NoError(t, r.Register(fakeImpl{name: "broken", suggest: func(*world.Snapshot, skills.Params) ([]action.Action, error) {
		return []action.Action{action.Wait{Ticks: 0}}, nil
	}}))
	require.NoError(t, r.Register(fakeImpl{name: "nether_only"}))
	require.NoError(t, r.Register(fakeImpl{name: "fails", suggest: func(*world.Snapshot, skills.Params) ([]action.Action, error) {
		return nil, skills.Failf(skills.CodeNoTarget, "nothing here")
	}}))
	require.NoError(t, r.Finalize())

	tests := []struct {
		skill    string
		params   map[string]any
		wantCode skills.Code
		check    func(t *testing.T, s Suggestion)
	}{
		{"good", nil, "", func(t *testing.T, s Suggestion) {
			assert.Equal(t, []action.Action{action.Wait{Ticks: 2}}, s.Actions)
			assert.Equal(t, 2, s.Params.Int("n"))
		}},
		{"good", map[string]any{"n": 4.0}, "", func(t *testing.T, s Suggestion) {
			assert.Equal(t, []action.Action{action.Wait{Ticks: 4}}, s.Actions, "JSON numbers are coerced")
		}},
		{"good", map[string]any{"n": 9}, skills.CodeInvalidParams, nil},
		{"good", map[string]any{"m": 1}, skills.CodeInvalidParams, nil},
		{"panics", nil, skills.CodePanic, nil},
		{"sneaky", nil, skills.CodeUndeclared, nil},
		{"broken", nil, skills.CodeInternal, nil},
		{"nether_only", nil, skills.CodeWrongDimension, nil},
		{"fails", nil, skills.CodeNoTarget, nil},
		{"greet", nil, "", func(t *testing.T, s Suggestion) {
			assert.Equal(t, []action.Action{action.Chat{Message: "hello Bot"}}, s.Actions)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.skill+"/"+string(tc.wantCode), func(t *testing.T) {
			sk, err := r.GetSkill(tc.skill)
			require.NoError(t, err)
			sug, err := sk.Suggest(snapshot(), tc.params)
			if tc.wantCode == "" {
				require.NoError(t, err)
				tc.check(t, sug)
				return
			}
			var f *skills.Failure
			require.True(t, errors.As(err, &f), "want *skills.Failure, got %T %v", err, err)
			assert.Equal(t, tc.wantCode, f.Code, f.Msg)
			assert.Equal(t, tc.skill+"@1", f.Skill)
		})
	}
	sk, _ := r.GetSkill("good")
	_, err = sk.Suggest(nil, nil)
	assert.Error(t, err)
}

func testPacks(t *testing.T, files map[string]string) *packs.Set {
	t.Helper()
	var list []*packs.Pack
	for name, content := range files {
		p, err := packs.ParsePack(name, []byte(content), nil)
		require.NoError(t, err)
		list = append(list, p)
	}
	set, err := packs.NewSet(nil, list...)
	require.NoError(t, err)
	return set
}

func TestDescribeForTechState(t *testing.T) {
	set := testPacks(t, map[string]string{
		"early.yaml": "name: early\nrequires_tech_state: \">= stone_age\"\nskills: [beta, alpha]\n",
		"steam.yaml": "name: steam\nrequires_tech_state: steam_age..lv\ndepends_on_packs: [early]\nskills: [gamma, alpha]\n",
	})
	r, err := New([]*skills.Spec{
		spec(t, "alpha", 1, "active", ""), spec(t, "beta", 1, "active", ""), spec(t, "gamma", 1, "active", ""),
	}, Options{Packs: set})
	require.NoError(t, err)
	for _, n := range []string{"alpha", "beta", "gamma"} {
		require.NoError(t, r.Register(fakeImpl{name: n}))
	}
	require.NoError(t, r.Finalize())

	names := func(ds []*Description) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Name)
		}
		return out
	}
	ds, err := r.DescribeForTechState("stone_age", []string{"early", "steam"})
	require.NoError(t, err)
	assert.Equal(t, []string{"beta", "alpha"}, names(ds), "pack order is kept")
	ds, err = r.DescribeForTechState("lv", []string{"steam"})
	require.NoError(t, err)
	assert.Equal(t, []string{"beta", "alpha", "gamma"}, names(ds), "dependencies come first")
	ds, err = r.DescribeForTechState("mv", []string{"steam"})
	require.NoError(t, err)
	assert.Equal(t, []string{"beta", "alpha"}, names(ds))

	_, err = r.DescribeForTechState("bronze_age", nil)
	assert.Error(t, err)
	_, err = r.DescribeForTechState("lv", []string{"nope"})
	assert.Error(t, err)

	// Cached results follow metric updates.
	before, _ := r.DescribeForTechState("lv", []string{"steam"})
	assert.Nil(t, before[1].Metrics.SuccessRate)
	_, err = r.RecordOutcome("alpha", 0, true, 5)
	require.NoError(t, err)
	after, _ := r.DescribeForTechState("lv", []string{"steam"})
	require.NotNil(t, after[1].Metrics.SuccessRate)

	noPacks, err := New(nil, Options{})
	require.NoError(t, err)
	_, err = noPacks.DescribeForTechState("lv", nil)
	assert.ErrorIs(t, err, ErrNoPacks)
}

func TestPacksNamingUnknownSkills(t *testing.T) {
	set := testPacks(t, map[string]string{"p.yaml": "name: p\nrequires_tech_state: lv\nskills: [alpha, ghost]\n"})
	_, err := New([]*skills.Spec{spec(t, "alpha", 1, "active", "")}, Options{Packs: set})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "p.yaml:3:")
	assert.Contains(t, err.Error(), `unknown skill "ghost"`)
}

func TestConcurrentUse(t *testing.T) {
	set := testPacks(t, map[string]string{"all.yaml": "name: all\nrequires_tech_state: any\nskills: [chop]\n"})
	r := versioned(t, Options{Packs: set, StatePath: filepath.Join(t.TempDir(), "s.json")})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				switch (i + j) % 4 {
				case 0:
					_, err := r.RecordOutcome("chop", 0, j%2 == 0, float64(j))
					assert.NoError(t, err)
				case 1:
					_, err := r.DescribeForTechState("lv", []string{"all"})
					assert.NoError(t, err)
				case 2:
					sk, err := r.GetSkill("chop")
					if assert.NoError(t, err) {
						_, err = sk.Suggest(snapshot(), nil)
						assert.NoError(t, err)
					}
				case 3:
					assert.NotEmpty(t, r.DescribeAll())
				}
			}
		})
	}
	wg.Wait()
	d, err := r.Describe("chop")
	require.NoError(t, err)
	assert.Equal(t, 100, d.Metrics.Samples)
}

func TestProvide(t *testing.T) {
	assert.Panics(t, func() { Provide(nil) })
	assert.Panics(t, func() { Provide(fakeImpl{name: ""}) })
	name := "provide_test_" + strings.ReplaceAll(t.Name(), "/", "_")
	Provide(fakeImpl{name: strings.ToLower(name)})
	t.Cleanup(func() {
		providedMu.Lock()
		delete(provided, strings.ToLower(name))
		providedMu.Unlock()
	})
	assert.Panics(t, func() { Provide(fakeImpl{name: strings.ToLower(name)}) })
	found := false
	for _, impl := range Provided() {
		found = found || impl.Name() == strings.ToLower(name)
	}
	assert.True(t, found)
}
