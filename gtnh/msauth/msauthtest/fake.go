// Package msauthtest is a local fake of the services a Microsoft-account
// sign-in talks to (the identity platform's device-code and token
// endpoints, Xbox Live user authentication, XSTS, Minecraft services and
// the session server's join), with scripted behaviour for tests: pending
// and slow_down answers, an expired or declined code, a refused refresh,
// XSTS errors, a missing profile, broken JSON, huge bodies and error
// descriptions that echo the token they were sent.
//
// The fake checks the chain as the real services would: each step accepts
// only a token the fake issued at the step before, so a client that sends
// the wrong token fails here as it would there.
package msauthtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/gtnh/msauth"
)

// Steps the fake can break (Break's first argument).
const (
	DeviceCode = "devicecode"
	Token      = "token"
	XboxUser   = "xbl"
	XSTS       = "xsts"
	Minecraft  = "minecraft"
	Profile    = "profile"
	Join       = "join"
)

// Breakage is what a broken step answers.
type Breakage int

const (
	// BadJSON answers 200 with a body that is not JSON.
	BadJSON Breakage = iota + 1
	// Huge answers 200 with a body of 1 MiB.
	Huge
	// WrongTypes answers 200 with JSON whose fields have the wrong types.
	WrongTypes
	// ServerError answers 503.
	ServerError
	// Forbidden answers 403.
	Forbidden
	// Drop closes the connection without an answer.
	Drop
)

// Secret is the marker every token the fake issues contains, so tests can
// check that no token reaches a log or an error.
const Secret = "SECRET"

// Fake is the fake services. Configure the fields before the first
// request (or under Lock for later changes).
type Fake struct {
	*httptest.Server

	// ClientID the fake accepts (default "test-client").
	ClientID string
	// PlayerName and PlayerID are the profile (defaults "Steve" and
	// 0123456789abcdef0123456789abcdef).
	PlayerName, PlayerID string
	// Interval and CodeLife are the device code's interval and
	// expires_in (defaults 1 and 900 seconds).
	Interval, CodeLife int
	// MSALife and MinecraftLife are the tokens' expires_in (defaults 3600
	// and 86400).
	MSALife, MinecraftLife int

	// SlowDown polls answer slow_down, then Pending polls answer
	// authorization_pending, then the poll answers PollError when set
	// ("expired_token", "access_denied", …) or the tokens.
	SlowDown, Pending int
	PollError         string
	// RefreshError makes refreshes fail with this OAuth error
	// ("invalid_grant"), with RefreshStatus (default 400).
	RefreshError  string
	RefreshStatus int
	// OmitRefreshToken leaves refresh_token out of token answers.
	OmitRefreshToken bool
	// XSTSUserHash, when set, is the user hash XSTS answers (Xbox Live
	// answers "userhash42").
	XSTSUserHash string
	// XErr makes XSTS answer 401 with this XErr.
	XErr uint64
	// NoProfile makes the profile answer 404.
	NoProfile bool
	// EchoSecrets makes error answers describe the token they were sent.
	EchoSecrets bool

	mu      sync.Mutex
	broken  map[string]Breakage
	times   map[string]int // remaining broken answers; absent: for ever
	calls   map[string]int
	n       int
	issued  map[string]string // token → kind
	revoked map[string]bool
	joins   []string
}

// New starts a fake; it closes with the test.
func New(t interface{ Cleanup(func()) }) *Fake {
	f := &Fake{
		ClientID: "test-client", PlayerName: "Steve", PlayerID: "0123456789abcdef0123456789abcdef",
		Interval: 1, CodeLife: 900, MSALife: 3600, MinecraftLife: 86400,
		broken: map[string]Breakage{}, times: map[string]int{}, calls: map[string]int{}, issued: map[string]string{}, revoked: map[string]bool{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /consumers"+msauth.PathDeviceCode, f.deviceCode)
	mux.HandleFunc("POST /consumers"+msauth.PathToken, f.token)
	mux.HandleFunc("POST "+msauth.PathXboxUser, f.xboxUser)
	mux.HandleFunc("POST "+msauth.PathXSTS, f.xsts)
	mux.HandleFunc("POST "+msauth.PathMinecraftLogin, f.minecraft)
	mux.HandleFunc("GET "+msauth.PathProfile, f.profile)
	mux.HandleFunc("POST /session/minecraft/join", f.join)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Server.Close)
	return f
}

// Endpoints point a client at the fake.
func (f *Fake) Endpoints() msauth.Endpoints {
	return msauth.Endpoints{Microsoft: f.URL + "/consumers", XboxUser: f.URL, XSTS: f.URL, Minecraft: f.URL}
}

// Lock and Unlock guard changes to the script after the fake has started.
func (f *Fake) Lock()   { f.mu.Lock() }
func (f *Fake) Unlock() { f.mu.Unlock() }

// Break makes a step answer with b.
func (f *Fake) Break(step string, b Breakage) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.broken[step] = b
}

