package msauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
)

// DefaultMargin is how long before its expiry a token counts as expired: a
// token about to run out is renewed rather than sent.
const DefaultMargin = 5 * time.Minute

// Account gives a valid Login: from the cache while its tokens last, else
// renewed with the refresh token, else (when Prompt is set) through a new
// device sign-in. Every renewal is saved to the cache.
type Account struct {
	Client *Client
	Cache  *Cache
	// Margin before expiry (default DefaultMargin).
	Margin time.Duration
	// Prompt shows the user the device code. Nil means the account never
	// starts a device sign-in by itself: when the refresh token is refused
	// the error says to run `agent login`.
	Prompt func(*DeviceCode)
}

func (a *Account) margin() time.Duration {
	if a.Margin > 0 {
		return a.Margin
	}
	return DefaultMargin
}

// valid reports whether a token expiring at t is still usable now.
func (a *Account) valid(t time.Time) bool {
	return a.Client.now().Add(a.margin()).Before(t)
}

// SignIn runs the device sign-in and the Minecraft steps, and saves the
// result.
func (a *Account) SignIn(ctx context.Context) (*Login, error) {
	if a.Prompt == nil {
		return nil, ErrNotLoggedIn
	}
	dc, err := a.Client.StartDevice(ctx)
	if err != nil {
		return nil, err
	}
	a.Prompt(dc)
	msa, err := a.Client.PollDevice(ctx, dc)
	if err != nil {
		return nil, err
	}
	l, err := a.Client.Minecraft(ctx, *msa)
	if err != nil {
		return nil, err
	}
	if err := a.Cache.Save(l); err != nil {
		return nil, err
	}
	return l, nil
}

// signInNeeded is a failure only the user can mend by signing in again
// (`agent login`): it keeps its cause's text and matches
// gtnh.ErrCredentialsRefused, so a client stops reconnecting on it.
type signInNeeded struct{ error }

func (e signInNeeded) Unwrap() error { return e.error }

// Is makes the error match gtnh.ErrCredentialsRefused.
func (e signInNeeded) Is(target error) bool { return target == gtnh.ErrCredentialsRefused }

// Session returns a login whose Minecraft token is valid for at least the
// margin. It uses the cache; renews an expired Minecraft token with the
// Microsoft token (refreshed first when it too has expired); and starts a
// device sign-in only when there is no usable cache or the refresh token is
// refused, and only when Prompt is set. A cache others can read is never
// used: with Prompt it is replaced by a new sign-in, without it the
// *PermissionError is returned.
//
// A refresh token the token endpoint refuses as invalid_grant (RFC 6749
// §5.2: "invalid, expired, revoked") is forgotten: the cache file is
// removed, unless another process has meanwhile saved a different login
// there. Without Prompt, every failure that only a new sign-in mends (no
// cache, an unusable or readable cache, another application id, a refused
// refresh token) matches gtnh.ErrCredentialsRefused and says to run `agent
// login`; network failures and service outages do not, so they are
// retried.
func (a *Account) Session(ctx context.Context) (*Login, error) {
	l, err := a.Cache.Load()
	var perm *PermissionError
	switch {
	case err == nil && l.ClientID != a.Client.ClientID:
		// Refresh tokens are bound to the application that got them.
		if a.Prompt == nil {
			return nil, signInNeeded{errors.New("the saved login was made with another Azure application id: run `agent login`")}
		}
		return a.SignIn(ctx)
	case err == nil:
	case (errors.Is(err, ErrNotLoggedIn) || errors.As(err, &perm)) && a.Prompt != nil:
		return a.SignIn(ctx)
	case errors.Is(err, ErrNotLoggedIn) || errors.As(err, &perm) || errors.Is(err, errCacheUnreadable):
		return nil, signInNeeded{err}
	default:
		return nil, err
	}
	if a.valid(l.MinecraftExpires) && !l.Minecraft.Empty() {
		return l, nil
	}
	msa := l.MSA
	if !a.valid(msa.Expires) || msa.Access.Empty() {
		fresh, err := a.Client.Refresh(ctx, msa.Refresh)
		if errors.Is(err, ErrRefreshRefused) {
			forgotten := a.forget(l, err)
			if a.Prompt != nil {
				return a.SignIn(ctx)
			}
			if forgotten {
				return nil, signInNeeded{fmt.Errorf("%w; the saved sign-in was removed: run `agent login` to sign in again", err)}
			}
			return nil, signInNeeded{fmt.Errorf("%w: run `agent login` to sign in again", err)}
		}
		if err != nil {
			return nil, err
		}
		msa = *fresh
	}
	renewed, err := a.Client.Minecraft(ctx, msa)
	if err != nil {
		return nil, err
	}
	if err := a.Cache.Save(renewed); err != nil {
		return nil, err
	}
	return renewed, nil
}

// forget removes the cached login whose refresh token was refused as
// invalid_grant, and reports whether it did. It first reads the cache again
// and leaves it when it now holds another refresh token (a sign-in or
// renewal by another process since). Other refusals (another 400 answer,
// such as a misconfigured application) keep the cache.
func (a *Account) forget(l *Login, refused error) bool {
	var e *Error
	if !errors.As(refused, &e) || e.Code != "invalid_grant" {
		return false
	}
	now, err := a.Cache.Load()
	if err != nil || now.MSA.Refresh.Reveal() != l.MSA.Refresh.Reveal() {
		return false
	}
	removed, err := a.Cache.Remove()
	if err != nil {
		a.Client.Log.Warn().Err(err).Str("cache", a.Cache.Path).Msg("could not remove the refused Microsoft sign-in")
		return false
	}
	if removed {
		a.Client.Log.Warn().Str("cache", a.Cache.Path).Msg("the saved Microsoft sign-in was refused (invalid_grant) and removed; run `agent login` to sign in again")
	}
	return removed
}

// Provider is a gtnh.AuthProvider for a Microsoft account: its name is the
// cached profile's, and every join first makes sure the Minecraft token is
// valid (renewing it as Account.Session does) before the session join.
type Provider struct {
	Account *Account
	// SessionURL is the session service (default
	// https://sessionserver.mojang.com).
	SessionURL string
	// HTTP is used for the session join.
	HTTP *http.Client

	mu   sync.Mutex
	name string
}

var _ gtnh.AuthProvider = (*Provider)(nil)

// DefaultSessionURL is Mojang's session service, which Microsoft accounts
// join through as Mojang accounts did.
const DefaultSessionURL = "https://sessionserver.mojang.com"

// NewProvider reads the cached login (no network) so that Name is known
// before the first join. It fails when there is no usable cache.
func NewProvider(a *Account, sessionURL string) (*Provider, error) {
	l, err := a.Cache.Load()
	if err != nil {
		return nil, err
	}
	if sessionURL == "" {
		sessionURL = DefaultSessionURL
	}
	return &Provider{Account: a, SessionURL: sessionURL, name: l.Profile.Name}, nil
}

// Name implements gtnh.AuthProvider.
func (p *Provider) Name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name
}

// Join implements gtnh.AuthProvider.
func (p *Provider) Join(ctx context.Context, serverHash string) error {
	l, err := p.Account.Session(ctx)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.name = l.Profile.Name
	p.mu.Unlock()
	sa := &gtnh.SessionAuth{URL: p.SessionURL, Player: l.Profile.Name, ProfileID: l.Profile.ID, AccessToken: l.Minecraft, HTTP: p.HTTP}
	return sa.Join(ctx, serverHash)
}
