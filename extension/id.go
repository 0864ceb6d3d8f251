package extension

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// StoreID is the id of the Chrome Web Store build, which carries no key.
const StoreID = "pbfpjefkiijjgefblpnlnlpmeaddfbah"

//go:embed manifest.json
var manifestJSON []byte

// Manifest is what buddi reads of the extension's manifest.
type Manifest struct {
	Version     string `json:"version"`
	VersionName string `json:"version_name"`
	Key         string `json:"key"`
}

// ReadManifest reads the embedded manifest.
func ReadManifest() (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(manifestJSON, &m); err != nil {
		return m, fmt.Errorf("extension: read the manifest: %w", err)
	}
	return m, nil
}

// IDOf is the id Chrome gives an extension whose manifest pins key (the
// base64 of its DER public key): the first 128 bits of the key's SHA-256,
// each hex digit 0-f written as a letter a-p.
func IDOf(key string) (string, error) {
	der, err := base64.StdEncoding.DecodeString(key)
	if err != nil || len(der) == 0 {
		return "", errors.New("extension: the manifest's key is not base64")
	}
	sum := sha256.Sum256(der)
	h := []byte(hex.EncodeToString(sum[:16]))
	for i, c := range h {
		if c >= 'a' {
			h[i] = c - 'a' + 10 + 'a'
		} else {
			h[i] = c - '0' + 'a'
		}
	}
	return string(h), nil
}

// ID is the id of the unpacked extension, from the key its manifest pins.
func ID() string {
	m, err := ReadManifest()
	if err != nil {
		panic(err) // the embedded manifest is checked by the package's tests
	}
	id, err := IDOf(m.Key)
	if err != nil {
		panic(err)
	}
	return id
}

// Accepted are the ids buddi pairs: the unpacked build's and the store's.
func Accepted() []string { return []string{ID(), StoreID} }

// ChromeVersion writes buddi's version (x.y.z, perhaps with a pre-release
// like -pre.24) as the four integers Chrome accepts: 0.1.0-pre.24 is
// 0.1.0.24, and a pre-release without a number (0.1.0-dev) is 0.1.0.0.
func ChromeVersion(v string) (string, error) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	core, pre, _ := strings.Cut(v, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return "", fmt.Errorf("extension: version %q is not x.y.z", v)
	}
	fourth := "0"
	if i := strings.LastIndexByte(pre, '.'); i >= 0 {
		fourth = pre[i+1:]
	}
	for _, p := range append(parts, fourth) {
		if n, err := strconv.Atoi(p); err != nil || n < 0 || n > 65535 || strconv.Itoa(n) != p {
			return "", fmt.Errorf("extension: version %q does not make four integers Chrome accepts", v)
		}
	}
	return core + "." + fourth, nil
}
