package extwire

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// Who makes a proof on the extension's wire: each side signs with its own
// label, so neither proof can be replayed as the other's.
const (
	ProverBuddi     = "buddi"
	ProverExtension = "extension"
)

// Proof is the MAC of one side's proof on the extension's wire:
// HMAC-SHA-256 keyed by the SHA-256 of the extension's token (hash, hex,
// as buddi stores it), over
//
//	"buddi-extension-proof/2" \n prover \n addr \n id \n extension's nonce \n buddi's nonce
//
// with the nonces in base64. addr is buddi's end of the socket as host:port
// and id the extension's id, so a proof made for one connection verifies
// on no other: not through a relay at another address, not for another
// copy of the extension, not with either nonce changed. extension/worker.js
// computes the same bytes.
func Proof(hash, prover, addr, id string, extNonce, buddiNonce []byte) []byte {
	key, _ := hex.DecodeString(hash)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(strings.Join([]string{"buddi-extension-proof/2", prover, addr, id,
		base64.StdEncoding.EncodeToString(extNonce), base64.StdEncoding.EncodeToString(buddiNonce)}, "\n")))
	return mac.Sum(nil)
}
