package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/messages"
)

// owner is an HTTP client acting as the owner of a running daemon.
type owner struct {
	base  string
	token string
	http  *http.Client
}

// errNotRunning means no daemon answered.
var errNotRunning = errors.New("not running")

// ownerClient reads the owner token and finds the daemon's address: --addr
// when given, else the running daemon's serve.json, else the default.
func ownerClient(f *flags) (*owner, error) {
	token, err := daemon.ReadOwnerToken(f.cfg.DataDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("there is no owner token in %s; start buddi there once with `buddi serve --data %s`", f.cfg.DataDir, f.cfg.DataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("the owner token in %s cannot be read: %v", f.cfg.DataDir, err)
	}
	addr := f.cfg.Addr
	if !f.addrSet {
		if inst, err := daemon.ReadInstance(f.cfg.DataDir); err == nil {
			addr = inst.Addr
		}
	}
	return &owner{base: "http://" + addr, token: token, http: &http.Client{Timeout: 60 * time.Second}}, nil
}

// call sends one owner request and decodes the result into out.
func (o *owner) call(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, o.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+o.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.http.Do(req)
	if err != nil {
		return fmt.Errorf("%w: buddi is not running at %s; start it with `buddi serve` (or `make run`)", errNotRunning, o.base)
	}
	defer resp.Body.Close()
	var env struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
		Error  *messages.Error `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&env); err != nil {
		return fmt.Errorf("buddi at %s answered with something that is not its API (HTTP %d)", o.base, resp.StatusCode)
	}
	if env.Error != nil {
		return env.Error
	}
	if out != nil && len(env.Result) > 0 {
		return json.Unmarshal(env.Result, out)
	}
	return nil
}

// running reports whether a daemon answers /healthz at addr.
func running(addr string) bool {
	c := &http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get("http://" + addr + "/healthz")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
