package gtnh

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	synced  bool
	done    map[[2]int64]bool
	claimed map[[2]int64]bool
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
	return c.sendBQ(s, modnet.BQQuestSyncRequest(false, true))
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
		s.quests.claimed = map[[2]int64]bool{}
	}
	n := 0
	for _, q := range sync.Quests {
		if !q.HasProgress {
			continue
		}
		n++
		s.quests.synced = true
		key := [2]int64{q.High, q.Low}
		mine, claimed := slices.Contains(q.Completed, me), slices.Contains(q.Claimed, me)
		switch {
		case mine:
			s.quests.done[key] = true
			if claimed {
				s.quests.claimed[key] = true
			} else {
				delete(s.quests.claimed, key)
			}
		case sync.ResetCompletion || !sync.Merge:
			delete(s.quests.done, key)
			delete(s.quests.claimed, key)
		}
	}
	c.notifyLocked()
	c.log.Debug().Int("quests", n).Bool("merge", sync.Merge).Int("completed", len(s.quests.done)).Msg("BetterQuesting progress synced")
}

// QuestAnswerTicks bounds how long the quest book's buttons wait for the
// server's answer: its BetterQuesting checks a quest's completion every 60
// ticks and sends the progress that changed every 20
// (betterquesting/handlers/EventHandler.onLivingUpdate), and refreshes a
// player's quests every 200; an answer not there after 200 ticks is not
// coming.
const QuestAnswerTicks = 200

// ErrNoQuestBook: the server's mod list has no BetterQuesting.
var ErrNoQuestBook = errors.New("the server has no quest book (BetterQuesting)")

// TickQuestCheckboxes ticks checkbox tasks of a quest in the server's
// quest book, by their ids in the quest, as the book's checkbox button
// does (NetTaskCheckbox.requestClick). The server answers nothing of its
// own: SubmitQuest waits for the quest's completion, which the ticks
// count towards.
func (c *Client) TickQuestCheckboxes(ctx context.Context, quest [2]int64, tasks []int) error {
	s, err := c.questSession(ctx)
	if err != nil {
		return err
	}
	for _, t := range tasks {
		if err := c.sendBQ(s, modnet.BQTaskCheckboxMsg(quest, int32(t))); err != nil {
			return err
		}
	}
	return nil
}

// SubmitQuest presses a quest's submit button (NetQuestAction
// .requestDetect: the server checks the quest's tasks, taking the items of
// a retrieval task that consumes them) and waits until the server's
// progress shows the quest completed for the player, at most
// QuestAnswerTicks.
func (c *Client) SubmitQuest(ctx context.Context, quest [2]int64) error {
	s, err := c.questSession(ctx)
	if err != nil {
		return err
	}
	if c.questState(s, quest, false) {
		return nil
	}
	if err := c.sendBQ(s, modnet.BQQuestActionMsg(modnet.BQActionDetect, quest)); err != nil {
		return err
	}
	return c.awaitQuest(ctx, s, quest, false, "completed")
}

// ClaimQuest picks the options of a quest's choice rewards
// (NetRewardChoice.requestChoice) and presses its claim button
// (NetQuestAction.requestClaim), then waits until the server's progress
// shows the quest claimed by the player, at most QuestAnswerTicks; the
// items come as the server puts them in the inventory. A quest already
// claimed is left alone.
func (c *Client) ClaimQuest(ctx context.Context, quest [2]int64, choices [][2]int) error {
	s, err := c.questSession(ctx)
	if err != nil {
		return err
	}
	if c.questState(s, quest, true) {
		return nil
	}
	for _, ch := range choices {
		if err := c.sendBQ(s, modnet.BQRewardChoiceMsg(quest, int32(ch[0]), int32(ch[1]))); err != nil {
			return err
		}
	}
	if err := c.sendBQ(s, modnet.BQQuestActionMsg(modnet.BQActionClaim, quest)); err != nil {
		return err
	}
	return c.awaitQuest(ctx, s, quest, true, "claimed")
}

// HasQuestBook reports whether the server of the current session has a
// quest book (BetterQuesting in its mod list).
func (c *Client) HasQuestBook() bool {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	return s != nil && serverHasBetterQuesting(s)
}

// questSession is the live session, when the server has a quest book.
func (c *Client) questSession(ctx context.Context) (*session, error) {
	s, err := c.live(ctx)
	if err != nil {
		return nil, err
	}
	if !serverHasBetterQuesting(s) {
		return nil, ErrNoQuestBook
	}
	return s, nil
}

// questState reports whether the server's progress has the quest
// completed (or, with claimed, claimed) for the player.
func (c *Client) questState(s *session, quest [2]int64, claimed bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return s.quests.has(quest, claimed)
}

// has reports whether the quest is completed (or, with claimed, claimed)
// in the server's progress; the client's lock is held.
func (b *questBook) has(quest [2]int64, claimed bool) bool {
	if claimed {
		return b.claimed[quest]
	}
	return b.done[quest]
}

// awaitQuest waits, at most QuestAnswerTicks, for the server's progress to
// show the quest completed (or claimed).
func (c *Client) awaitQuest(ctx context.Context, s *session, quest [2]int64, claimed bool, what string) error {
	end := c.ticks.Load() + QuestAnswerTicks
	err := c.waitFor(ctx, s, func() bool { return s.quests.has(quest, claimed) || c.ticks.Load() >= end })
	if err != nil {
		return err
	}
	if !c.questState(s, quest, claimed) {
		return fmt.Errorf("the server did not report the quest %s within %d ticks", what, QuestAnswerTicks)
	}
	return nil
}

// sendBQ sends a BetterQuesting message on BQ_NET_CHAN, cut into pieces.
func (c *Client) sendBQ(s *session, msg proto17.Compound) error {
	pieces, err := modnet.SplitBQMessage(msg)
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