// BreakN makes the next n requests of a step answer with b.
func (f *Fake) BreakN(step string, b Breakage, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.broken[step] = b
	f.times[step] = n
}

// Calls is how many requests a step got.
func (f *Fake) Calls(step string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[step]
}

// Joins are the server hashes joined, in order.
func (f *Fake) Joins() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.joins...)
}

// RevokeAll makes every token issued so far invalid (a password change).
func (f *Fake) RevokeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for tok := range f.issued {
		f.revoked[tok] = true
	}
}

// Issued reports whether tok is a live token of the kind ("msa-access",
// "msa-refresh", "device", "xbl", "xsts", "minecraft").
func (f *Fake) Issued(tok, kind string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.valid(tok, kind)
}

func (f *Fake) valid(tok, kind string) bool {
	return f.issued[tok] == kind && !f.revoked[tok]
}

// issue makes a token: unique, marked with Secret, long enough to look
// like one.
func (f *Fake) issue(kind string) string {
	f.n++
	tok := fmt.Sprintf("%s_%s_%d_%s", kind, Secret, f.n, strings.Repeat("x", 40))
	f.issued[tok] = kind
	return tok
}

// begin counts a call and answers a breakage; it reports whether it did.
// It holds f.mu on return when it returns false.
func (f *Fake) begin(w http.ResponseWriter, step string) bool {
	f.mu.Lock()
	f.calls[step]++
	b, ok := f.broken[step]
	if !ok {
		return false
	}
	if n, counted := f.times[step]; counted {
		if n == 1 {
			delete(f.broken, step)
			delete(f.times, step)
		} else {
			f.times[step] = n - 1
		}
	}
	f.mu.Unlock()
	switch b {
	case BadJSON:
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"access_token": "half`))
	case Huge:
		w.WriteHeader(http.StatusOK)
		chunk := []byte(strings.Repeat(" ", 64<<10))
		for range 16 {
			if _, err := w.Write(chunk); err != nil {
				break
			}
		}
	case WrongTypes:
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"access_token": 12, "expires_in": "soon", "Token": [], "id": 5, "device_code": {}}`))
	case ServerError:
		w.WriteHeader(http.StatusServiceUnavailable)
	case Forbidden:
		w.WriteHeader(http.StatusForbidden)
	case Drop:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
			}
		}
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *Fake) oauthError(w http.ResponseWriter, code, sent string) {
	f.oauthErrorStatus(w, http.StatusBadRequest, code, sent)
}

func (f *Fake) oauthErrorStatus(w http.ResponseWriter, status int, code, sent string) {
	desc := "AADSTS70016: scripted " + code + "\r\nTrace ID: 00000000-0000-0000-0000-000000000000"
	if f.EchoSecrets {
		desc = "AADSTS9002313: the value " + sent + " (" + sent[:len(sent)/2] + "…) was not accepted"
	}
	writeJSON(w, status, map[string]any{"error": code, "error_description": desc, "error_codes": []int{70016}})
}

func (f *Fake) deviceCode(w http.ResponseWriter, r *http.Request) {
	if f.begin(w, DeviceCode) {
		return
	}
	defer f.mu.Unlock()
	if r.PostFormValue("client_id") != f.ClientID {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "unauthorized_client", "error_description": "AADSTS700016: Application with identifier was not found in the directory."})
		return
	}
	if !strings.Contains(r.PostFormValue("scope"), "XboxLive.signin") || !strings.Contains(r.PostFormValue("scope"), "offline_access") {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_scope"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"device_code": f.issue("device"), "user_code": "ABCD-1234", "verification_uri": "https://www.microsoft.com/link",
		"expires_in": f.CodeLife, "interval": f.Interval, "message": "To sign in, use a web browser",
	})
}

func (f *Fake) token(w http.ResponseWriter, r *http.Request) {
	if f.begin(w, Token) {
		return
	}
	defer f.mu.Unlock()
	if r.PostFormValue("client_id") != f.ClientID {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_client"})
		return
	}
	switch r.PostFormValue("grant_type") {
	case "urn:ietf:params:oauth:grant-type:device_code":
		dc := r.PostFormValue("device_code")
		if !f.valid(dc, "device") {
			f.oauthError(w, "bad_verification_code", dc)
			return
		}
		switch {
		case f.SlowDown > 0:
			f.SlowDown--
			f.oauthError(w, "slow_down", dc)
			return
		case f.Pending > 0:
			f.Pending--
			f.oauthError(w, "authorization_pending", dc)
			return
		case f.PollError != "":
			f.oauthError(w, f.PollError, dc)
			return
		}
		f.revoked[dc] = true
	case "refresh_token":
		rt := r.PostFormValue("refresh_token")
		if f.RefreshError != "" || !f.valid(rt, "msa-refresh") {
			code, status := f.RefreshError, f.RefreshStatus
			if code == "" {
				code = "invalid_grant"
			}
			if status == 0 {
				status = http.StatusBadRequest
			}
			f.oauthErrorStatus(w, status, code, rt)
			return
		}
	default:
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "unsupported_grant_type"})
		return
	}
	answer := map[string]any{
		"token_type": "Bearer", "scope": "XboxLive.signin offline_access", "expires_in": f.MSALife,
		"access_token": f.issue("msa-access"),
	}
	if !f.OmitRefreshToken {
		answer["refresh_token"] = f.issue("msa-refresh")
	}
	writeJSON(w, http.StatusOK, answer)
}

type xboxRequest struct {
	Properties struct {
		AuthMethod, SiteName, RpsTicket, SandboxId string
		UserTokens                                 []string
	}
	RelyingParty, TokenType string
}

func (f *Fake) xboxAnswer(w http.ResponseWriter, kind string) {
	uhs := "userhash42"
	if kind == "xsts" && f.XSTSUserHash != "" {
		uhs = f.XSTSUserHash
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"IssueInstant": "2020-12-07T19:52:08.4463796Z", "NotAfter": "2020-12-21T19:52:08.4463796Z",
		"Token": f.issue(kind), "DisplayClaims": map[string]any{"xui": []map[string]string{{"uhs": uhs}}},
	})
}

func (f *Fake) xboxUser(w http.ResponseWriter, r *http.Request) {
	if f.begin(w, XboxUser) {
		return
	}
	defer f.mu.Unlock()
	var req xboxRequest
	if json.NewDecoder(r.Body).Decode(&req) != nil || req.Properties.AuthMethod != "RPS" || req.Properties.SiteName != "user.auth.xboxlive.com" ||
		req.RelyingParty != "http://auth.xboxlive.com" || req.TokenType != "JWT" || !strings.HasPrefix(req.Properties.RpsTicket, "d=") ||
		!f.valid(strings.TrimPrefix(req.Properties.RpsTicket, "d="), "msa-access") {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	f.xboxAnswer(w, "xbl")
}

func (f *Fake) xsts(w http.ResponseWriter, r *http.Request) {
	if f.begin(w, XSTS) {
		return
	}
	defer f.mu.Unlock()
	var req xboxRequest
	if json.NewDecoder(r.Body).Decode(&req) != nil || req.Properties.SandboxId != "RETAIL" || len(req.Properties.UserTokens) != 1 ||
		req.RelyingParty != "rp://api.minecraftservices.com/" || req.TokenType != "JWT" || !f.valid(req.Properties.UserTokens[0], "xbl") {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if f.XErr != 0 {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"Identity": "0", "XErr": f.XErr, "Message": "", "Redirect": "https://start.ui.xboxlive.com/AddChildToFamily"})
		return
	}
	f.xboxAnswer(w, "xsts")
}

func (f *Fake) minecraft(w http.ResponseWriter, r *http.Request) {
	if f.begin(w, Minecraft) {
		return
	}
	defer f.mu.Unlock()
	var req struct {
		IdentityToken string `json:"identityToken"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	rest, ok := strings.CutPrefix(req.IdentityToken, "XBL3.0 x=userhash42;")
	if !ok || !f.valid(rest, "xsts") {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"path": msauth.PathMinecraftLogin, "errorMessage": "Invalid app registration"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"username": "a1b2c3d4-0000-0000-0000-000000000000", "roles": []string{},
		"access_token": f.issue("minecraft"), "token_type": "Bearer", "expires_in": f.MinecraftLife,
	})
}

func (f *Fake) profile(w http.ResponseWriter, r *http.Request) {
	if f.begin(w, Profile) {
		return
	}
	defer f.mu.Unlock()
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || !f.valid(tok, "minecraft") {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if f.NoProfile {
		writeJSON(w, http.StatusNotFound, map[string]any{"path": msauth.PathProfile, "error": "NOT_FOUND", "errorMessage": "The server has not found anything matching the request URI"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": f.PlayerID, "name": f.PlayerName, "skins": []any{}, "capes": []any{}})
}

func (f *Fake) join(w http.ResponseWriter, r *http.Request) {
	if f.begin(w, Join) {
		return
	}
	defer f.mu.Unlock()
	var req struct{ AccessToken, SelectedProfile, ServerID string }
	if json.NewDecoder(r.Body).Decode(&req) != nil || !f.valid(req.AccessToken, "minecraft") || req.SelectedProfile != f.PlayerID {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	f.joins = append(f.joins, req.ServerID)
	w.WriteHeader(http.StatusNoContent)
}
