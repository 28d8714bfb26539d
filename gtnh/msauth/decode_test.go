package msauth

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func TestDecodeDeviceCodeChecksFields(t *testing.T) {
	ok := `{"device_code":"DC","user_code":"AB12","verification_uri":"https://www.microsoft.com/link","expires_in":900`
	dc, err := decodeDeviceCode(200, []byte(ok+`}`))
	require.NoError(t, err)
	assert.Equal(t, 5*time.Second, dc.Interval, "RFC 8628: no interval means 5 s")
	assert.Equal(t, 900*time.Second, dc.ExpiresIn)
	assert.Equal(t, "DC", dc.deviceCode.Reveal())

	for body, want := range map[string]string{
		ok + `,"interval":0}`:   "interval 0 outside 1..300",
		ok + `,"interval":301}`: "interval 301 outside 1..300",
		`{"device_code":"DC","user_code":"AB12","verification_uri":"https://x","expires_in":0}`:        "expires_in 0 outside 1..7200",
		`{"device_code":"DC","user_code":"AB12","verification_uri":"https://x","expires_in":7201}`:     "expires_in 7201 outside",
		`{"device_code":"DC","user_code":"AB12","verification_uri":"javascript:x","expires_in":900}`:   "verification_uri: not an http(s) URL",
		`{"device_code":"DC","user_code":"AB\u001b[2J","verification_uri":"https://x","expires_in":9}`: "user_code missing, over 64 bytes or not printable",
		`{"device_code":"","user_code":"AB","verification_uri":"https://x","expires_in":9}`:            "device_code missing",
		`[1,2]`: "the response has a array",
	} {
		_, err := decodeDeviceCode(200, []byte(body))
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), "microsoft login: device code: HTTP 200: "+want, body)
	}
	dc, err = decodeDeviceCode(200, []byte(ok+`,"interval":300}`))
	require.NoError(t, err)
	assert.Equal(t, 300*time.Second, dc.Interval)
	dc, err = decodeDeviceCode(200, []byte(ok+`,"interval":1}`))
	require.NoError(t, err)
	assert.Equal(t, time.Second, dc.Interval)
}

func TestDecodeTokenChecksFields(t *testing.T) {
	tok, oe, err := decodeToken(StepRefresh, 200, []byte(`{"token_type":"bearer","expires_in":3600,"access_token":"A","refresh_token":"R"}`), t0)
	require.NoError(t, err)
	require.Nil(t, oe)
	assert.Equal(t, t0.Add(time.Hour), tok.Expires)
	for body, want := range map[string]string{
		`{"token_type":"MAC","expires_in":3600,"access_token":"A"}`: "token_type is not Bearer",
		`{"expires_in":3600}`:                       "access_token missing",
		`{"expires_in":0,"access_token":"A"}`:       "expires_in 0 outside",
		`{"expires_in":2592001,"access_token":"A"}`: "expires_in 2592001 outside",
		`{"expires_in":9,"access_token":"A","refresh_token":"` + strings.Repeat("r", maxTokenLen+1) + `"}`: "refresh_token over 16384 bytes",
	} {
		_, _, err := decodeToken(StepRefresh, 200, []byte(body), t0)
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), "token refresh: HTTP 200: "+want)
	}
	_, oe, err = decodeToken(StepRefresh, 400, []byte(`{"error":"invalid_grant"}`), t0)
	require.NoError(t, err)
	assert.Equal(t, "invalid_grant", oe.Error)
	_, _, err = decodeToken(StepRefresh, 400, []byte(`<html>`), t0)
	assert.EqualError(t, err, "microsoft login: token refresh: HTTP 400: no OAuth error in the response")
}

