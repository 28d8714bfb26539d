package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
)

// defaultConfigFile is read when present and no --config-file is given.
const defaultConfigFile = "agent.yaml"

// defaultOperatorSecretEnv holds the operator secret when the config file
// names no other variable (server.operator_secret_env).
const defaultOperatorSecretEnv = "GTNH_AGENT_OPERATOR_SECRET"

// agentConfig is the agent's config file: defaults for `agent run` and the
// server connection. Flags override it.
//
//	server:
//	  address: gtnh.example.org:25565
//	  username: Bot
//	  operators: [Alice, "uuid:069a79f4-44e9-4726-a5be-fca90e38aaf5"]  # may command the bot in chat
//	  operator_secret_env: GTNH_AGENT_OPERATOR_SECRET  # commands then need the secret: /msg Bot !bot <secret> stop
//	  allow_commands: false       # the chat action may send /commands
//	  command_prefix: "!bot "
//	  command_burst: 3
//	  commands_per_minute: 6
//	  view_distance: 8
//	  tick: 50ms
//	  break_factor: 1.25
//	  collect_drops: true
//	  timeouts: {dial: 10s, login: 60s, read: 30s, action: 2m}
//	  reconnect: {enabled: true, initial: 1s, max: 1m, multiplier: 2, jitter: 0.1, max_attempts: 0}
//	  auth:                       # online-mode servers only
//	    session_url: https://sessionserver.mojang.com
//	    player: Steve
//	    profile_id: 0123456789abcdef0123456789abcdef
//	    access_token_env: GTNH_ACCESS_TOKEN   # the token itself never goes in the file
//	  # or, with the Microsoft account saved by `agent login` (docs/online-mode.md):
//	  # auth: {microsoft: true, client_id: <Azure application id>, token_cache: FILE, session_url: URL}
//	run:
//	  goal: "collect 16 minecraft:log"
//	  max_steps: 100
//	  max_ticks: 0
//	  trace: run.jsonl
//	llm:                          # the model planner (agent run --planner llm)
//	  url: http://127.0.0.1:11434/v1
//	  model: qwen3
//	  key_env: GTNH_AGENT_LLM_KEY # the default; the key never goes in the file
//	  embedding_model: nomic-embed-text
//	  timeout: 2m                 # one model call
//	  max_calls: 8                # model calls per step
//	  max_corrections: 3          # answers sent back per step
//	  mode: auto                  # auto | tools | json
//	  context: 8192               # the model's context length in tokens
//	survival:                     # reflexes that preempt the plan (docs/survival.md)
//	  eat: {enabled: true, threshold: 6}
//	  unstuck: {enabled: true, seconds: 30, distance: 5}
//	  recover: {enabled: true}
type agentConfig struct {
	File   string
	Server serverConfig
	Run    runDefaults
	// LLM is the llm section; KeyEnv is set only when the file names it.
	LLM llm.Config
	// Quests is the quests section: the quest book and whether the agent
	// may tick checkbox tasks.
	Quests questsConfig
	// Survival is the survival section: the reflexes (survival.go).
	Survival survivalConfig
}

// questsConfig is the quests section: path (relative paths are from the
// config file's directory) and checkbox.
type questsConfig struct {
	Path     string
	Checkbox bool
}

type serverConfig struct {
	Address, Username string
	Operators         []string
	OperatorSecretEnv string
	AllowCommands     bool
	CommandPrefix     string
	CommandBurst      int
	CommandsPerMinute float64
	ViewDistance      int
	Tick              time.Duration
	BreakFactor       float64
	CollectDrops      *bool
	Dial, Login, Read time.Duration
	Action            time.Duration
	Reconnect         gtnh.Backoff
	Auth              *authConfig
}

type authConfig struct {
	SessionURL, Player, ProfileID, TokenEnv string
	// Microsoft: the account saved by `agent login` (login.go).
	Microsoft            bool
	ClientID, TokenCache string
}

type runDefaults struct {
	Goal     string
	MaxSteps int
	MaxTicks int64
	Trace    string
}

// loadAgentConfig reads the config file: path when given (it must exist),
// else agent.yaml in the working directory when there is one. Errors name
// file:line:column and the field.
func loadAgentConfig(path string) (*agentConfig, error) {
	explicit := path != ""
	if !explicit {
		path = defaultConfigFile
	}
	data, err := filelimit.ReadFile(path, filelimit.MaxConfig)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return &agentConfig{}, nil
		}
		return nil, err
	}
	return parseAgentConfig(path, data)
}

