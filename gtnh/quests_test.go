package gtnh

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// bqSyncPayloads is a quest_sync as the server's NetQuestSync.sendSync
// sends it, cut into BQ_NET_CHAN payloads: each quest with the UUIDs of
// the players who completed it.
func bqSyncPayloads(t *testing.T, merge, reset bool, quests map[int64][]string) [][]byte {
	t.Helper()
	b := func(v bool) int8 {
		if v {
			return 1
		}
		return 0
	}
	data := proto17.List{Type: proto17.TagCompound}
	for low, uuids := range quests {
		done := proto17.List{Type: proto17.TagCompound}
		for _, u := range uuids {
			done.Values = append(done.Values, proto17.Compound{"uuid": u, "timestamp": int64(1)})
		}
		data.Values = append(data.Values, proto17.Compound{"questIDHigh": int64(0), "questIDLow": low,
			"progress": proto17.Compound{"completed": done, "tasks": proto17.List{Type: proto17.TagCompound}}})
	}
	payloads, err := modnet.SplitBQMessage(proto17.Compound{"ID": modnet.BQQuestSync, "merge": b(merge), "resetCompletion": b(reset), "data": data})
	require.NoError(t, err)
	return payloads
}

// TestBetterQuestingProgress: the player's completions in the server's
// quest_sync messages, applied as BetterQuesting's client applies them.
func TestBetterQuestingProgress(t *testing.T) {
	const me, other = "0f4d9c2e-0000-4000-8000-00000000aaaa", "11111111-2222-4333-8444-555555555555"
	c, s := tankClient()
	s.uuid = "0F4D9C2E-0000-4000-8000-00000000AAAA" // as the login sent it
	c.sess = s
	feed := func(payloads [][]byte) {
		for _, p := range payloads {
			require.NoError(t, c.onPlugin(s, modnet.BetterQuestingChannel, p))
		}
	}
	assert.False(t, c.QuestProgress().Synced, "nothing from the server yet")

	// The whole book's progress: quest 15 completed by the player, 16 by
	// someone else only, 17 by nobody.
	feed(bqSyncPayloads(t, false, false, map[int64][]string{15: {other, me}, 16: {other}, 17: nil}))
	got := c.QuestProgress()
	assert.True(t, got.Synced)
	assert.Equal(t, map[[2]int64]bool{{0, 15}: true}, got.Completed)

	// A merging sync of one quest adds its completion.
	feed(bqSyncPayloads(t, true, false, map[int64][]string{17: {me}}))
	assert.Equal(t, map[[2]int64]bool{{0, 15}: true, {0, 17}: true}, c.QuestProgress().Completed)
	// A merging sync that does not list the player keeps what was known…
	feed(bqSyncPayloads(t, true, false, map[int64][]string{15: nil}))
	assert.Equal(t, map[[2]int64]bool{{0, 15}: true, {0, 17}: true}, c.QuestProgress().Completed)
	// …one that resets completion (an admin's reset) takes it away.
	feed(bqSyncPayloads(t, true, true, map[int64][]string{15: nil}))
	assert.Equal(t, map[[2]int64]bool{{0, 17}: true}, c.QuestProgress().Completed)

	// A broken piece is counted and dropped; another message is skipped.
	require.NoError(t, c.onPlugin(s, modnet.BetterQuestingChannel, []byte{0, 0, 3, 1, 2, 3}))
	other2, err := modnet.SplitBQMessage(proto17.Compound{"ID": "betterquesting:party_sync"})
	require.NoError(t, err)
	feed(other2)
	c.mu.Lock() // Stats wants the session's connection, which this test has not
	malformed, skipped := c.stats.Malformed["PluginMessage(BQ_NET_CHAN)"], c.stats.Skipped["PluginMessage(BQ_NET_CHAN) betterquesting:party_sync"]
	c.mu.Unlock()
	assert.Equal(t, int64(1), malformed)
	assert.Equal(t, int64(1), skipped)
	assert.Equal(t, map[[2]int64]bool{{0, 17}: true}, c.QuestProgress().Completed)

	// A sync that does not merge replaces the book: nothing completed.
	feed(bqSyncPayloads(t, false, false, map[int64][]string{16: {other}}))
	assert.Empty(t, c.QuestProgress().Completed)
}

