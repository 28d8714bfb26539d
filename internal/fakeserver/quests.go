package fakeserver

import (
	"fmt"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// Quest is a quest of the server's quest book (BetterQuesting: give the
// server the mod betterquesting in Options.Mods). Its tasks are checkbox
// tasks and at most one retrieval task; its rewards an item reward (id 0)
// and a choice (id 1). The server plays BetterQuesting's part
// (GTNewHorizons/BetterQuesting at 479fd81): a checkbox is ticked by its
// task id (NetTaskCheckbox), the submit button checks the retrieval task
// against the inventory, taking its items when it consumes them
// (QuestInstance.detect, TaskRetrieval), a quest whose tasks are all done
// is completed, and the claim button (NetQuestAction) gives the rewards —
// the choice's picked option (NetRewardChoice) — to a player who completed
// the quest and picked every choice (QuestInstance.canClaim). Each change
// is sent to the player as a merging quest_sync of the quest's progress.
type Quest struct {
	ID         [2]int64
	Checkboxes []int32
	Items      []Item // the retrieval task's items (name, damage, count)
	Consume    bool
	Reward     []Item
	Choice     []Item
}

// questProgress is a player's progress on a quest.
type questProgress struct {
	ticked            map[int32]bool
	retrieved         bool
	completed         bool
	claimed           bool
	picked            int32 // the choice's option, -1 none
	submits, claimAsk int
}

// QuestState is a player's progress on a quest as the server keeps it.
type QuestState struct {
	Completed, Claimed bool
	Ticked             []int32
	// Submits and Claims count the presses of those buttons.
	Submits, Claims int
}

// QuestState returns the player's progress on the quest.
func (s *Server) QuestState(player string, quest [2]int64) QuestState {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.quests[questKey{player, quest}]
	if p == nil {
		return QuestState{}
	}
	st := QuestState{Completed: p.completed, Claimed: p.claimed, Submits: p.submits, Claims: p.claimAsk}
	for t := range p.ticked {
		st.Ticked = append(st.Ticked, t)
	}
	slices.Sort(st.Ticked)
	return st
}

type questKey struct {
	player string
	quest  [2]int64
}

// onBetterQuestingLocked reads a BQ_NET_CHAN piece from the player; a
// message that is whole is acted on. A broken one is logged and dropped,
// as BetterQuesting drops a message it cannot read.
func (c *conn) onBetterQuestingLocked(out *outbox, data []byte) {
	s := c.s
	p, err := modnet.DecodeBQPiece(data)
	if err != nil {
		s.logf("conn %d: BQ piece: %v", c.id, err)
		return
	}
	gz, done, err := c.bqAsm.Feed(p)
	if err != nil || !done {
		if err != nil {
			s.logf("conn %d: BQ piece: %v", c.id, err)
		}
		return
	}
	id, msg, err := modnet.DecodeBQMessage(gz)
	if err != nil {
		s.logf("conn %d: BQ message: %v", c.id, err)
		return
	}
	qid := func(m proto17.Compound) ([2]int64, *Quest) {
		hi, okHi := m["questIDHigh"].(int64)
		lo, okLo := m["questIDLow"].(int64)
		if !okHi || !okLo {
			return [2]int64{}, nil
		}
		for i := range s.opts.Quests {
			if q := &s.opts.Quests[i]; q.ID == [2]int64{hi, lo} {
				return q.ID, q
			}
		}
		return [2]int64{hi, lo}, nil
	}
	switch id {
	case modnet.BQTaskCheckbox:
		key, q := qid(msg)
		task, ok := msg["taskID"].(int32)
		if q == nil || !ok || !slices.Contains(q.Checkboxes, task) {
			s.logf("conn %d: task_checkbox of no checkbox: %v task %v", c.id, key, msg["taskID"])
			return
		}
		pr := c.questLocked(key)
		pr.ticked[task] = true
		c.updateQuestLocked(out, q, pr)
	case modnet.BQRewardChoice:
		key, q := qid(msg)
		reward, okR := msg["rewardID"].(int32)
		sel, okS := msg["selection"].(int32)
		if q == nil || !okR || !okS || reward != 1 || sel < 0 || int(sel) >= len(q.Choice) {
			s.logf("conn %d: choice_reward refused: %v", c.id, msg)
			return
		}
		c.questLocked(key).picked = sel
	case modnet.BQQuestAction:
		action, _ := msg["action"].(int32)
		ids, _ := msg["questIDs"].(proto17.List)
		for _, v := range ids.Values {
			m, ok := v.(proto17.Compound)
			if !ok {
				continue
			}
			key, q := qid(m)
			if q == nil {
				continue
			}
			pr := c.questLocked(key)
			switch action {
			case modnet.BQActionDetect:
				pr.submits++
				if !pr.retrieved && c.holdsLocked(q.Items) {
					if q.Consume {
						c.takeLocked(out, q.Items)
					}
					pr.retrieved = true
				}
				c.updateQuestLocked(out, q, pr)
			case modnet.BQActionClaim:
				pr.claimAsk++
				if !pr.completed || pr.claimed || (len(q.Choice) > 0 && pr.picked < 0) {
					continue
				}
				gifts := append([]Item(nil), q.Reward...)
				if len(q.Choice) > 0 {
					gifts = append(gifts, q.Choice[pr.picked])
				}
				for _, it := range gifts {
					item, _ := s.ids.ItemID(it.Name)
					if slot, ok := c.addItemLocked(proto17.Slot{ID: int16(item), Count: int32(it.Count), Damage: int16(it.Damage)}); ok {
						out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(slot), Item: c.inv[slot]})
					}
				}
				pr.claimed = true
				c.syncQuestLocked(out, q.ID, pr)
			}
		}
	default:
		s.logf("conn %d: BQ message %s left alone", c.id, id)
	}
}

