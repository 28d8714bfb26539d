package msauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
)

// slowDownStep is what slow_down adds to the polling interval (RFC 8628
// §3.5: "the interval MUST be increased by 5 seconds for this and all
// subsequent requests").
const slowDownStep = 5 * time.Second

// maxPollFailures is how many polls in a row may get no answer before the
// sign-in gives up. After each, the interval doubles (RFC 8628 §3.5: "On
// encountering a connection timeout, clients MUST unilaterally reduce their
// polling frequency before retrying … doubling the polling interval on each
// such connection timeout, is RECOMMENDED").
const maxPollFailures = 3

func (c *Client) checkClientID(step string) error {
	if strings.TrimSpace(c.ClientID) == "" {
		return &Error{Step: step, Err: errors.New("no Azure application (client) id is configured (see docs/online-mode.md)")}
	}
	return nil
}

func (c *Client) url(base, path string) string {
	return strings.TrimRight(base, "/") + path
}

// StartDevice asks for a device code: the first request of the device
// authorization grant (POST {tenant}/oauth2/v2.0/devicecode with client_id
// and scope).
func (c *Client) StartDevice(ctx context.Context) (*DeviceCode, error) {
	if err := c.checkClientID(StepDeviceCode); err != nil {
		return nil, err
	}
	ep := c.Endpoints.withDefaults()
	status, body, err := c.postForm(ctx, StepDeviceCode, c.url(ep.Microsoft, PathDeviceCode), url.Values{
		"client_id": {c.ClientID},
		"scope":     {Scope},
	})
	if err != nil {
		return nil, err
	}
	return decodeDeviceCode(status, body)
}

// PollDevice polls the token endpoint until the user has signed in, the
// code expires, or the user declines (RFC 8628 §3.4–3.5; Microsoft's
// device-code page, "Expected errors"). It waits dc.Interval before each
// poll; slow_down adds 5 s to the interval for good.
func (c *Client) PollDevice(ctx context.Context, dc *DeviceCode) (*MSAToken, error) {
	if err := c.checkClientID(StepDevicePoll); err != nil {
		return nil, err
	}
	ep := c.Endpoints.withDefaults()
	deadline := c.now().Add(dc.ExpiresIn)
	interval := dc.Interval
	failures := 0
	for {
		if !c.now().Add(interval).Before(deadline) {
			return nil, &Error{Step: StepDevicePoll, Err: ErrExpired}
		}
		if err := c.sleep(ctx, interval); err != nil {
			return nil, &Error{Step: StepDevicePoll, Err: err}
		}
		status, body, err := c.postForm(ctx, StepDevicePoll, c.url(ep.Microsoft, PathToken), url.Values{
			"grant_type":  {"urn:ietf:params:oauth:grant-type:device_code"},
			"client_id":   {c.ClientID},
			"device_code": {dc.deviceCode.Reveal()},
		})
		var ne *NetError
		if errors.As(err, &ne) && ctx.Err() == nil && failures < maxPollFailures {
			failures++
			interval = min(2*interval, maxInterval*time.Second)
			c.Log.Debug().Err(ne).Dur("interval", interval).Msg("no answer to a poll; polling more slowly")
			continue
		}
		if err != nil {
			return nil, err
		}
		failures = 0
		tok, oe, err := decodeToken(StepDevicePoll, status, body, c.now())
		if err != nil {
			return nil, err
		}
		if oe == nil {
			if tok.Refresh.Empty() {
				return nil, &Error{Step: StepDevicePoll, Status: status, Err: errors.New("no refresh_token in the response (the offline_access scope was not granted)")}
			}
			return tok, nil
		}
		switch oe.Error {
		case "authorization_pending":
			c.Log.Debug().Msg("waiting for the user to sign in")
			continue
		case "slow_down":
			interval += slowDownStep
			c.Log.Debug().Dur("interval", interval).Msg("asked to poll more slowly")
			continue
		case "expired_token":
			return nil, oauthErr(StepDevicePoll, status, oe, ErrExpired, dc.deviceCode)
		case "access_denied", "authorization_declined":
			// RFC 8628 names it access_denied; Microsoft's page
			// authorization_declined.
			return nil, oauthErr(StepDevicePoll, status, oe, ErrDenied, dc.deviceCode)
		default:
			return nil, oauthErr(StepDevicePoll, status, oe, nil, dc.deviceCode)
		}
	}
}

