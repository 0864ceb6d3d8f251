// Package extension holds the "Your browser" extension: its Manifest V3
// source (the files beside this one, loaded unpacked by developers and
// zipped for the Chrome Web Store), the ids buddi accepts it under, and the
// pairing record buddi keeps of it in <data>/extension.json.
//
// The manifest pins a public key, so an unpacked copy has the same id on
// every machine; the store build carries no key and has the store's id.
// The record holds only a SHA-256 of the token the extension keeps.
package extension
