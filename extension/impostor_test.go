package extension_test

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// TestAnImpostorCannotDisplaceOrBorrowThePairing is a local process posing
// as the extension (the right Origin, which any program can send, and no
// key) against the real extension in headless Chromium: it gets a code of
// its own that displaces neither the code the extension shows nor the
// pairing, a proof that is never a signature over the nonce it chose, and
// nothing with a wrong token; a relay at another address never sees the
// extension's token. The real extension keeps working throughout.
func TestAnImpostorCannotDisplaceOrBorrowThePairing(t *testing.T) {
	src, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	d := daemontest.Start(t, "", daemon.Options{Version: "test"})
	addr := d.Addr()
	c := launch(t, src)
	c.workerIDs(1)
	popup := c.popup(extension.ID())

	// A code shows in the popup; the impostor asks for one too.
	code := connect(t, popup, addr)
	impostor := dialExt(t, addr)
	impostor.hello(true)
	if own := impostor.recv(extwire.CodeType).Code; own == code {
		t.Fatal("the impostor was shown the extension's code")
	}
	if r := pair(t, d, code); !r.OK {
		t.Fatalf("the code the popup shows, after the impostor asked for one: %+v", r.Error)
	}
	waitFor(t, "the extension to connect", func() bool { return view(t, d).Connected })
	if m := impostor.recv(extwire.RefusedType); m.Error == nil || m.Error.Code != messages.CodeExtRefused {
		t.Fatalf("the impostor's code after the owner paired the extension: %+v", m)
	}
	rec, _, err := extension.Load(d.Dir)
	if err != nil {
		t.Fatal(err)
	}

	// Paired: a hello with a nonce of its choosing gets no signature over
	// that nonce, and a wrong token gets nothing.
	impostor = dialExt(t, addr)
	impostor.hello(false)
	p := impostor.recv(extwire.ProofType)
	sig, _ := base64.StdEncoding.DecodeString(p.Sig)
	key, _ := hex.DecodeString(rec.TokenHash)
	alone := hmac.New(sha256.New, key)
	alone.Write(impostor.nonce)
	if hmac.Equal(sig, alone.Sum(nil)) || p.Nonce == "" || p.Addr != addr {
		t.Fatalf("buddi signed the impostor's nonce alone, or left out its own nonce or address: %+v", p)
	}
	impostor.send(&extwire.Token{Type: "token", Token: "bx_" + strings.Repeat("0", 64), Proof: p.Sig})
	if m := impostor.recv(extwire.RefusedType); m.Error == nil || m.Error.Code != messages.CodeExtRefused {
		t.Fatalf("a wrong token: %+v", m)
	}
	status(t, d)

	// A hello asking to pair, while paired, gets a code and changes nothing.
	impostor = dialExt(t, addr)
	impostor.hello(true)
	impostor.recv(extwire.CodeType)
	if v := view(t, d); !v.Paired || !v.Connected {
		t.Fatalf("a pairing hello while paired: %+v", v)
	}
	if now, _, _ := extension.Load(d.Dir); now.TokenHash != rec.TokenHash {
		t.Fatal("a pairing hello changed the pairing")
	}
	status(t, d)

	// A relay at another address passes the extension's connection on to
	// buddi, Host rewritten: buddi's proof names buddi's own address, so
	// the extension stops there, and its token never reaches the relay.
	r := startRelay(t, addr)
	aim(t, popup, r.addr)
	waitFor(t, "the popup to say the proof failed", func() bool {
		return strings.Contains(text(t, popup, "#problem"), "passing the connection on")
	})
	if r.sawHello() == 0 || r.sawToken() {
		t.Fatalf("through the relay: %d hellos, token seen %v", r.sawHello(), r.sawToken())
	}
	aim(t, popup, addr)
	waitFor(t, "the extension back on buddi's own address", func() bool { return view(t, d).Connected })
	status(t, d)
	if r.sawToken() {
		t.Fatal("the relay saw the extension's token")
	}
}

// aim sets the address in the popup, as the owner does (only the
// unpaired view shows the field, so this asks the worker as the popup's
// Connect button does).
func aim(t testing.TB, popup pw.Page, addr string) {
	t.Helper()
	if _, err := popup.Evaluate(`a => chrome.runtime.sendMessage({type: 'address', address: a})`, addr); err != nil {
		t.Fatal(err)
	}
}

// relay is a local process that passes extension sockets on to buddi with
// the Host rewritten, reading what the extension sends as it goes.
type relay struct {
	addr   string
	mu     sync.Mutex
	hellos int
	token  bool
}

func startRelay(t testing.TB, buddi string) *relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{addr: ln.Addr().String()}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go r.pass(c, buddi)
		}
	}()
	return r
}

func (r *relay) pass(c net.Conn, buddi string) {
	defer c.Close()
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	up, err := net.Dial("tcp", buddi)
	if err != nil {
		return
	}
	defer up.Close()
	req.Host = buddi
	req.Header.Del("Sec-WebSocket-Extensions")
	if req.Write(up) != nil {
		return
	}
	go func() { _, _ = io.Copy(c, up) }()
	r.read(io.TeeReader(br, up))
}

// read decodes the extension's (masked) frames as they pass.
func (r *relay) read(in io.Reader) {
	for {
		var h [2]byte
		if _, err := io.ReadFull(in, h[:]); err != nil {
			return
		}
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(in, b[:]); err != nil {
				return
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(in, b[:]); err != nil {
				return
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		var mask [4]byte
		if h[1]&0x80 != 0 {
			if _, err := io.ReadFull(in, mask[:]); err != nil {
				return
			}
		}
		if n > extwire.MaxMessage {
			return
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(in, payload); err != nil {
			return
		}
		for i := range payload {
			payload[i] ^= mask[i%4]
		}
		r.mu.Lock()
		if bytes.Contains(payload, []byte(`"type":"hello"`)) {
			r.hellos++
		}
		if bytes.Contains(payload, []byte(`"type":"token"`)) || bytes.Contains(payload, []byte("bx_")) {
			r.token = true
		}
		r.mu.Unlock()
	}
}

func (r *relay) sawHello() int { r.mu.Lock(); defer r.mu.Unlock(); return r.hellos }
func (r *relay) sawToken() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.token
}