// Refresh renews the Microsoft access token with the refresh token
// (Microsoft identity platform, "Refresh the access token": grant_type=
// refresh_token with client_id, refresh_token and scope). A refused refresh
// token (invalid_grant, or any 400) wraps ErrRefreshRefused; a refresh
// answer without a new refresh token keeps the old one.
func (c *Client) Refresh(ctx context.Context, refresh gtnh.Secret) (*MSAToken, error) {
	if err := c.checkClientID(StepRefresh); err != nil {
		return nil, err
	}
	if refresh.Empty() {
		return nil, &Error{Step: StepRefresh, Err: ErrRefreshRefused}
	}
	ep := c.Endpoints.withDefaults()
	status, body, err := c.postForm(ctx, StepRefresh, c.url(ep.Microsoft, PathToken), url.Values{
		"grant_type":    {"refresh_token"},
		"client_id":     {c.ClientID},
		"refresh_token": {refresh.Reveal()},
		"scope":         {Scope},
	})
	if err != nil {
		return nil, err
	}
	tok, oe, err := decodeToken(StepRefresh, status, body, c.now())
	if err != nil {
		return nil, err
	}
	if oe != nil {
		var cause error
		if status == http.StatusBadRequest || status == http.StatusUnauthorized {
			cause = ErrRefreshRefused
		}
		return nil, oauthErr(StepRefresh, status, oe, cause, refresh)
	}
	if tok.Refresh.Empty() {
		tok.Refresh = refresh
	}
	return tok, nil
}

// Minecraft runs steps 2–5 with a Microsoft access token: Xbox Live, XSTS,
// Minecraft login, profile.
func (c *Client) Minecraft(ctx context.Context, msa MSAToken) (*Login, error) {
	ep := c.Endpoints.withDefaults()
	// wiki.vg: the RpsTicket is "d=<access token>" for tokens from the
	// Azure (identity platform v2) flow.
	status, body, err := c.postJSON(ctx, StepXboxUser, c.url(ep.XboxUser, PathXboxUser), map[string]any{
		"Properties": map[string]any{
			"AuthMethod": "RPS",
			"SiteName":   "user.auth.xboxlive.com",
			"RpsTicket":  "d=" + msa.Access.Reveal(),
		},
		"RelyingParty": "http://auth.xboxlive.com",
		"TokenType":    "JWT",
	})
	if err != nil {
		return nil, err
	}
	xbl, uhs, err := decodeXbox(StepXboxUser, status, body)
	if err != nil {
		return nil, err
	}
	status, body, err = c.postJSON(ctx, StepXSTS, c.url(ep.XSTS, PathXSTS), map[string]any{
		"Properties": map[string]any{
			"SandboxId":  "RETAIL",
			"UserTokens": []string{xbl.Reveal()},
		},
		"RelyingParty": "rp://api.minecraftservices.com/",
		"TokenType":    "JWT",
	})
	if err != nil {
		return nil, err
	}
	xsts, xuhs, err := decodeXbox(StepXSTS, status, body)
	if err != nil {
		return nil, err
	}
	if xuhs != uhs {
		// PrismLauncher checks the same: the hash names the user.
		return nil, &Error{Step: StepXSTS, Status: status, Err: errors.New("the user hash changed between Xbox Live and XSTS")}
	}
	status, body, err = c.postJSON(ctx, StepMinecraftLogin, c.url(ep.Minecraft, PathMinecraftLogin), map[string]string{
		"identityToken": "XBL3.0 x=" + uhs + ";" + xsts.Reveal(),
	})
	if err != nil {
		return nil, err
	}
	mc, expires, err := decodeMinecraftLogin(status, body, c.now())
	if err != nil {
		return nil, err
	}
	profile, err := c.Profile(ctx, mc)
	if err != nil {
		return nil, err
	}
	c.Log.Debug().Str("player", profile.Name).Time("expires", expires).Msg("signed in to Minecraft services")
	return &Login{ClientID: c.ClientID, MSA: msa, Minecraft: mc, MinecraftExpires: expires, Profile: profile}, nil
}

// Profile reads the player's profile with a Minecraft access token (GET
// /minecraft/profile, Authorization: Bearer).
func (c *Client) Profile(ctx context.Context, mc gtnh.Secret) (Profile, error) {
	ep := c.Endpoints.withDefaults()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url(ep.Minecraft, PathProfile), nil)
	if err != nil {
		return Profile{}, &Error{Step: StepProfile, Err: errors.New("bad service URL")}
	}
	req.Header.Set("Authorization", "Bearer "+mc.Reveal())
	status, body, err := c.do(StepProfile, req)
	if err != nil {
		return Profile{}, err
	}
	return decodeProfile(status, body)
}
