package gtnh

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/Tnze/go-mc/net/CFB8"
	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// Secret holds a credential (an access token). It never prints: fmt, JSON,
// text marshalling and zerolog all show "[REDACTED]"; Reveal returns the
// value for the one place that sends it.
type Secret struct{ v string }

// NewSecret wraps a credential.
func NewSecret(v string) Secret { return Secret{v: v} }

// Reveal returns the credential.
func (s Secret) Reveal() string { return s.v }

// Empty reports whether no credential is set.
func (s Secret) Empty() bool { return s.v == "" }

const redacted = "[REDACTED]"

// String implements fmt.Stringer.
func (s Secret) String() string { return redacted }

// GoString implements fmt.GoStringer (%#v).
func (s Secret) GoString() string { return redacted }

// MarshalText implements encoding.TextMarshaler.
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// MarshalZerologObject keeps the secret out of structured logs.
func (s Secret) MarshalZerologObject(e *zerolog.Event) { e.Str("secret", redacted) }

// AuthProvider joins online-mode servers. The client computes the server
// hash; the provider tells the session service that its account joins the
// server with that hash (Mojang's "session join"), holding the credentials
// itself so that they never pass through the client.
type AuthProvider interface {
	// Name is the account's player name, sent in Login Start.
	Name() string
	// Join registers the join of serverHash with the session service. An
	// error that a retry cannot heal (the user must sign in again) should
	// match ErrCredentialsRefused, so that the client stops reconnecting.
	Join(ctx context.Context, serverHash string) error
}

// SessionAuth is an AuthProvider for a Yggdrasil-style session service:
// it POSTs {accessToken, selectedProfile, serverId} to URL + "/session/
// minecraft/join".
type SessionAuth struct {
	// URL of the session service, e.g. "https://sessionserver.mojang.com".
	URL string
	// Player is the account's name; ProfileID its undashed UUID.
	Player, ProfileID string
	// AccessToken authorises the join; it never appears in logs or errors.
	AccessToken Secret
	// HTTP is the client to use (default: one with a 10 s timeout).
	HTTP *http.Client
}

var _ AuthProvider = (*SessionAuth)(nil)

// Name implements AuthProvider.
func (a *SessionAuth) Name() string { return a.Player }

// Join implements AuthProvider.
func (a *SessionAuth) Join(ctx context.Context, serverHash string) error {
	if a.AccessToken.Empty() {
		return errors.New("session join: no access token configured")
	}
	body, err := json.Marshal(map[string]string{
		"accessToken":     a.AccessToken.Reveal(),
		"selectedProfile": a.ProfileID,
		"serverId":        serverHash,
	})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(a.URL, "/")+"/session/minecraft/join", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("session join: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	hc := a.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		// The request error names the URL, never the body.
		return fmt.Errorf("session join: %w", err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusOK {
		return fmt.Errorf("session join: %s: %s", resp.Status, scrub(string(msg), a.AccessToken))
	}
	return nil
}

// scrub removes a secret from text that may echo it.
func scrub(s string, secret Secret) string {
	if secret.Empty() {
		return s
	}
	return strings.ReplaceAll(s, secret.Reveal(), redacted)
}

// AuthDigest is the server hash of the session join: the SHA-1 of the
// server id (ASCII), the shared secret and the server's DER public key,
// printed as Java's BigInteger.toString(16) prints a signed two's-complement
// number — negative digests get a minus sign, leading zeros are dropped.
func AuthDigest(serverID string, sharedSecret, publicKey []byte) string {
	h := sha1.New()
	h.Write([]byte(serverID))
	h.Write(sharedSecret)
	h.Write(publicKey)
	sum := h.Sum(nil)
	n := new(big.Int).SetBytes(sum)
	if sum[0]&0x80 != 0 {
		// Two's complement: value − 2^160.
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(sum)*8)))
	}
	return n.Text(16)
}

// encrypt answers an Encryption Request: it makes a shared secret, joins
// through the provider, sends the Encryption Response and turns on AES/CFB8
// both ways.
func encrypt(ctx context.Context, c *conn, auth AuthProvider, req *proto17.EncryptionRequest) error {
	if auth == nil {
		return ErrNoAuthProvider
	}
	key, err := x509.ParsePKIXPublicKey(req.PublicKey)
	if err != nil {
		return fmt.Errorf("server public key: %w", err)
	}
	pub, ok := key.(*rsa.PublicKey)
	if !ok {
		return fmt.Errorf("server public key is a %T, not RSA", key)
	}
	secret := make([]byte, 16)
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	encSecret, err := rsa.EncryptPKCS1v15(rand.Reader, pub, secret)
	if err != nil {
		return fmt.Errorf("encrypting the shared secret: %w", err)
	}
	encToken, err := rsa.EncryptPKCS1v15(rand.Reader, pub, req.VerifyToken)
	if err != nil {
		return fmt.Errorf("encrypting the verify token: %w", err)
	}
	if err := auth.Join(ctx, AuthDigest(req.ServerID, secret, req.PublicKey)); err != nil {
		return err
	}
	if err := c.write(&proto17.EncryptionResponse{SharedSecret: encSecret, VerifyToken: encToken}); err != nil {
		return err
	}
	block, err := aes.NewCipher(secret)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	c.mc.SetCipher(CFB8.NewCFB8Encrypt(block, secret), CFB8.NewCFB8Decrypt(block, secret))
	c.wmu.Unlock()
	c.log.Debug().Str("stage", StageEncrypt).Msg("encryption enabled")
	return nil
}
