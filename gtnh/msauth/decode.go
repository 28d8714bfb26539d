package msauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
)

// Limits on decoded fields. Real values are far below them; anything above
// is a broken or hostile service.
const (
	maxTokenLen    = 16 << 10 // JWTs with claims are a few KiB
	maxCodeLen     = 64       // a user code is 8–9 characters
	maxURILen      = 2048
	maxInterval    = 300 // seconds between polls
	maxDeviceLife  = 7200
	maxTokenLife   = 30 * 24 * 3600
	defaultPollSec = 5 // RFC 8628 §3.2: "If no value is provided, clients MUST use 5 as the default."
	maxDescLen     = 200
)

// deviceCode is the device authorization response (Microsoft's device-code
// page, "Device authorization response"; RFC 8628 §3.2).
type deviceCode struct {
	DeviceCode      string `json:"device_code"`
	UserCode        string `json:"user_code"`
	VerificationURI string `json:"verification_uri"`
	ExpiresIn       int64  `json:"expires_in"`
	Interval        *int64 `json:"interval"`
}

// oauthError is the error body of the identity platform (RFC 6749 §5.2).
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// DeviceCode is what the user needs to sign in: open VerificationURI and
// type UserCode.
type DeviceCode struct {
	UserCode        string
	VerificationURI string
	// ExpiresIn is how long the code stays valid; Interval the wait
	// between polls.
	ExpiresIn, Interval time.Duration
	deviceCode          gtnh.Secret
}

func decodeDeviceCode(status int, body []byte) (*DeviceCode, error) {
	if status != http.StatusOK {
		return nil, oauthFailure(StepDeviceCode, status, body)
	}
	var d deviceCode
	if err := strictJSON("the response", body, &d); err != nil {
		return nil, &Error{Step: StepDeviceCode, Status: status, Err: err}
	}
	bad := func(format string, args ...any) error {
		return &Error{Step: StepDeviceCode, Status: status, Err: fmt.Errorf(format, args...)}
	}
	switch {
	case d.DeviceCode == "" || len(d.DeviceCode) > maxTokenLen:
		return nil, bad("device_code missing or over %d bytes", maxTokenLen)
	case d.UserCode == "" || len(d.UserCode) > maxCodeLen || !printable(d.UserCode):
		return nil, bad("user_code missing, over %d bytes or not printable", maxCodeLen)
	case d.ExpiresIn < 1 || d.ExpiresIn > maxDeviceLife:
		return nil, bad("expires_in %d outside 1..%d seconds", d.ExpiresIn, maxDeviceLife)
	}
	if err := checkWebURL(d.VerificationURI); err != nil {
		return nil, bad("verification_uri: %v", err)
	}
	interval := int64(defaultPollSec)
	if d.Interval != nil {
		interval = *d.Interval
		if interval < 1 || interval > maxInterval {
			return nil, bad("interval %d outside 1..%d seconds", interval, maxInterval)
		}
	}
	return &DeviceCode{
		UserCode: d.UserCode, VerificationURI: d.VerificationURI,
		ExpiresIn: time.Duration(d.ExpiresIn) * time.Second, Interval: time.Duration(interval) * time.Second,
		deviceCode: gtnh.NewSecret(d.DeviceCode),
	}, nil
}

