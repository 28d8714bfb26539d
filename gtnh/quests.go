package gtnh

import (
	"strings"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// QuestProgress is what the server's BetterQuesting said of the player's
// quests: the ids (questIDHigh, questIDLow) of the quests the player
// completed. Synced is false until a quest_sync with progress arrived; the
// set is then the server's, as BetterQuesting's own client keeps it.
type QuestProgress struct {
	Synced    bool
	Completed map[[2]int64]bool
}

// questBook is the session's copy of the server's quest progress for the
// player (guarded by Client.mu).
type questBook struct {
	synced bool
	done   map[[2]int64]bool
}

// QuestProgress returns the player's quest progress as the server's
// BetterQuesting last sent it (a copy).
func (c *Client) QuestProgress() QuestProgress {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := QuestProgress{Completed: map[[2]int64]bool{}}
	if s := c.sess; s != nil {
		out.Synced = s.quests.synced
		for id := range s.quests.done {
			out.Completed[id] = true
		}
	}
	return out
}

// serverHasBetterQuesting reports whether the server's mod list holds
// BetterQuesting (mod id betterquesting).
func serverHasBetterQuesting(s *session) bool {
	if s.fml == nil {
		return false
	}
	for _, m := range s.fml.serverMods {
		if m.ModID == "betterquesting" {
			return true
		}
	}
	return false
}

// requestQuestProgress asks the server's BetterQuesting for the player's
// progress on every quest, without the quests' text (NetQuestSync
// .requestSync(null, false, true)); the answer is a quest_sync small enough
// to read, unlike the login sync of the whole book.
func (c *Client) requestQuestProgress(s *session) error {
	pieces, err := modnet.SplitBQMessage(modnet.BQQuestSyncRequest(false, true))
	if err != nil {
		return err
	}
	for _, p := range pieces {
		if err := c.send(s, &proto17.ServerboundPluginMessage{Channel: modnet.BetterQuestingChannel, Data: p}); err != nil {
			return err
		}
	}
	return nil
}

// onBetterQuesting reads a BQ_NET_CHAN piece; when it completes a
// quest_sync, the player's progress in it is applied as BetterQuesting's
// client applies it (NetQuestSync.onClient, QuestInstance
// .readProgressFromNBT): a sync that does not merge, or that resets
// completion, replaces what was known of the quests it lists; a merging
// one adds the completions. Other messages are skipped; a broken one is
// counted and dropped.
func (c *Client) onBetterQuesting(s *session, data []byte) {
	const name = "PluginMessage(" + modnet.BetterQuestingChannel + ")"
	p, err := modnet.DecodeBQPiece(data)
	if err != nil {
		c.modMalformed(name, err)
		return
	}
	gz, done, err := s.bqAsm.Feed(p)
	if err != nil {
		c.modMalformed(name, err)
		return
	}
	if !done {
		return
	}
	id, msg, err := modnet.DecodeBQMessage(gz)
	if err != nil {
		c.modMalformed(name, err)
		return
	}
	if id != modnet.BQQuestSync {
		c.skip(name + " " + id)
		return
	}
	sync, err := modnet.DecodeBQQuestSync(msg)
	if err != nil {
		c.modMalformed(name, err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	me := strings.ToLower(s.uuid)
	if !sync.Merge || s.quests.done == nil {
		// A sync that does not merge replaces the client's database.
		s.quests.done = map[[2]int64]bool{}
	}
	n := 0
	for _, q := range sync.Quests {
		if !q.HasProgress {
			continue
		}
		n++
		s.quests.synced = true
		key := [2]int64{q.High, q.Low}
		mine := false
		for _, u := range q.Completed {
			mine = mine || u == me
		}
		switch {
		case mine:
			s.quests.done[key] = true
		case sync.ResetCompletion || !sync.Merge:
			delete(s.quests.done, key)
		}
	}
	c.log.Debug().Int("quests", n).Bool("merge", sync.Merge).Int("completed", len(s.quests.done)).Msg("BetterQuesting progress synced")
}
