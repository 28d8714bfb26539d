package gtnh

import (
	"fmt"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Chat: what the server says, the operators' commands, and what the bot says.

func (c *Client) onChat(s *session, p *proto17.Chat) {
	m := parseChat(p.JSON)
	m.Time = time.Now()
	if d, ok := ParseDeathMessage(p.JSON); ok && strings.EqualFold(d.Victim, c.cfg.Username) {
		c.mu.Lock()
		c.deathMsg = d
		c.deathMsgs++
		c.mu.Unlock()
		c.log.Warn().Str("cause", d.Text).Str("key", d.Key).Msg("death message")
	}
	if m.Sender != "" {
		m.SenderUUID = c.uuidOf(s, m.Sender)
	}
	cmd, verdict := c.guard.check(m, c.cfg.Username)
	// From here on the line never carries the secret.
	m.Text, m.Plain = c.guard.scrub(m.Text), c.guard.scrub(m.Plain)
	c.state.Update(func(tx *world.Tx) { m.Tick = tx.Tick() })
	c.mu.Lock()
	c.chatSeq++
	m.Seq = c.chatSeq
	c.chatLog = append(c.chatLog, m)
	if len(c.chatLog) > maxChatLog {
		c.chatLog = c.chatLog[len(c.chatLog)-maxChatLog:]
	}
	c.mu.Unlock()
	c.log.Info().Str("from", m.Sender).Str("text", m.Plain).Msg("chat")
	switch verdict {
	case verdictNotCommand:
		return
	case verdictObey:
	default:
		c.mu.Lock()
		c.stats.Ignored++
		c.mu.Unlock()
		c.log.Warn().Str("from", m.Sender).Str("uuid", m.SenderUUID).Str("reason", verdictReasons[verdict]).Msg("chat command ignored")
		return
	}
	c.mu.Lock()
	c.stats.Commands++
	c.mu.Unlock()
	c.log.Info().Str("from", cmd.From).Str("command", cmd.Name).Msg("operator command")
	switch cmd.Name {
	case "ping":
		_ = c.say(s, "pong")
	case "status":
		snap := c.state.Snapshot()
		_ = c.say(s, fmt.Sprintf("at %v in %s, health %.0f, food %.0f, tier %s", snap.Feet(), snap.Player.Dimension, snap.Player.Health, snap.Player.Food, snap.TechState))
	default:
		if c.cfg.OnCommand != nil {
			c.cfg.OnCommand(cmd)
		}
	}
}

// say sends one chat line as the server accepts it (see chatLine).
func (c *Client) say(s *session, msg string) error {
	line, err := c.chatLine(msg)
	if err != nil {
		return err
	}
	return c.send(s, &proto17.ServerboundChat{Message: line})
}

// Say sends a chat line on the live connection.
func (c *Client) Say(msg string) error {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return ErrNotConnected
	}
	return c.say(s, msg)
}