func TestDecodeXboxChecksTheUserHash(t *testing.T) {
	tok, uhs, err := decodeXbox(StepXSTS, 200, []byte(`{"Token":"T","DisplayClaims":{"xui":[{"uhs":"123"}]}}`))
	require.NoError(t, err)
	assert.Equal(t, "T", tok.Reveal())
	assert.Equal(t, "123", uhs)
	for body, want := range map[string]string{
		`{"Token":"T","DisplayClaims":{"xui":[]}}`:              "no user hash",
		`{"Token":"T","DisplayClaims":{"xui":[{"uhs":""}]}}`:    "the user hash (uhs) is missing or malformed",
		`{"Token":"T","DisplayClaims":{"xui":[{"uhs":"a;b"}]}}`: "the user hash (uhs) is missing or malformed",
		`{"DisplayClaims":{"xui":[{"uhs":"1"}]}}`:               "Token missing",
	} {
		_, _, err := decodeXbox(StepXSTS, 200, []byte(body))
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), want, body)
	}
	_, _, err = decodeXbox(StepXSTS, 401, []byte(`{"XErr":-2148916238}`))
	assert.Contains(t, err.Error(), "(XErr unreadable error code)", "a code that is not a number is not printed")
	_, _, err = decodeXbox(StepXSTS, 401, []byte(`{}`))
	assert.EqualError(t, err, "microsoft login: XSTS authorization: HTTP 401: the service refused the token from the previous step")
}

func TestDecodeProfile(t *testing.T) {
	p, err := decodeProfile(200, []byte(`{"id":"0123456789ABCDEF0123456789abcdef","name":"Alex_1"}`))
	require.NoError(t, err)
	assert.Equal(t, Profile{ID: "0123456789abcdef0123456789abcdef", Name: "Alex_1"}, p)
	_, err = decodeProfile(200, []byte(`{"id":"0123456789abcdef0123456789abcdeg","name":"Alex"}`))
	assert.ErrorContains(t, err, "not 32 hex digits")
	_, err = decodeProfile(200, []byte(`{"id":"0123456789abcdef0123456789abcdef","name":"A lex"}`))
	assert.ErrorContains(t, err, "only letters, digits and _ are allowed")
	_, err = decodeProfile(429, nil)
	assert.EqualError(t, err, "microsoft login: Minecraft profile: HTTP 429: rate limited by the service; try again in a few minutes")
}

func TestCleanText(t *testing.T) {
	sec := gtnh.NewSecret("s3cr3t")
	for in, want := range map[string]string{
		"AADSTS70016: pending\r\nTrace ID: x":              "AADSTS70016: pending",
		"bad s3cr3t here":                                  "bad [REDACTED] here",
		"token eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1":           "token [REDACTED]",
		"short words stay":                                 "short words stay",
		"ctl\x1b[2Jchars\x00":                              "ctl[2Jchars",
		strings.Repeat("a ", 150):                          strings.Repeat("a ", 100) + "…",
		"exactly 23 token chars: abcdefghijklmnopqrstuvw":  "exactly 23 token chars: abcdefghijklmnopqrstuvw",
		"exactly 24 token chars: abcdefghijklmnopqrstuvwx": "exactly 24 token chars: [REDACTED]",
	} {
		assert.Equal(t, want, cleanText(in, sec), "%q", in)
	}
	assert.Equal(t, "slow_down", cleanCode("slow_down"))
	assert.Equal(t, "unreadable error code", cleanCode("a b"))
	assert.Equal(t, "unreadable error code", cleanCode(strings.Repeat("a", 65)))
	assert.Equal(t, strings.Repeat("a", 64), cleanCode(strings.Repeat("a", 64)))
}

func TestCacheRoundTrip(t *testing.T) {
	l := &Login{
		ClientID:  "cid",
		MSA:       MSAToken{Access: gtnh.NewSecret("a"), Refresh: gtnh.NewSecret("r"), Expires: t0},
		Minecraft: gtnh.NewSecret("m"), MinecraftExpires: t0.Add(time.Hour),
		Profile: Profile{ID: "0123456789abcdef0123456789abcdef", Name: "Steve"},
	}
	data, err := encodeCache(l)
	require.NoError(t, err)
	back, err := decodeCache(data)
	require.NoError(t, err)
	assert.Equal(t, "r", back.MSA.Refresh.Reveal())
	assert.Equal(t, "m", back.Minecraft.Reveal())
	assert.True(t, back.MinecraftExpires.Equal(l.MinecraftExpires))
	assert.Equal(t, l.Profile, back.Profile)
}

