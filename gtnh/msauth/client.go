package msauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
)

// Default service addresses. Each is a base URL; the client appends the
// fixed paths below, so a test (or a fake) replaces only the base.
const (
	// DefaultMicrosoftURL is the consumers tenant of the Microsoft identity
	// platform: personal Microsoft accounts only, which is what the
	// XboxLive.signin scope requires (wiki.vg, "Microsoft Authentication
	// Scheme": "You must use the consumers AAD tenant").
	DefaultMicrosoftURL = "https://login.microsoftonline.com/consumers"
	// DefaultXboxUserURL is Xbox Live user authentication.
	DefaultXboxUserURL = "https://user.auth.xboxlive.com"
	// DefaultXSTSURL is the Xbox secure token service.
	DefaultXSTSURL = "https://xsts.auth.xboxlive.com"
	// DefaultMinecraftURL is Minecraft services (login and profile).
	DefaultMinecraftURL = "https://api.minecraftservices.com"
)

// Paths under the base URLs (same sources as the defaults).
const (
	PathDeviceCode     = "/oauth2/v2.0/devicecode"
	PathToken          = "/oauth2/v2.0/token"
	PathXboxUser       = "/user/authenticate"
	PathXSTS           = "/xsts/authorize"
	PathMinecraftLogin = "/authentication/login_with_xbox"
	PathProfile        = "/minecraft/profile"
)

// Scope is what the device flow asks the user to consent to: Xbox Live
// sign-in, and offline_access for a refresh token (wiki.vg; Microsoft's
// device-code page: "refresh_token: issued if the original scope parameter
// included offline_access").
const Scope = "XboxLive.signin offline_access"

// MaxBody bounds every response body read: the largest legitimate answer
// (an XSTS token with its claims) is a few KiB.
const MaxBody = 64 << 10

// Endpoints are the base URLs of the four services.
type Endpoints struct {
	// Microsoft is the identity platform tenant URL (…/consumers).
	Microsoft string
	// XboxUser is Xbox Live user authentication.
	XboxUser string
	// XSTS is the Xbox secure token service.
	XSTS string
	// Minecraft is Minecraft services.
	Minecraft string
}

// DefaultEndpoints are the real services.
func DefaultEndpoints() Endpoints {
	return Endpoints{Microsoft: DefaultMicrosoftURL, XboxUser: DefaultXboxUserURL, XSTS: DefaultXSTSURL, Minecraft: DefaultMinecraftURL}
}

// withDefaults fills empty fields from DefaultEndpoints.
func (e Endpoints) withDefaults() Endpoints {
	d := DefaultEndpoints()
	if e.Microsoft == "" {
		e.Microsoft = d.Microsoft
	}
	if e.XboxUser == "" {
		e.XboxUser = d.XboxUser
	}
	if e.XSTS == "" {
		e.XSTS = d.XSTS
	}
	if e.Minecraft == "" {
		e.Minecraft = d.Minecraft
	}
	return e
}

