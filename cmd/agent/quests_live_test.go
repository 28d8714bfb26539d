package main

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// bookServer is a test server with BetterQuesting and the example book's
// first three quests ("Wood Start": 3 logs; "Planks": 4 planks, an iron
// pickaxe head and sticks, and a choice whose second option is 2 apples;
// "Read the Book": a checkbox, task readBox).
func bookServer(t *testing.T, readBox int32) *fakeserver.Server {
	t.Helper()
	srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick,
		Mods: append(fakeserver.DefaultMods(), proto17.ModInfo{ModID: "betterquesting", Version: "3.7.15-GTNH"}),
		Quests: []fakeserver.Quest{
			{ID: [2]int64{0, 1}, Items: []fakeserver.Item{{Name: "minecraft:log", Count: 3}}},
			{ID: [2]int64{0, 2}, Items: []fakeserver.Item{{Name: "minecraft:planks", Count: 4}},
				Reward: []fakeserver.Item{{Name: "TConstruct:pickaxeHead", Damage: 2, Count: 1}, {Name: "minecraft:stick", Count: 4}},
				Choice: []fakeserver.Item{{Name: "minecraft:flint", Count: 1}, {Name: "minecraft:apple", Count: 2}}},
			{ID: [2]int64{0, 3}, Checkboxes: []int32{readBox}},
		}}))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// TestRunQuestOnTheServersBook: on a server with BetterQuesting and the
// book's clicks allowed, the agent submits each quest whose items it holds,
// claims the rewards it needs with the option picked, and ticks the
// checkbox; each counts once the server's book completed it, and the
// server holds the progress and gave the items.
func TestRunQuestOnTheServersBook(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := bookServer(t, 0)
		code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--config-file", agentYAML(t, steamTick),
			"--quests", questBook, "--quests-checkbox", "--goal", `quest "Read the Book"`, "--max-steps", "40")
		require.Equal(t, exitOK, code, out+errOut)
		assert.Contains(t, out, "quest completed: Wood Start")
		// On a server the agent does not know which items exist before it
		// joins: it takes the first option, the coin.
		assert.Contains(t, out, "quest completed: Planks (1 steps, 0 ticks); rewards claimed: 1 TConstruct:pickaxeHead:2, 4 minecraft:stick, 1 examplemod:coin\n")
		assert.Contains(t, out, "quest completed: Read the Book")
		assert.NotContains(t, out, "(the server")
		for low := int64(1); low <= 3; low++ {
			assert.True(t, srv.QuestState("Bot", [2]int64{0, low}).Completed, "quest %d on the server", low)
		}
		assert.Equal(t, []int32{0}, srv.QuestState("Bot", [2]int64{0, 3}).Ticked)
		assert.True(t, srv.QuestState("Bot", [2]int64{0, 2}).Claimed)
		assert.False(t, srv.QuestState("Bot", [2]int64{0, 1}).Claimed, "its coins are left in the book")
		p := player(t, srv)
		assert.Equal(t, 1, p.Count("minecraft:flint"), "the option picked")
		assert.Zero(t, p.Count("minecraft:apple"), "the option not picked")
		head := 0
		for _, it := range p.Inventory {
			if it.Name == "TConstruct:pickaxeHead" && it.Damage == 2 {
				head += it.Count
			}
		}
		assert.Equal(t, 1, head, "the iron pickaxe head")
	})
}

// TestRunQuestTheServerRefuses: a quest the agent judges done but the
// server's book does not complete (its checkbox is another task there) is
// not counted, and the reason says the server did not report it.
func TestRunQuestTheServerRefuses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := bookServer(t, 1)
		code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--config-file", agentYAML(t, steamTick),
			"--quests", questBook, "--quests-checkbox", "--goal", `quest "Read the Book"`, "--max-steps", "40")
		require.Equal(t, exitFail, code, out+errOut)
		assert.Contains(t, out, "quest not completed: Read the Book: the server's quest book: the server did not report the quest completed within 200 ticks")
		assert.Contains(t, out, "\n2 of 3 quests")
		assert.False(t, srv.QuestState("Bot", [2]int64{0, 3}).Completed)
	})
}