// TestBetterQuestingRequest: the client asks a server with BetterQuesting
// for its progress only (NetQuestSync.requestSync(null, false, true)).
func TestBetterQuestingRequest(t *testing.T) {
	s := &session{fml: newFMLHandshake(nil)}
	assert.False(t, serverHasBetterQuesting(s))
	s.fml.serverMods = []proto17.ModInfo{{ModID: "gregtech"}, {ModID: "betterquesting", Version: "3.7.15-GTNH"}}
	assert.True(t, serverHasBetterQuesting(s))

	payloads, err := modnet.SplitBQMessage(modnet.BQQuestSyncRequest(false, true))
	require.NoError(t, err)
	require.Len(t, payloads, 1)
	p, err := modnet.DecodeBQPiece(payloads[0])
	require.NoError(t, err)
	var a modnet.BQAssembler
	gz, done, err := a.Feed(p)
	require.NoError(t, err)
	require.True(t, done)
	id, msg, err := modnet.DecodeBQMessage(gz)
	require.NoError(t, err)
	assert.Equal(t, modnet.BQQuestSync, id)
	assert.Equal(t, int8(1), msg["getProgress"])
	assert.Equal(t, int8(0), msg["getConfig"])
}

// TestBetterQuestingLive: joined to a server whose mod list has
// BetterQuesting, the client asks for its progress on BQ_NET_CHAN; the
// server's answer, sent over the wire, becomes the client's quest state.
func TestBetterQuestingLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
			o.Mods = append(fakeserver.DefaultMods(), proto17.ModInfo{ModID: "betterquesting", Version: "3.7.15-GTNH"})
		})
		var asked []proto17.Compound
		eventually(t, "the progress request", func() bool {
			asked = asked[:0]
			for _, r := range srv.ReceivedNamed("PluginMessage") {
				pm, ok := r.Packet.(*proto17.ServerboundPluginMessage)
				if !ok || pm.Channel != modnet.BetterQuestingChannel {
					continue
				}
				p, err := modnet.DecodeBQPiece(pm.Data)
				require.NoError(t, err)
				var a modnet.BQAssembler
				gz, done, err := a.Feed(p)
				require.NoError(t, err)
				require.True(t, done)
				_, msg, err := modnet.DecodeBQMessage(gz)
				require.NoError(t, err)
				asked = append(asked, msg)
			}
			return len(asked) > 0
		})
		require.Len(t, asked, 1)
		assert.Equal(t, modnet.BQQuestSyncRequest(false, true), asked[0], "progress, without the quests' text")
		assert.False(t, c.QuestProgress().Synced)

		c.mu.Lock()
		me := c.sess.uuid
		c.mu.Unlock()
		for _, p := range bqSyncPayloads(t, false, false, map[int64][]string{15: {me}, 16: nil}) {
			srv.Send(&proto17.PluginMessage{Channel: modnet.BetterQuestingChannel, Data: p})
		}
		eventually(t, "the synced progress", func() bool { return c.QuestProgress().Synced })
		assert.Equal(t, map[[2]int64]bool{{0, 15}: true}, c.QuestProgress().Completed)
	})
}

// TestNoBetterQuestingNoRequest: a server without BetterQuesting is not
// asked.
func TestNoBetterQuestingNoRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, nil)
		res := c.Execute(context.Background(), action.Chat{Message: "hello"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		for _, r := range srv.ReceivedNamed("PluginMessage") {
			pm, ok := r.Packet.(*proto17.ServerboundPluginMessage)
			assert.False(t, ok && pm.Channel == modnet.BetterQuestingChannel, "no BQ_NET_CHAN message")
		}
	})
}