// tokenResponse is the token endpoint's answer (Microsoft's device-code
// page, "Successful authentication response").
type tokenResponse struct {
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

// decodeToken reads a token endpoint answer. A non-200 answer is returned
// as its OAuth error (code and description) for the caller to interpret:
// authorization_pending is not a failure while polling.
func decodeToken(step string, status int, body []byte, now time.Time) (*MSAToken, *oauthError, error) {
	if status != http.StatusOK {
		var oe oauthError
		if err := json.Unmarshal(body, &oe); err != nil || oe.Error == "" {
			return nil, nil, &Error{Step: step, Status: status, Err: errors.New("no OAuth error in the response")}
		}
		return nil, &oe, nil
	}
	var t tokenResponse
	if err := strictJSON("the response", body, &t); err != nil {
		return nil, nil, &Error{Step: step, Status: status, Err: err}
	}
	bad := func(format string, args ...any) error {
		return &Error{Step: step, Status: status, Err: fmt.Errorf(format, args...)}
	}
	switch {
	case t.TokenType != "" && !strings.EqualFold(t.TokenType, "Bearer"):
		return nil, nil, bad("token_type is not Bearer")
	case t.AccessToken == "" || len(t.AccessToken) > maxTokenLen:
		return nil, nil, bad("access_token missing or over %d bytes", maxTokenLen)
	case len(t.RefreshToken) > maxTokenLen:
		return nil, nil, bad("refresh_token over %d bytes", maxTokenLen)
	case t.ExpiresIn < 1 || t.ExpiresIn > maxTokenLife:
		return nil, nil, bad("expires_in %d outside 1..%d seconds", t.ExpiresIn, maxTokenLife)
	}
	return &MSAToken{
		Access: gtnh.NewSecret(t.AccessToken), Refresh: gtnh.NewSecret(t.RefreshToken),
		Expires: now.Add(time.Duration(t.ExpiresIn) * time.Second),
	}, nil, nil
}

// oauthFailure turns a non-200 identity-platform answer into an *Error with
// the service's error code and a cleaned description.
func oauthFailure(step string, status int, body []byte, secrets ...gtnh.Secret) error {
	var oe oauthError
	if err := json.Unmarshal(body, &oe); err != nil || oe.Error == "" {
		return &Error{Step: step, Status: status, Err: errors.New("the service gave no reason")}
	}
	return oauthErr(step, status, &oe, nil, secrets...)
}

func oauthErr(step string, status int, oe *oauthError, cause error, secrets ...gtnh.Secret) error {
	code := cleanCode(oe.Error)
	desc := cleanText(oe.Description, secrets...)
	switch {
	case cause != nil && desc != "":
		cause = fmt.Errorf("%w; the service says: %s", cause, desc)
	case cause == nil && desc != "":
		cause = errors.New(desc)
	case cause == nil:
		cause = errors.New("the service gave no description")
	}
	return &Error{Step: step, Status: status, Code: code, Err: cause}
}

// xboxResponse is the answer of Xbox Live user authentication and of XSTS
// authorization (wiki.vg, "Authenticate with Xbox Live" and "Obtain XSTS
// token for Minecraft").
type xboxResponse struct {
	Token         string `json:"Token"`
	DisplayClaims struct {
		Xui []struct {
			Uhs string `json:"uhs"`
		} `json:"xui"`
	} `json:"DisplayClaims"`
}

// xstsError is XSTS's 401 body: {"Identity":"0","XErr":2148916233,
// "Message":"","Redirect":"…"} (wiki.vg, XSTS errors).
type xstsError struct {
	XErr json.Number `json:"XErr"`
}

// XSTS error codes (wiki.vg "Microsoft Authentication Scheme", "Obtain XSTS
// token for Minecraft"; PrismLauncher XboxAuthorizationStep.cpp handles
// 2148916233, 2148916235 and 2148916238 the same way).
var xstsErrors = map[string]error{
	"2148916233": ErrNoXboxAccount,
	"2148916235": ErrXboxRegion,
	"2148916236": ErrAdultVerification,
	"2148916237": ErrAdultVerification,
	"2148916238": ErrChildAccount,
}

func decodeXbox(step string, status int, body []byte) (token gtnh.Secret, uhs string, err error) {
	if status != http.StatusOK {
		if status == http.StatusUnauthorized {
			var xe xstsError
			if json.Unmarshal(body, &xe) == nil && xe.XErr != "" {
				code := cleanCode(xe.XErr.String())
				if known, ok := xstsErrors[code]; ok {
					return token, "", &Error{Step: step, Status: status, Code: "XErr " + code, Err: known}
				}
				return token, "", &Error{Step: step, Status: status, Code: "XErr " + code, Err: errors.New("the Xbox service refused this account")}
			}
		}
		return token, "", &Error{Step: step, Status: status, Err: statusCause(status)}
	}
	var x xboxResponse
	if err := strictJSON("the response", body, &x); err != nil {
		return token, "", &Error{Step: step, Status: status, Err: err}
	}
	if x.Token == "" || len(x.Token) > maxTokenLen {
		return token, "", &Error{Step: step, Status: status, Err: fmt.Errorf("Token missing or over %d bytes", maxTokenLen)}
	}
	if len(x.DisplayClaims.Xui) == 0 {
		return token, "", &Error{Step: step, Status: status, Err: errors.New("no user hash (DisplayClaims.xui) in the response")}
	}
	uhs = x.DisplayClaims.Xui[0].Uhs
	if uhs == "" || len(uhs) > maxCodeLen || !printable(uhs) || strings.ContainsAny(uhs, ";= ") {
		return token, "", &Error{Step: step, Status: status, Err: errors.New("the user hash (uhs) is missing or malformed")}
	}
	return gtnh.NewSecret(x.Token), uhs, nil
}

// minecraftLogin is login_with_xbox's answer (wiki.vg, "Authenticate with
// Minecraft"): {"username":"<uuid>","roles":[],"access_token":"…",
// "token_type":"Bearer","expires_in":86400}.
type minecraftLogin struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

func decodeMinecraftLogin(status int, body []byte, now time.Time) (gtnh.Secret, time.Time, error) {
	var none gtnh.Secret
	if status != http.StatusOK {
		cause := statusCause(status)
		if status == http.StatusForbidden {
			// wiki.vg: "new created Azure Apps must apply for the
			// Permission to use the Minecraft API … If your App don't
			// have the Permission api.minecraftservices.com will
			// return a 403."
			cause = errors.New("Minecraft services refused this application; a newly registered Azure application must first be approved for the Minecraft API (see docs/online-mode.md)")
		}
		return none, time.Time{}, &Error{Step: StepMinecraftLogin, Status: status, Err: cause}
	}
	var m minecraftLogin
	if err := strictJSON("the response", body, &m); err != nil {
		return none, time.Time{}, &Error{Step: StepMinecraftLogin, Status: status, Err: err}
	}
	bad := func(format string, args ...any) error {
		return &Error{Step: StepMinecraftLogin, Status: status, Err: fmt.Errorf(format, args...)}
	}
	switch {
	case m.TokenType != "" && !strings.EqualFold(m.TokenType, "Bearer"):
		return none, time.Time{}, bad("token_type is not Bearer")
	case m.AccessToken == "" || len(m.AccessToken) > maxTokenLen:
		return none, time.Time{}, bad("access_token missing or over %d bytes", maxTokenLen)
	case m.ExpiresIn < 1 || m.ExpiresIn > maxTokenLife:
		return none, time.Time{}, bad("expires_in %d outside 1..%d seconds", m.ExpiresIn, maxTokenLife)
	}
	return gtnh.NewSecret(m.AccessToken), now.Add(time.Duration(m.ExpiresIn) * time.Second), nil
}

// profileResponse is GET /minecraft/profile (wiki.vg, "Get the profile"):
// {"id":"<32 hex>","name":"…","skins":[…],"capes":[…]}; 404 when the
// account has no Java Edition profile.
type profileResponse struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func decodeProfile(status int, body []byte) (Profile, error) {
	switch status {
	case http.StatusOK:
	case http.StatusNotFound:
		return Profile{}, &Error{Step: StepProfile, Status: status, Err: ErrNoProfile}
	default:
		return Profile{}, &Error{Step: StepProfile, Status: status, Err: statusCause(status)}
	}
	var p profileResponse
	if err := strictJSON("the response", body, &p); err != nil {
		return Profile{}, &Error{Step: StepProfile, Status: status, Err: err}
	}
	if !isHex32(p.ID) {
		return Profile{}, &Error{Step: StepProfile, Status: status, Err: errors.New("the profile id is not 32 hex digits")}
	}
	if err := gtnh.ValidUsername(p.Name); err != nil {
		return Profile{}, &Error{Step: StepProfile, Status: status, Err: fmt.Errorf("the profile name: %v", err)}
	}
	return Profile{ID: strings.ToLower(p.ID), Name: p.Name}, nil
}

// statusCause is the cause for an HTTP status with no better explanation.
func statusCause(status int) error {
	switch {
	case status == http.StatusUnauthorized:
		return errors.New("the service refused the token from the previous step")
	case status == http.StatusTooManyRequests:
		return errors.New("rate limited by the service; try again in a few minutes")
	case status >= 500:
		return errors.New("the service failed; try again later")
	default:
		return errors.New("unexpected answer")
	}
}

// strictJSON decodes one JSON object, naming the problem without quoting
// the body.
func strictJSON(what string, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fmt.Errorf("%s is not JSON (offset %d)", what, se.Offset)
		case errors.As(err, &te):
			return fmt.Errorf("%s has a %s where %s wants a %s", what, te.Value, te.Field, te.Type)
		default:
			return fmt.Errorf("%s is not a JSON object", what)
		}
	}
	return nil
}