func parseAgentConfig(file string, data []byte) (*agentConfig, error) {
	cfg := &agentConfig{File: file}
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	if strictyaml.IsNull(root) {
		return cfg, nil
	}
	d := strictyaml.NewDecoder(file)
	top := d.Mapping(root, "", []string{"server", "run", "llm", "quests", "survival"})
	if f, ok := top["survival"]; ok {
		decodeSurvival(d, f, &cfg.Survival)
	}
	if f, ok := top["quests"]; ok {
		q := d.Mapping(f.Value, "quests", []string{"path", "checkbox"})
		str(d, q, "quests", "path", &cfg.Quests.Path)
		if v, ok := q["checkbox"]; ok {
			if b, ok := d.Bool(v.Value, "quests.checkbox"); ok {
				cfg.Quests.Checkbox = b
			}
		}
		if cfg.Quests.Path != "" && !filepath.IsAbs(cfg.Quests.Path) {
			cfg.Quests.Path = filepath.Join(filepath.Dir(file), cfg.Quests.Path)
		}
	}
	if f, ok := top["llm"]; ok {
		decodeLLM(d, f.Value, &cfg.LLM)
	}
	if f, ok := top["server"]; ok {
		decodeServer(d, f.Value, &cfg.Server)
	}
	if f, ok := top["run"]; ok {
		r := d.Mapping(f.Value, "run", []string{"goal", "max_steps", "max_ticks", "trace"})
		str(d, r, "run", "goal", &cfg.Run.Goal)
		str(d, r, "run", "trace", &cfg.Run.Trace)
		if v, ok := r["max_steps"]; ok {
			if n, ok := d.Int(v.Value, "run.max_steps"); ok {
				if n < 1 {
					d.Errorf(v.Value, "run.max_steps", "must be at least 1, got %d", n)
				}
				cfg.Run.MaxSteps = n
			}
		}
		if v, ok := r["max_ticks"]; ok {
			if n, ok := d.Int(v.Value, "run.max_ticks"); ok {
				if n < 0 {
					d.Errorf(v.Value, "run.max_ticks", "must not be negative, got %d", n)
				}
				cfg.Run.MaxTicks = int64(n)
			}
		}
	}
	return cfg, d.Err()
}

func str(d *strictyaml.Decoder, m map[string]strictyaml.Field, path, key string, dst *string) {
	if v, ok := m[key]; ok {
		if s, ok := d.String(v.Value, strictyaml.Join(path, key)); ok {
			*dst = s
		}
	}
}

// intIn reads an integer key that must lie within lo..hi; a value outside
// is an error naming the key and the range.
func intIn(d *strictyaml.Decoder, m map[string]strictyaml.Field, path, key string, lo, hi int, dst *int) {
	if i, ok := d.IntIn(m, path, key, lo, hi); ok {
		*dst = i
	}
}

func dur(d *strictyaml.Decoder, m map[string]strictyaml.Field, path, key string, dst *time.Duration) {
	v, ok := m[key]
	if !ok {
		return
	}
	p := strictyaml.Join(path, key)
	s, ok := d.String(v.Value, p)
	if !ok {
		return
	}
	t, err := time.ParseDuration(s)
	if err != nil || t <= 0 {
		d.Errorf(v.Value, p, "want a positive duration such as 500ms, 10s or 2m, got %q", s)
		return
	}
	*dst = t
}

func decodeLLM(d *strictyaml.Decoder, n *yaml.Node, c *llm.Config) {
	const p = "llm"
	m := d.Mapping(n, p, []string{"url", "model", "key_env", "embedding_model", "timeout", "max_calls", "max_corrections", "mode", "context"})
	str(d, m, p, "url", &c.URL)
	if v, ok := m["url"]; ok && c.URL != "" {
		if err := llm.CheckURL(c.URL); err != nil {
			d.Errorf(v.Value, "llm.url", "%v", err)
		}
	}
	str(d, m, p, "model", &c.Model)
	if v, ok := m["model"]; ok && strings.TrimSpace(c.Model) == "" {
		d.Errorf(v.Value, "llm.model", "must not be empty")
	}
	str(d, m, p, "key_env", &c.KeyEnv)
	if v, ok := m["key_env"]; ok {
		if err := (llm.Config{URL: "http://x", Model: "x", KeyEnv: c.KeyEnv}).Validate(); err != nil || c.KeyEnv == "" {
			// The value is not echoed: it may be the key itself.
			d.Errorf(v.Value, "llm.key_env", "want the name of an environment variable such as %s (the key itself goes in that variable, never in the file)", llm.DefaultKeyEnv)
		}
	}
	str(d, m, p, "embedding_model", &c.EmbeddingModel)
	dur(d, m, p, "timeout", &c.Timeout)
	intIn(d, m, p, "max_calls", 1, 100, &c.MaxCalls)
	intIn(d, m, p, "max_corrections", 1, 20, &c.MaxCorrections)
	intIn(d, m, p, "context", llm.MinContext, llm.MaxContext, &c.Context)
	if v, ok := m["mode"]; ok {
		var mode string
		if mode, ok = d.String(v.Value, "llm.mode"); ok {
			if !slices.Contains(llm.Modes, mode) {
				d.Errorf(v.Value, "llm.mode", "unknown mode %q%s (known: %s)", mode, suggest.DidYouMean(mode, llm.Modes), strings.Join(llm.Modes, ", "))
			}
			c.Mode = llm.Mode(mode)
		}
	}
}

