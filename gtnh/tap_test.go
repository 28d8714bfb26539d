package gtnh

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/memnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// captureTap keeps what a Tap is told.
type captureTap struct {
	mu        sync.Mutex
	conns     []TapConnection
	frames    []proto17.Packet // decoded in the state the frame came in
	raw       [][]byte
	sent      []proto17.Packet
	formats   []proto17.Formats
	closed    int
	loginDone bool
}

func (c *captureTap) Connected(info TapConnection) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conns = append(c.conns, info)
	c.loginDone = false
}

func (c *captureTap) Received(id int32, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := proto17.Play
	if !c.loginDone {
		st = proto17.Login
		c.loginDone = id == proto17.IDClientboundLoginSuccess
	}
	p, _ := proto17.Decode(st, proto17.Clientbound, id, bytes.Clone(data), gtnhFormats)
	c.frames = append(c.frames, p)
	c.raw = append(c.raw, bytes.Clone(data))
}

func (c *captureTap) Sent(p proto17.Packet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, p)
}

func (c *captureTap) FormatsChanged(f proto17.Formats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.formats = append(c.formats, f)
}

func (c *captureTap) Closed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed++
}

// TestTapSeesDecryptedFramesAndNoToken: on an online-mode login the tap
// gets every frame after decryption (Login Success reads in clear), the
// Encryption Request the recorder leaves out, and never the access token,
// which goes to the session service only.
func TestTapSeesDecryptedFramesAndNoToken(t *testing.T) {
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
		w.WriteHeader(http.StatusNoContent)
	}))
	defer session.Close()
	tap := &captureTap{}
	n := newPipeNet(t, onlineLogin(t, key, &hash))
	c := testClient(t, n, func(cfg *Config) {
		cfg.Mods = testMods
		cfg.Auth = &SessionAuth{URL: session.URL, Player: "Steve", ProfileID: "0123", AccessToken: NewSecret(testToken)}
		cfg.Tap = tap
	})
	require.NoError(t, c.Open(context.Background()))
	require.NoError(t, c.Close())

	tap.mu.Lock()
	defer tap.mu.Unlock()
	require.Len(t, tap.conns, 1)
	assert.Equal(t, testMods, tap.conns[0].Mods)
	assert.Equal(t, 1, tap.closed)
	assert.NotEmpty(t, tap.formats, "the handshake's formats")
	require.GreaterOrEqual(t, len(tap.frames), 3)
	_, isReq := tap.frames[0].(*proto17.EncryptionRequest)
	assert.True(t, isReq, "the Encryption Request: %T", tap.frames[0])
	ls, ok := tap.frames[1].(*proto17.LoginSuccess)
	require.True(t, ok, "Login Success, decrypted: %T", tap.frames[1])
	assert.Equal(t, "Steve", ls.Name)
	var chunks int
	for _, p := range tap.frames {
		if _, ok := p.(*proto17.ChunkData); ok {
			chunks++
		}
	}
	assert.Positive(t, chunks, "play frames, decrypted")
	for _, b := range tap.raw {
		assert.NotContains(t, string(b), testToken)
	}
	var positions int
	for _, p := range tap.sent {
		if _, ok := p.(*proto17.ServerboundPlayerPositionAndLook); ok {
			positions++
		}
	}
	assert.Positive(t, positions, "the position confirmation")
}

// TestTapSeesWholeFramesOnly: a frame cut off by the end of the stream, or
// a read that times out, is not reported (the buffer then holds the
// previous frame or a part).
func TestTapSeesWholeFramesOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		client, server := memnet.Pipe()
		c := newConn(client, time.Second, zerolog.Nop())
		tap := &captureTap{loginDone: true}
		c.startTap(tap, TapConnection{})
		go func() {
			_, _ = server.Write([]byte{2, 0x00, 7})    // Keep Alive, whole
			_, _ = server.Write([]byte{5, 0x00, 1, 2}) // cut: 5 bytes announced, 3 sent
			_ = server.Close()
		}()
		var buf pk.Packet
		require.NoError(t, c.read(&buf, time.Second))
		require.Error(t, c.read(&buf, time.Second))
		require.Error(t, c.read(&buf, 10*time.Millisecond))
		c.close()
		tap.mu.Lock()
		defer tap.mu.Unlock()
		require.Len(t, tap.raw, 1)
		assert.Equal(t, []byte{7}, tap.raw[0])
		assert.Equal(t, 1, tap.closed)
	})
}
