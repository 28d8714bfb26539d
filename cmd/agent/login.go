package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/gtnh/msauth"
)

const (
	loginUsage  = `login [--client-id ID] [--cache FILE] [--config-file FILE] [--force]`
	logoutUsage = `logout [--cache FILE] [--config-file FILE]`
)

// Environment variables of the Microsoft sign-in. The four *_URL ones point
// the sign-in at other services (a local fake in tests); they are not meant
// for normal use.
const (
	envClientID     = "GTNH_AGENT_MSA_CLIENT_ID"
	envCache        = "GTNH_AGENT_MSA_CACHE"
	envMicrosoftURL = "GTNH_AGENT_MSA_MICROSOFT_URL"
	envXboxURL      = "GTNH_AGENT_MSA_XBOX_URL"
	envXSTSURL      = "GTNH_AGENT_MSA_XSTS_URL"
	envMinecraftURL = "GTNH_AGENT_MSA_MINECRAFT_URL"
)

// accountCommand is agent login (name "login") and agent logout: sign in
// with a Microsoft account for online-mode servers, or forget the login.
type accountCommand struct {
	name       string
	usage      string
	clientID   string
	cache      string
	configFile string
	force      bool

	// Set by validate.
	account *msauth.Account
}

var _ subcommand = (*accountCommand)(nil)

func newAccountCommand(name string) func() subcommand {
	usage := loginUsage
	if name == "logout" {
		usage = logoutUsage
	}
	return func() subcommand { return &accountCommand{name: name, usage: usage} }
}

func (c *accountCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, c.name, c.usage)
	fs.StringVar(&c.clientID, "client-id", "", "Azure application (client) id (default: $"+envClientID+", then server.auth.client_id)")
	fs.StringVar(&c.cache, "cache", "", "token cache file (default: $"+envCache+", then server.auth.token_cache, then the user config directory)")
	fs.StringVar(&c.configFile, "config-file", "", "agent config file (default: "+defaultConfigFile+" when present)")
	if c.name == "login" {
		fs.BoolVar(&c.force, "force", false, "sign in again even when the saved login still works")
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("%s: unexpected arguments %q\nusage: agent %s", c.name, pos, c.usage)
	}
	return nil
}

// validate builds the account from the config file's auth section under
// the flags; login needs a client id.
func (c *accountCommand) validate(e *env) error {
	acfg, err := loadAgentConfig(c.configFile)
	if err != nil {
		return configError(e, err)
	}
	auth := authConfig{}
	if acfg.Server.Auth != nil {
		auth = *acfg.Server.Auth
	}
	if c.clientID != "" {
		auth.ClientID = c.clientID
	}
	if c.cache != "" {
		auth.TokenCache = c.cache
	}
	if c.account, err = auth.account(); err != nil {
		return usagef("%s: %v", c.name, err)
	}
	if c.name == "login" && c.account.Client.ClientID == "" {
		return usagef("login: no Azure application (client) id: give --client-id, set %s or server.auth.client_id (see docs/online-mode.md)", envClientID)
	}
	return nil
}

func (c *accountCommand) run(e *env) error {
	if c.name == "logout" {
		return c.logout(e)
	}
	return c.login(e)
}

// logout removes the saved login.
func (c *accountCommand) logout(e *env) error {
	account := c.account
	removed, err := account.Cache.Remove()
	if err != nil {
		return err
	}
	if removed {
		fmt.Fprintf(e.stdout, "logged out: removed %s\n", account.Cache.Path)
	} else {
		fmt.Fprintf(e.stdout, "not logged in (no %s)\n", account.Cache.Path)
	}
	return nil
}

// login signs in with the device code flow, unless the saved login still
// works (and --force is not given).
func (c *accountCommand) login(e *env) error {
	account := c.account
	account.Client.Log = e.component("msauth")
	account.Prompt = func(dc *msauth.DeviceCode) {
		fmt.Fprintf(e.stderr, "To sign in with your Microsoft account, open %s and enter the code %s\n(the code is valid for %s; waiting…)\n",
			dc.VerificationURI, dc.UserCode, dc.ExpiresIn)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var l *msauth.Login
	var err error
	if c.force {
		l, err = account.SignIn(ctx)
	} else {
		l, err = account.Session(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	fmt.Fprintf(e.stdout, "logged in as %s (%s); saved to %s\n", l.Profile.Name, l.Profile.ID, account.Cache.Path)
	return nil
}

// account builds the Microsoft account of an auth section: the client id
// and cache path from the environment when the section names none, the
// service addresses from the environment (tests).
func (a authConfig) account() (*msauth.Account, error) {
	id := strings.TrimSpace(a.ClientID)
	if id == "" {
		id = strings.TrimSpace(os.Getenv(envClientID))
	}
	path := a.TokenCache
	if path == "" {
		path = os.Getenv(envCache)
	}
	if path == "" {
		p, err := msauth.DefaultCachePath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	client := &msauth.Client{ClientID: id, Endpoints: msauth.Endpoints{
		Microsoft: os.Getenv(envMicrosoftURL), XboxUser: os.Getenv(envXboxURL),
		XSTS: os.Getenv(envXSTSURL), Minecraft: os.Getenv(envMinecraftURL),
	}}
	return &msauth.Account{Client: client, Cache: &msauth.Cache{Path: path}}, nil
}

// microsoftProvider is the AuthProvider for `auth: {microsoft: true}`: the
// login saved by `agent login`, renewed at each join. It never starts a
// device sign-in itself: a bot must not wait for a person in the middle of
// a run, so a login that cannot be renewed ends the join with an error
// that says to run `agent login`.
func (a authConfig) microsoftProvider() (*msauth.Provider, error) {
	account, err := a.account()
	if err != nil {
		return nil, err
	}
	p, err := msauth.NewProvider(account, a.SessionURL)
	if err != nil {
		return nil, err
	}
	if account.Client.ClientID == "" {
		return nil, errors.New("no Azure application (client) id to renew the login with: set client_id or " + envClientID)
	}
	return p, nil
}

// fillAccountName makes the saved Microsoft login's player the username when
// none is given, so `agent run --server …` needs no --username then.
func (s *serverConfig) fillAccountName() {
	if s.Username != "" || s.Auth == nil || !s.Auth.Microsoft {
		return
	}
	account, err := s.Auth.account()
	if err != nil {
		return
	}
	if l, err := account.Cache.Load(); err == nil {
		s.Username = l.Profile.Name
	}
}