func decodeServer(d *strictyaml.Decoder, n *yaml.Node, s *serverConfig) {
	const p = "server"
	m := d.Mapping(n, p, []string{"address", "username", "operators", "operator_secret_env", "allow_commands", "command_prefix", "command_burst",
		"commands_per_minute", "view_distance", "tick", "break_factor", "collect_drops", "timeouts", "reconnect", "auth"})
	str(d, m, p, "address", &s.Address)
	str(d, m, p, "username", &s.Username)
	str(d, m, p, "command_prefix", &s.CommandPrefix)
	if v, ok := m["username"]; ok && s.Username != "" {
		if err := gtnh.ValidUsername(s.Username); err != nil {
			d.Errorf(v.Value, "server.username", "%v", err)
		}
	}
	if v, ok := m["operators"]; ok {
		s.Operators = d.StringList(v.Value, "server.operators")
		if err := gtnh.ValidOperators(s.Operators); err != nil {
			d.Errorf(v.Value, "server.operators", "%v", err)
		}
	}
	str(d, m, p, "operator_secret_env", &s.OperatorSecretEnv)
	if v, ok := m["allow_commands"]; ok {
		s.AllowCommands, _ = d.Bool(v.Value, "server.allow_commands")
	}
	decodeCommandRate(d, m, s)
	intIn(d, m, p, "view_distance", 2, 32, &s.ViewDistance)
	dur(d, m, p, "tick", &s.Tick)
	if v, ok := m["break_factor"]; ok {
		if f, ok := d.Float(v.Value, "server.break_factor"); ok {
			if f < 0.7 || f > 10 {
				d.Errorf(v.Value, "server.break_factor", "must be within 0.7..10 (the server accepts a finish from 70%% of the break time), got %v", f)
			}
			s.BreakFactor = f
		}
	}
	if v, ok := m["collect_drops"]; ok {
		if b, ok := d.Bool(v.Value, "server.collect_drops"); ok {
			s.CollectDrops = &b
		}
	}
	if v, ok := m["timeouts"]; ok {
		t := d.Mapping(v.Value, "server.timeouts", []string{"dial", "login", "read", "action"})
		dur(d, t, "server.timeouts", "dial", &s.Dial)
		dur(d, t, "server.timeouts", "login", &s.Login)
		dur(d, t, "server.timeouts", "read", &s.Read)
		dur(d, t, "server.timeouts", "action", &s.Action)
	}
	if v, ok := m["reconnect"]; ok {
		decodeReconnect(d, v.Value, &s.Reconnect)
	}
	if v, ok := m["auth"]; ok {
		s.Auth = decodeAuth(d, v.Value)
	}
}

// decodeCommandRate decodes the rate limit of the commands the bot sends:
// server.command_burst and server.commands_per_minute.
func decodeCommandRate(d *strictyaml.Decoder, m map[string]strictyaml.Field, s *serverConfig) {
	if v, ok := m["command_burst"]; ok {
		if i, ok := d.Int(v.Value, "server.command_burst"); ok {
			if i < 1 {
				d.Errorf(v.Value, "server.command_burst", "must be at least 1, got %d", i)
			}
			s.CommandBurst = i
		}
	}
	if v, ok := m["commands_per_minute"]; ok {
		if f, ok := d.Float(v.Value, "server.commands_per_minute"); ok {
			if f <= 0 {
				d.Errorf(v.Value, "server.commands_per_minute", "must be positive, got %v", f)
			}
			s.CommandsPerMinute = f
		}
	}
}

