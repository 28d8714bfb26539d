package quests

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTaskAndRewardIDs: a quest's tasks and rewards keep the ids the
// server's BetterQuesting gives them — their own index, and the lowest
// ids still free for those without one, in order; an id already taken
// names nothing.
func TestTaskAndRewardIDs(t *testing.T) {
	c, err := parseJSON("q.json", []byte(`{"questIDHigh:4": 0, "questIDLow:4": 7,
	  "tasks:9": {
	    "0:10": {"index:3": 2, "taskID:8": "bq_standard:checkbox"},
	    "1:10": {"taskID:8": "bq_standard:checkbox"},
	    "2:10": {"index:3": 0, "taskID:8": "bq_standard:checkbox"},
	    "3:10": {"taskID:8": "bq_standard:checkbox"},
	    "4:10": {"index:3": 2, "taskID:8": "bq_standard:checkbox"},
	    "5:10": {"index:3": -4, "taskID:8": "bq_standard:checkbox"}},
	  "rewards:9": {
	    "0:10": {"rewardID:8": "bq_standard:xp"},
	    "1:10": {"index:3": 0, "rewardID:8": "bq_standard:xp"}}}`))
	require.NoError(t, err)
	q, ok := decodeQuest(c)
	require.True(t, ok)
	var tasks, rewards []int
	for _, tk := range q.Tasks {
		tasks = append(tasks, tk.Index)
	}
	for _, r := range q.Rewards {
		rewards = append(rewards, r.Index)
	}
	assert.Equal(t, []int{2, 1, 0, 3, -1, 4}, tasks)
	assert.Equal(t, []int{1, 0}, rewards)
}
