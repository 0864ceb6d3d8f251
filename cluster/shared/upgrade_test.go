package shared_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// signV1 is a record as the version before generations signed it: the
// MAC over the key's length, the key and the value.
func signV1(key, v string) string {
	h := hmac.New(sha256.New, testSecret.RecordKey())
	h.Write([]byte(strconv.Itoa(len(key)) + ":" + key + v))
	return "buddi-signed-v1 " + hex.EncodeToString(h.Sum(nil)) + "\n" + v
}

// Records the first version signed are read after an upgrade: the owner's
// Stop holds and an agent stays; a write replaces them with this
// version's, and the older record written back then is refused.
func TestRecordsOfTheVersionBeforeGenerationsAreReadAfterAnUpgrade(t *testing.T) {
	srv := etcdtest.Start(t)
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC).Format(time.RFC3339Nano)
	stopV1 := signV1(prefix+"/stop", `{"v":2,"stopped":true,"at":"`+at+`","seq":7}`)
	agentV1 := signV1(prefix+"/agents/ada", `{"name":"ada"}`)
	// What a cluster of the version before holds: its check record of
	// the secret, the owner's Stop, an agent.
	writeBack(t, srv, prefix+"/secret", signV1(prefix+"/secret", `{"v":1}`))
	writeBack(t, srv, prefix+"/stop", stopV1)
	writeBack(t, srv, prefix+"/agents/ada", agentV1)
	s, err := openWith(t, srv, testSecret, &logBuf{})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := s.Stop(ctxFor(t)); err != nil || !st.Stopped {
		t.Fatalf("the Stop signed before the upgrade reads %+v (%v), want stopped", st, err)
	}
	if v, ok, err := s.Get(ctxFor(t), shared.Agents, "ada"); err != nil || !ok || string(v.Value) != `{"name":"ada"}` {
		t.Fatalf("the agent signed before the upgrade reads %q %v (%v)", v.Value, ok, err)
	}
	if _, err := s.SetStop(ctxFor(t), false, time.Now()); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Stop(ctxFor(t)); err != nil || st.Stopped {
		t.Fatalf("after the owner's resume the Stop reads %+v (%v)", st, err)
	}
	writeBack(t, srv, prefix+"/stop", stopV1)
	// Written back over the resume, the old record is a replay: refused,
	// and (failing closed) read as a Stop until the owner writes again.
	if st, err := s.Stop(ctxFor(t)); !st.Stopped || err == nil {
		t.Fatalf("the old Stop written back over the resume reads %+v (%v), want refused", st, err)
	}
}