// decodeReconnect decodes server.reconnect: a section that is present
// turns reconnecting on unless it says enabled: false.
func decodeReconnect(d *strictyaml.Decoder, n *yaml.Node, rc *gtnh.Backoff) {
	const rp = "server.reconnect"
	r := d.Mapping(n, rp, []string{"enabled", "initial", "max", "multiplier", "jitter", "max_attempts"})
	rc.Enabled = true
	if e, ok := r["enabled"]; ok {
		rc.Enabled, _ = d.Bool(e.Value, rp+".enabled")
	}
	dur(d, r, rp, "initial", &rc.Initial)
	dur(d, r, rp, "max", &rc.Max)
	if e, ok := r["multiplier"]; ok {
		if f, ok := d.Float(e.Value, rp+".multiplier"); ok {
			if f < 1 {
				d.Errorf(e.Value, rp+".multiplier", "must be at least 1, got %v", f)
			}
			rc.Multiplier = f
		}
	}
	if e, ok := r["jitter"]; ok {
		if f, ok := d.Float(e.Value, rp+".jitter"); ok {
			if f < 0 || f > 1 {
				d.Errorf(e.Value, rp+".jitter", "must be within 0..1, got %v", f)
			}
			rc.Jitter = f
		}
	}
	if e, ok := r["max_attempts"]; ok {
		if i, ok := d.Int(e.Value, rp+".max_attempts"); ok {
			if i < 0 {
				d.Errorf(e.Value, rp+".max_attempts", "must not be negative, got %d", i)
			}
			rc.MaxAttempts = i
		}
	}
	if rc.Initial > 0 && rc.Max > 0 && rc.Initial > rc.Max {
		d.Errorf(n, rp, "initial %v exceeds max %v", rc.Initial, rc.Max)
	}
}

// decodeAuth decodes server.auth: a Microsoft account, or a session
// server with a player, profile id and access token.
func decodeAuth(d *strictyaml.Decoder, n *yaml.Node) *authConfig {
	const ap = "server.auth"
	a := d.Mapping(n, ap, []string{"session_url", "player", "profile_id", "access_token_env", "microsoft", "client_id", "token_cache"})
	auth := &authConfig{}
	if f, ok := a["microsoft"]; ok {
		auth.Microsoft, _ = d.Bool(f.Value, ap+".microsoft")
	}
	if auth.Microsoft {
		for _, k := range []string{"player", "profile_id", "access_token_env"} {
			if f, ok := a[k]; ok {
				d.Errorf(f.Value, ap+"."+k, "not used with microsoft: true (the player and token come from `agent login`)")
			}
		}
	} else {
		d.Require(n, ap, a, "session_url", "player", "profile_id", "access_token_env")
	}
	str(d, a, ap, "client_id", &auth.ClientID)
	str(d, a, ap, "token_cache", &auth.TokenCache)
	str(d, a, ap, "session_url", &auth.SessionURL)
	str(d, a, ap, "player", &auth.Player)
	str(d, a, ap, "profile_id", &auth.ProfileID)
	str(d, a, ap, "access_token_env", &auth.TokenEnv)
	return auth
}

// dialServer opens the connection to a game server; nil dials TCP. The
// tests set it to reach their test servers in memory (inside
// testing/synctest bubbles); nothing else does.
var dialServer gtnh.Dialer

// clientConfig turns the server section into the client's configuration.
func (s serverConfig) clientConfig() (gtnh.Config, error) {
	cfg := gtnh.Config{
		Address: s.Address, Dial: dialServer, Username: s.Username, Operators: s.Operators,
		Commands:     gtnh.CommandConfig{Prefix: s.CommandPrefix, Burst: s.CommandBurst, PerMinute: s.CommandsPerMinute},
		ViewDistance: s.ViewDistance, Tick: s.Tick, BreakFactor: s.BreakFactor,
		DialTimeout: s.Dial, LoginTimeout: s.Login, ReadTimeout: s.Read, ActionTimeout: s.Action,
		Reconnect: s.Reconnect, AllowCommands: s.AllowCommands,
	}
	env, named := s.OperatorSecretEnv, s.OperatorSecretEnv != ""
	if !named {
		env = defaultOperatorSecretEnv
	}
	if secret := os.Getenv(env); secret != "" {
		cfg.Commands.Secret = gtnh.NewSecret(secret)
	} else if named {
		return cfg, fmt.Errorf("server.operator_secret_env: the environment variable %s holding the operator secret is not set", env)
	}
	if s.CollectDrops != nil && !*s.CollectDrops {
		cfg.NoCollectDrops = true
	}
	if s.Auth != nil && s.Auth.Microsoft {
		p, err := s.Auth.microsoftProvider()
		if err != nil {
			return cfg, fmt.Errorf("server.auth: %w", err)
		}
		if cfg.Username == "" {
			cfg.Username = p.Name()
		}
		if cfg.Username != p.Name() {
			return cfg, fmt.Errorf("server.username %s is not the player of the Microsoft login (%s): leave the username out", cfg.Username, p.Name())
		}
		cfg.Auth = p
	} else if s.Auth != nil {
		token := os.Getenv(s.Auth.TokenEnv)
		if token == "" {
			return cfg, fmt.Errorf("server.auth: the environment variable %s holding the access token is not set", s.Auth.TokenEnv)
		}
		cfg.Auth = &gtnh.SessionAuth{URL: s.Auth.SessionURL, Player: s.Auth.Player, ProfileID: s.Auth.ProfileID, AccessToken: gtnh.NewSecret(token)}
	}
	return cfg, nil
}
