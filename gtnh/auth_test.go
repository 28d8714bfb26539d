package gtnh

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/Tnze/go-mc/net/CFB8"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

const testToken = "tok-SECRET-0123456789abcdef"

// onlineLogin is an online-mode login: encryption request, the client's
// response checked and decrypted, AES/CFB8 on, then the normal join.
func onlineLogin(t *testing.T, key *rsa.PrivateKey, gotHash *string) func(*serverConn) {
	return func(sc *serverConn) {
		sc.read(proto17.Handshaking)
		ls := sc.read(proto17.Login).(*proto17.LoginStart)
		assert.Equal(t, "Steve", ls.Name, "the provider's name")
		der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
		require.NoError(t, err)
		token := []byte{9, 8, 7, 6}
		sc.send(&proto17.EncryptionRequest{ServerID: "", PublicKey: der, VerifyToken: token})
		resp := sc.read(proto17.Login).(*proto17.EncryptionResponse)
		secret, err := rsa.DecryptPKCS1v15(nil, key, resp.SharedSecret)
		require.NoError(t, err)
		vt, err := rsa.DecryptPKCS1v15(nil, key, resp.VerifyToken)
		require.NoError(t, err)
		assert.Equal(t, token, vt)
		assert.Equal(t, AuthDigest("", secret, der), *gotHash, "the hash the session service saw")
		block, err := aes.NewCipher(secret)
		require.NoError(t, err)
		sc.mc.SetCipher(CFB8.NewCFB8Encrypt(block, secret), CFB8.NewCFB8Decrypt(block, secret))
		sc.send(&proto17.LoginSuccess{UUID: "00000000-0000-4000-8000-000000000001", Name: "Steve"})
		sc.formats = gtnhFormats
		sc.drain()
		sc.fmlHandshake(false)
		sc.send(&proto17.JoinGame{EntityID: 42, LevelType: "default"})
		for _, col := range standardWorld(nil) {
			sc.send(col.packet(t, true))
		}
		sc.send(&proto17.PlayerPositionAndLook{X: -7.5, Y: 64 + proto17.EyeHeight, Z: -7.5})
		expect(sc, func(*proto17.ServerboundPlayerPositionAndLook) bool { return true })
		<-sc.done
	}
}

func TestOnlineModeLoginKeepsTheTokenOutOfLogs(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	require.NoError(t, err)
	var mu sync.Mutex
	var hash string
	session := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]string
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		hash = body["serverId"]
		mu.Unlock()
		assert.Equal(t, "/session/minecraft/join", r.URL.Path)
		assert.Equal(t, testToken, body["accessToken"])
		w.WriteHeader(http.StatusNoContent)
	}))
	defer session.Close()
	var logs bytes.Buffer
	var lmu sync.Mutex
	auth := &SessionAuth{URL: session.URL, Player: "Steve", ProfileID: "0123", AccessToken: NewSecret(testToken)}
	n := newPipeNet(t, onlineLogin(t, key, &hash))
	c := testClient(t, n, func(cfg *Config) {
		cfg.Mods = testMods
		cfg.Auth = auth
		cfg.Log = zerolog.New(syncWriter{&lmu, &logs}).Level(zerolog.TraceLevel)
	})
	require.NoError(t, c.Open(context.Background()))
	assert.True(t, c.Connected())
	c.log.Info().Interface("auth", auth).Msg("provider")
	c.log.Info().Object("token", auth.AccessToken).Msg("token")
	require.NoError(t, c.Close())

	lmu.Lock()
	out := logs.String()
	lmu.Unlock()
	assert.Contains(t, out, "logged in")
	assert.NotContains(t, out, testToken)
	for _, s := range []string{fmt.Sprint(auth), fmt.Sprintf("%+v", auth), fmt.Sprintf("%#v", auth), fmt.Sprint(auth.AccessToken)} {
		assert.NotContains(t, s, testToken)
	}
	b, err := json.Marshal(auth)
	require.NoError(t, err)
	assert.NotContains(t, string(b), testToken)
}

func TestSessionJoinErrorsDoNotEchoTheToken(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `{"error":"ForbiddenOperationException","errorMessage":"Invalid token %s"}`, testToken)
	}))
	defer srv.Close()
	err := (&SessionAuth{URL: srv.URL, AccessToken: NewSecret(testToken)}).Join(context.Background(), "abc")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "403")
	assert.NotContains(t, err.Error(), testToken)
	assert.Error(t, (&SessionAuth{URL: srv.URL}).Join(context.Background(), "abc"), "no token")
}

type syncWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
