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

// accountCmd runs `agent login` and `agent logout`.
func accountCmd(e *env, name string, args []string) error {
	usage := loginUsage
	if name == "logout" {
		usage = logoutUsage
	}
	fs := newFlagSet(e, name, usage)
	clientID := fs.String("client-id", "", "Azure application (client) id (default: $"+envClientID+", then server.auth.client_id)")
	cache := fs.String("cache", "", "token cache file (default: $"+envCache+", then server.auth.token_cache, then the user config directory)")
	configFile := fs.String("config-file", "", "agent config file (default: "+defaultConfigFile+" when present)")
	force := false
	if name == "login" {
		fs.BoolVar(&force, "force", false, "sign in again even when the saved login still works")
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("%s: unexpected arguments %q\nusage: agent %s", name, pos, usage)
	}
	acfg, err := loadAgentConfig(*configFile)
	if err != nil {
		return configError(e, err)
	}
	auth := authConfig{}
	if acfg.Server.Auth != nil {
		auth = *acfg.Server.Auth
	}
	if *clientID != "" {
		auth.ClientID = *clientID
	}
	if *cache != "" {
		auth.TokenCache = *cache
	}
	account, err := auth.account()
	if err != nil {
		return usagef("%s: %v", name, err)
	}
	if name == "logout" {
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
	if account.Client.ClientID == "" {
		return usagef("login: no Azure application (client) id: give --client-id, set %s or server.auth.client_id (see docs/online-mode.md)", envClientID)
	}
	account.Client.Log = e.component("msauth")
	account.Prompt = func(dc *msauth.DeviceCode) {
		fmt.Fprintf(e.stderr, "To sign in with your Microsoft account, open %s and enter the code %s\n(the code is valid for %s; waiting…)\n",
			dc.VerificationURI, dc.UserCode, dc.ExpiresIn)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var l *msauth.Login
	if force {
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