// TestQuestBookButtonsLive: the quest book's buttons on a server with
// BetterQuesting — a checkbox ticked by its task id, a submit the server
// answers by completing the quest (taking the items a consuming retrieval
// asks for), a claim with a choice picked that puts the rewards in the
// inventory — each call returning once the server's progress says so; a
// submit the server does not complete fails after QuestAnswerTicks.
func TestQuestBookButtonsLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		readme, coal, diamond := [2]int64{0, 1}, [2]int64{0, 2}, [2]int64{0, 3}
		srv, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
			o.Mods = append(fakeserver.DefaultMods(), proto17.ModInfo{ModID: "betterquesting", Version: "3.7.15-GTNH"})
			o.Quests = []fakeserver.Quest{
				{ID: readme, Checkboxes: []int32{2}},
				{ID: coal, Items: []fakeserver.Item{{Name: "minecraft:coal", Count: 4}}, Consume: true,
					Reward: []fakeserver.Item{{Name: "minecraft:flint", Count: 2}},
					Choice: []fakeserver.Item{{Name: "minecraft:stick", Count: 1}, {Name: "minecraft:apple", Count: 3}}},
				{ID: diamond, Items: []fakeserver.Item{{Name: "minecraft:diamond", Count: 1}}},
			}
		})
		ctx := context.Background()
		eventually(t, "the inventory", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:coal") == 32 })

		require.NoError(t, c.TickQuestCheckboxes(ctx, readme, []int{2}))
		require.NoError(t, c.SubmitQuest(ctx, readme))
		// The tick completes it on the server (its passive check); the
		// submit may come before or after the news of it.
		got := srv.QuestState("Bot", readme)
		assert.True(t, got.Completed)
		assert.Equal(t, []int32{2}, got.Ticked)
		assert.True(t, c.QuestProgress().Completed[readme], "the server's progress")

		before := c.Ticks()
		require.NoError(t, c.SubmitQuest(ctx, coal))
		assert.Less(t, c.Ticks()-before, int64(QuestAnswerTicks), "the submit returns with the server's answer, not at the bound")
		eventually(t, "the coal taken", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:coal") == 28 })
		require.NoError(t, c.ClaimQuest(ctx, coal, [][2]int{{1, 1}}))
		inv := c.State().Snapshot().Inventory
		assert.Equal(t, 2, inv.CountID("minecraft:flint"))
		assert.Equal(t, 3, inv.CountID("minecraft:apple"), "the option picked")
		assert.Zero(t, inv.CountID("minecraft:stick"))
		// Claimed once: a second claim presses nothing.
		require.NoError(t, c.ClaimQuest(ctx, coal, [][2]int{{1, 1}}))
		assert.Equal(t, 1, srv.QuestState("Bot", coal).Claims)

		// No diamond: the server does not complete the quest, and the
		// submit says so once the server has had its time.
		start := c.Ticks()
		err := c.SubmitQuest(ctx, diamond)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "did not report the quest completed within 200 ticks")
		assert.GreaterOrEqual(t, c.Ticks()-start, int64(QuestAnswerTicks))
		assert.False(t, srv.QuestState("Bot", diamond).Completed)
		// A claim of a quest not completed is refused the same way.
		err = c.ClaimQuest(ctx, diamond, nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "did not report the quest claimed")
		assert.False(t, srv.QuestState("Bot", diamond).Claimed, "the server gives nothing for it")
	})
}

// TestQuestBookButtonsNeedTheMod: a server without BetterQuesting has no
// quest book to press.
func TestQuestBookButtonsNeedTheMod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, nil)
		assert.ErrorIs(t, c.SubmitQuest(context.Background(), [2]int64{0, 1}), ErrNoQuestBook)
		assert.ErrorIs(t, c.TickQuestCheckboxes(context.Background(), [2]int64{0, 1}, []int{0}), ErrNoQuestBook)
		assert.ErrorIs(t, c.ClaimQuest(context.Background(), [2]int64{0, 1}, nil), ErrNoQuestBook)
	})
}