// FuzzDecodeResponse feeds any answer with any status to every response
// decoder: no panic, a typed error naming its step, and on success values
// within the checked bounds.
func FuzzDecodeResponse(f *testing.F) {
	f.Add(uint8(0), 200, []byte(`{"device_code":"D","user_code":"U","verification_uri":"https://x","expires_in":900,"interval":5}`))
	f.Add(uint8(1), 200, []byte(`{"token_type":"Bearer","expires_in":3600,"access_token":"A","refresh_token":"R"}`))
	f.Add(uint8(1), 400, []byte(`{"error":"authorization_pending","error_description":"AADSTS70016: pending\r\nTrace"}`))
	f.Add(uint8(2), 200, []byte(`{"Token":"T","DisplayClaims":{"xui":[{"uhs":"1"}]}}`))
	f.Add(uint8(2), 401, []byte(`{"XErr":2148916238}`))
	f.Add(uint8(3), 200, []byte(`{"access_token":"M","token_type":"Bearer","expires_in":86400}`))
	f.Add(uint8(4), 200, []byte(`{"id":"0123456789abcdef0123456789abcdef","name":"Steve"}`))
	f.Add(uint8(4), 404, []byte(`{"error":"NOT_FOUND"}`))
	f.Fuzz(func(t *testing.T, which uint8, status int, body []byte) {
		var err error
		var step string
		switch which % 5 {
		case 0:
			step = StepDeviceCode
			var dc *DeviceCode
			dc, err = decodeDeviceCode(status, body)
			if err == nil {
				if dc.Interval < time.Second || dc.Interval > maxInterval*time.Second || dc.ExpiresIn <= 0 || dc.deviceCode.Empty() || !printable(dc.UserCode) {
					t.Fatalf("out of bounds: %+v", dc)
				}
			}
		case 1:
			step = StepRefresh
			var tok *MSAToken
			var oe *oauthError
			tok, oe, err = decodeToken(step, status, body, t0)
			if err == nil && oe == nil && (tok.Access.Empty() || !tok.Expires.After(t0)) {
				t.Fatalf("out of bounds: %+v", tok)
			}
			if oe != nil {
				err = oauthErr(step, status, oe, nil)
			}
		case 2:
			step = StepXSTS
			var tok gtnh.Secret
			tok, _, err = decodeXbox(step, status, body)
			if err == nil && tok.Empty() {
				t.Fatal("empty token accepted")
			}
		case 3:
			step = StepMinecraftLogin
			var tok gtnh.Secret
			var exp time.Time
			tok, exp, err = decodeMinecraftLogin(status, body, t0)
			if err == nil && (tok.Empty() || !exp.After(t0)) {
				t.Fatal("out of bounds")
			}
		case 4:
			step = StepProfile
			var p Profile
			p, err = decodeProfile(status, body)
			if err == nil && (!isHex32(p.ID) || gtnh.ValidUsername(p.Name) != nil) {
				t.Fatalf("bad profile %+v", p)
			}
		}
		if err == nil {
			return
		}
		var me *Error
		if !errors.As(err, &me) || me.Step != step {
			t.Fatalf("error %v is not an *Error for %s", err, step)
		}
		if msg := err.Error(); len(msg) > 600 {
			t.Fatalf("error of %d bytes", len(msg))
		}
	})
}

// FuzzDecodeCache: any cache file decodes or fails without a panic, and a
// decoded one survives a round trip.
func FuzzDecodeCache(f *testing.F) {
	f.Add([]byte(`{"version":1,"client_id":"c","microsoft":{"access_token":"a","refresh_token":"r","expires_at":"2026-01-02T03:04:05Z"},"minecraft":{"access_token":"m","expires_at":"2026-01-03T03:04:05Z"},"profile":{"id":"0123456789abcdef0123456789abcdef","name":"Steve"}}`))
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`{"version":1,"microsoft":{"expires_at":"not a time"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := decodeCache(data)
		if err != nil {
			return
		}
		again, err := encodeCache(l)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeCache(again)
		if err != nil {
			t.Fatalf("a decoded cache does not decode again: %v", err)
		}
		if back.MSA.Refresh.Reveal() != l.MSA.Refresh.Reveal() || back.Profile != l.Profile || back.ClientID != l.ClientID {
			t.Fatal("round trip changed the login")
		}
	})
}