// Client talks to the four services. The zero value is not usable: ClientID
// is required.
type Client struct {
	// ClientID is the Azure application (client) id the device flow runs
	// under. It is public, not a secret, but it belongs to whoever
	// registered the application; see docs/online-mode.md.
	ClientID string
	// Endpoints default to the real services.
	Endpoints Endpoints
	// HTTP is the client to use (default: one with a 30 s timeout).
	HTTP *http.Client
	// Log gets one debug line per step; tokens never appear in it.
	Log zerolog.Logger
	// Now and Sleep replace the clock in tests; Sleep must return ctx.Err()
	// when ctx ends first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// Steps, as named in errors.
const (
	StepDeviceCode     = "device code"
	StepDevicePoll     = "device sign-in"
	StepRefresh        = "token refresh"
	StepXboxUser       = "Xbox Live authentication"
	StepXSTS           = "XSTS authorization"
	StepMinecraftLogin = "Minecraft login"
	StepProfile        = "Minecraft profile"
)

// Sentinel causes, for errors.Is.
var (
	// ErrExpired: the device code expired before the user signed in.
	ErrExpired = errors.New("the sign-in code expired before the sign-in was completed")
	// ErrDenied: the user declined the sign-in.
	ErrDenied = errors.New("the sign-in was declined")
	// ErrRefreshRefused: the refresh token is no longer accepted; only a
	// new device sign-in helps.
	ErrRefreshRefused = errors.New("the saved Microsoft sign-in is no longer accepted")
	// ErrNoXboxAccount: XErr 2148916233.
	ErrNoXboxAccount = errors.New("this Microsoft account has no Xbox profile; sign in once at minecraft.net or xbox.com to create one, then try again")
	// ErrXboxRegion: XErr 2148916235.
	ErrXboxRegion = errors.New("Xbox Live is not available in this account's country or region")
	// ErrAdultVerification: XErr 2148916236 and 2148916237.
	ErrAdultVerification = errors.New("this account needs adult verification on the Xbox website before it can sign in")
	// ErrChildAccount: XErr 2148916238.
	ErrChildAccount = errors.New("this is a child account; an adult must add it to a Microsoft family group before it can sign in")
	// ErrNoProfile: Minecraft services has no Java Edition profile for
	// the account (it does not own the game, or has no name yet).
	ErrNoProfile = errors.New("this account has no Minecraft: Java Edition profile (the game is not owned, or no player name was chosen yet)")
	// ErrTooLarge: a response body over MaxBody.
	ErrTooLarge = fmt.Errorf("response body over %d KiB", MaxBody>>10)
	// ErrNotLoggedIn: no cached login.
	ErrNotLoggedIn = errors.New("not logged in with a Microsoft account: run `agent login`")
)

// Error is a failed step. Its text names the step and the HTTP status, never
// a token.
type Error struct {
	// Step is one of the Step constants.
	Step string
	// Status is the HTTP status code, 0 when no response arrived.
	Status int
	// Code is the service's error code ("authorization_pending",
	// "XErr 2148916233"), when it sent one.
	Code string
	// Err is the cause (one of the sentinels when known).
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("microsoft login: ")
	b.WriteString(e.Step)
	if e.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d", e.Status)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, " (%s)", e.Code)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// postForm sends an application/x-www-form-urlencoded POST.
func (c *Client) postForm(ctx context.Context, step, u string, form url.Values) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, nil, &Error{Step: step, Err: errors.New("bad service URL")}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(step, req)
}

// postJSON sends a JSON POST.
func (c *Client) postJSON(ctx context.Context, step, u string, body any) (int, []byte, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return 0, nil, &Error{Step: step, Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		return 0, nil, &Error{Step: step, Err: errors.New("bad service URL")}
	}
	req.Header.Set("Content-Type", "application/json")
	return c.do(step, req)
}

// do sends req and reads at most MaxBody bytes of the answer. Transport
// errors keep the URL (which carries no token: every token travels in a
// body or a header) but nothing else.
func (c *Client) do(step string, req *http.Request) (int, []byte, error) {
	req.Header.Set("Accept", "application/json")
	resp, err := c.httpClient().Do(req)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return 0, nil, &Error{Step: step, Err: ctxErr}
		}
		return 0, nil, &Error{Step: step, Err: &NetError{Err: transportError(err)}}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return resp.StatusCode, nil, &Error{Step: step, Status: resp.StatusCode, Err: fmt.Errorf("reading the response: %w", transportError(err))}
	}
	if len(body) > MaxBody {
		return resp.StatusCode, nil, &Error{Step: step, Status: resp.StatusCode, Err: ErrTooLarge}
	}
	c.Log.Debug().Str("step", step).Int("status", resp.StatusCode).Int("bytes", len(body)).Msg("microsoft login step")
	return resp.StatusCode, body, nil
}

// NetError is a request that got no answer (connection refused or reset, a
// timeout): a step may be retried after it, unlike after an answer.
type NetError struct{ Err error }

func (e *NetError) Error() string { return e.Err.Error() }
func (e *NetError) Unwrap() error { return e.Err }

// transportError keeps a network error's kind and URL without its wrapped
// request details.
func transportError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s %s: %v", ue.Op, redactQuery(ue.URL), ue.Err)
	}
	return err
}

// redactQuery drops a URL's query and user info, in case a configured base
// URL carries something that should not be printed.
func redactQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(bad URL)"
	}
	u.RawQuery, u.User, u.Fragment = "", nil, ""
	return u.String()
}

// Login is a complete sign-in: the Microsoft tokens that renew it and the
// Minecraft token and profile that join servers.
type Login struct {
	// ClientID is the application the Microsoft tokens were issued to; a
	// refresh token works only with it.
	ClientID string
	// MSA is the Microsoft access token and the refresh token.
	MSA MSAToken
	// Minecraft is the Minecraft access token (sent to the session server
	// on every join) and when it expires.
	Minecraft        gtnh.Secret
	MinecraftExpires time.Time
	// Profile is the player.
	Profile Profile
}

// MSAToken is a Microsoft access token, its expiry and the refresh token.
type MSAToken struct {
	Access  gtnh.Secret
	Refresh gtnh.Secret
	Expires time.Time
}

// Profile is a Minecraft: Java Edition player.
type Profile struct {
	// ID is the player's UUID without dashes (32 hex digits).
	ID string
	// Name is the player name.
	Name string
}
