package main

import (
	"context"
	"flag"
	"net"

	"github.com/gtnh-agent/gtnh-agent/view/web"
)

// uiFlags are --ui and --ui-token-file, for agent run, agent serve and
// agent replay: where to serve the live web view, and the token a browser
// on an address other than loopback must present.
type uiFlags struct{ httpFlags }

func (u *uiFlags) register(fs *flag.FlagSet, tokenHelp string) {
	u.httpFlags = httpFlags{name: "ui", example: "127.0.0.1:8080", who: "browsers"}
	fs.StringVar(&u.listen, "ui", "", "serve the web view at http://HOST:PORT/ (docs/view.md); loopback unless a token is given")
	fs.StringVar(&u.tokenFile, "ui-token-file", "", tokenHelp)
}

// start listens on --ui and serves v until ctx ends; the returned stop
// ends the serving and waits for it.
func (u *uiFlags) start(ctx context.Context, e *env, cmd string, v *web.View) (stop func(), err error) {
	return u.serveOn(ctx, e, cmd, "web view", "/", func(ctx context.Context, ln net.Listener) error {
		return v.Serve(ctx, ln, web.ServeOptions{Token: u.token, Log: e.component("view")})
	})
}