// questLocked is the player's progress on a quest, made on first use.
func (c *conn) questLocked(quest [2]int64) *questProgress {
	s := c.s
	if s.quests == nil {
		s.quests = map[questKey]*questProgress{}
	}
	k := questKey{c.name, quest}
	if s.quests[k] == nil {
		s.quests[k] = &questProgress{ticked: map[int32]bool{}, picked: -1}
	}
	return s.quests[k]
}

// updateQuestLocked completes a quest whose tasks are all done
// (QuestInstance.update) and tells the player.
func (c *conn) updateQuestLocked(out *outbox, q *Quest, pr *questProgress) {
	if pr.completed {
		return
	}
	for _, t := range q.Checkboxes {
		if !pr.ticked[t] {
			return
		}
	}
	if len(q.Items) > 0 && !pr.retrieved {
		return
	}
	pr.completed = true
	c.s.notifyLocked()
	c.syncQuestLocked(out, q.ID, pr)
}

// syncQuestLocked sends the player a merging quest_sync of the quest's
// progress (NetQuestSync.sendSync(player, ids, false, true, true)).
func (c *conn) syncQuestLocked(out *outbox, quest [2]int64, pr *questProgress) {
	done := proto17.List{Type: proto17.TagCompound}
	if pr.completed {
		claimed := int8(0)
		if pr.claimed {
			claimed = 1
		}
		done.Values = append(done.Values, proto17.Compound{"uuid": c.uuid, "claimed": claimed, "timestamp": int64(c.s.tick())})
	}
	data := proto17.List{Type: proto17.TagCompound, Values: []any{proto17.Compound{
		"questIDHigh": quest[0], "questIDLow": quest[1],
		"progress": proto17.Compound{"completed": done, "tasks": proto17.List{Type: proto17.TagCompound}},
	}}}
	pieces, err := modnet.SplitBQMessage(proto17.Compound{"ID": modnet.BQQuestSync, "merge": int8(1), "resetCompletion": int8(0), "data": data})
	if err != nil {
		c.s.logf("conn %d: quest_sync: %v", c.id, err)
		return
	}
	for _, p := range pieces {
		out.to(c, StageNone, &proto17.PluginMessage{Channel: modnet.BetterQuestingChannel, Data: p})
	}
	c.s.notifyLocked()
}

// holdsLocked reports whether the inventory holds the items.
func (c *conn) holdsLocked(items []Item) bool {
	for _, want := range items {
		n := 0
		for i, sl := range c.inv {
			if it := c.s.itemOf(i, sl); !sl.Empty() && it.Name == want.Name && it.Damage == want.Damage {
				n += it.Count
			}
		}
		if n < want.Count {
			return false
		}
	}
	return true
}

// takeLocked removes the items from the inventory, telling the player.
func (c *conn) takeLocked(out *outbox, items []Item) {
	for _, want := range items {
		left := want.Count
		for i := range c.inv {
			sl := c.inv[i]
			if left == 0 || sl.Empty() {
				continue
			}
			if it := c.s.itemOf(i, sl); it.Name != want.Name || it.Damage != want.Damage {
				continue
			}
			n := min(left, int(sl.Count))
			sl.Count -= int32(n)
			left -= n
			if sl.Count == 0 {
				sl = proto17.Slot{}
			}
			c.inv[i] = sl
			out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(i), Item: sl})
		}
	}
}

func (q Quest) String() string { return fmt.Sprintf("quest %d/%d", q.ID[0], q.ID[1]) }
