// Package msauth signs a Minecraft: Java Edition account in with its
// Microsoft account, for joining online-mode servers.
//
// The chain has five steps, each a JSON (or form) request to a different
// service:
//
//  1. Microsoft identity platform, OAuth 2.0 device authorization grant
//     (consumers tenant, scope "XboxLive.signin offline_access"): the user
//     opens a URL on any device and types a short code; the client polls the
//     token endpoint until the user has signed in. A refresh token renews the
//     Microsoft access token later without the user.
//  2. Xbox Live user authentication: the Microsoft access token becomes an
//     Xbox Live user token and the user hash (uhs).
//  3. XSTS authorization for the relying party rp://api.minecraftservices.com/:
//     the Xbox Live token becomes an XSTS token; accounts without an Xbox
//     profile, child accounts and blocked regions are refused here (XErr).
//  4. Minecraft services login_with_xbox: "XBL3.0 x=<uhs>;<xsts token>"
//     becomes a Minecraft access token (valid about a day).
//  5. The Minecraft profile: the player's UUID and name.
//
// Sources: Microsoft's "Microsoft identity platform and the OAuth 2.0 device
// authorization grant flow" (learn.microsoft.com, entra/identity-platform/
// v2-oauth2-device-code) and RFC 8628 §3.4–3.5 for step 1; the
// "Microsoft Authentication Scheme" page of wiki.vg (now "Microsoft
// authentication" on minecraft.wiki) for steps 2–5 and the XSTS error codes;
// PrismLauncher's launcher/minecraft/auth/steps/MSADeviceCodeStep.cpp and
// XboxAuthorizationStep.cpp as an open-source client doing the same.
//
// Every response is untrusted: bodies are read through a 64 KiB limit, every
// field is checked, and errors name the step and the HTTP status but never a
// token. Tokens are held as gtnh.Secret values and are never logged.
//
// A Cache keeps the tokens in a JSON file that only its owner can read; an
// Account gives a valid login from the cache, refreshing what has expired and
// running the device flow again only when the refresh token is refused.
// Provider is a gtnh.AuthProvider over an Account.
package msauth