func checkWebURL(s string) error {
	if s == "" || len(s) > maxURILen || !printable(s) {
		return fmt.Errorf("missing, over %d bytes or not printable", maxURILen)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return errors.New("not an http(s) URL")
	}
	return nil
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func isHex32(s string) bool {
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// cleanCode keeps an error code that looks like one: letters, digits, _,
// at most 64 bytes.
func cleanCode(s string) string {
	if s == "" || len(s) > maxCodeLen {
		return "unreadable error code"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "unreadable error code"
		}
	}
	return s
}

// cleanText makes a service's free text safe to print: only its first line,
// printable ASCII, at most 200 bytes, every secret sent in the request
// removed, and any long token-like run of characters replaced, so that a
// service echoing (part of) a token cannot put it in an error message.
func cleanText(s string, secrets ...gtnh.Secret) string {
	for _, sec := range secrets {
		if !sec.Empty() {
			s = strings.ReplaceAll(s, sec.Reveal(), "[REDACTED]")
		}
	}
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	var b strings.Builder
	run := 0
	flush := func(word string) {
		if run >= 24 {
			b.WriteString("[REDACTED]")
		} else {
			b.WriteString(word)
		}
	}
	var word strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e {
			continue
		}
		if tokenChar(c) {
			word.WriteByte(c)
			run++
			continue
		}
		flush(word.String())
		word.Reset()
		run = 0
		b.WriteByte(c)
	}
	flush(word.String())
	out := strings.TrimSpace(b.String())
	if len(out) > maxDescLen {
		out = out[:maxDescLen] + "…"
	}
	return out
}

func tokenChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("-_.~+/=", c) >= 0
}
