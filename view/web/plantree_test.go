package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// planWith is a planner that answers with a tree.
func planWith(tree *loop.PlanNode) loop.Planner {
	return loop.PlannerFunc(func(context.Context, loop.Goal, loop.Observation, []*registry.Description) (loop.Decision, error) {
		return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}, Reason: "towards 4 minecraft:log", Tree: tree}, nil
	})
}

// TestUpdatesCarryThePlanTree: each decision's plan tree reaches the
// browser in the next update, the step chosen marked.
func TestUpdatesCarryThePlanTree(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := web.New(web.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go v.Publish(ctx, web.DefaultInterval)
		good := &streamWriter{ctx: ctx}
		go v.Handler(web.ServeOptions{}).ServeHTTP(good, httptest.NewRequest(http.MethodGet, "/api/events", nil).WithContext(ctx))
		synctest.Wait()
		require.Nil(t, good.updates()[0].Status.Decision, "no decision yet")

		tree := &loop.PlanNode{Label: "have 4 minecraft:log", State: loop.PlanActive, Children: []*loop.PlanNode{
			{Label: "4 minecraft:log", State: loop.PlanActive, Note: "have 0; via chop_tree", Children: []*loop.PlanNode{
				{Label: "chop_tree", State: loop.PlanStep},
			}},
			{Label: "have 1 minecraft:planks", State: loop.PlanPending},
		}}
		obs := loop.Observation{Step: 3, Snapshot: &world.Snapshot{}}
		_, err := v.Planner(planWith(tree)).Plan(ctx, loop.Goal{}, obs, nil)
		require.NoError(t, err)
		<-time.After(time.Second) // fake time: the publisher's interval passes
		synctest.Wait()
		us := good.updates()
		d := us[len(us)-1].Status.Decision
		require.NotNil(t, d)
		require.NotNil(t, d.Tree, "the update carries the tree")
		assert.Equal(t, tree.String(), d.Tree.String())
		assert.Equal(t, "chop_tree", d.Tree.Step().Label)
		assert.Equal(t, 3, d.Step)

		// The next decision, without a tree (a planner that gives none):
		// the old tree is not shown with it.
		_, err = v.Planner(planWith(nil)).Plan(ctx, loop.Goal{}, obs, nil)
		require.NoError(t, err)
		<-time.After(time.Second) // fake time: the publisher's interval passes
		synctest.Wait()
		us = good.updates()
		d = us[len(us)-1].Status.Decision
		require.NotNil(t, d)
		assert.Nil(t, d.Tree)
		cancel()
	})
}

// TestPlanTreeIsBounded: a tree far past MaxPlanNodes (a planner in
// a planner may give any tree) is cut to MaxPlanNodes nodes, the way
// to the step kept even at the end of the tree, and each text to
// MaxPlanText bytes.
func TestPlanTreeIsBounded(t *testing.T) {
	root := &loop.PlanNode{Label: "goal", State: loop.PlanActive}
	for i := range 5000 {
		root.Children = append(root.Children, &loop.PlanNode{Label: fmt.Sprintf("part %d", i), State: loop.PlanPending})
	}
	way := &loop.PlanNode{Label: strings.Repeat("é", web.MaxPlanText), State: loop.PlanActive, Note: "n",
		Children: []*loop.PlanNode{{Label: "the step", State: loop.PlanStep}}}
	root.Children = append(root.Children, way)
	v := web.New(web.Options{})
	_, err := v.Planner(planWith(root)).Plan(context.Background(), loop.Goal{}, loop.Observation{Snapshot: &world.Snapshot{}}, nil)
	require.NoError(t, err)
	got := v.Status().Decision.Tree
	require.NotNil(t, got)
	assert.Equal(t, web.MaxPlanNodes, got.Len())
	require.NotNil(t, got.Step(), "the step is kept")
	assert.Equal(t, "the step", got.Step().Label)
	assert.Equal(t, "part 0", got.Children[0].Label, "the others in order after the way")
	long := got.Children[len(got.Children)-1]
	assert.Equal(t, loop.PlanActive, long.State, "the way keeps its place among its siblings")
	assert.LessOrEqual(t, len(long.Label), web.MaxPlanText+len("…"))
	assert.True(t, utf8.ValidString(long.Label), "cut on a character's boundary")
	assert.True(t, strings.HasSuffix(long.Label, "…"))
	assert.Len(t, root.Children, 5001, "the planner's tree is not touched")
}
