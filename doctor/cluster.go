package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/messages"
)

// clusterWait bounds reaching etcd for the cluster row.
const clusterWait = 3 * time.Second

// clusterRow is a cluster member's etcd as this host reaches it: whether
// the cluster's secret file is there and private and is the running
// cluster's, whether etcd answers (over TLS beyond loopback), the Stop it
// holds, and the members registered in it.
func clusterRow(c config.Config) messages.DoctorRow {
	ctx, cancel := context.WithTimeout(context.Background(), clusterWait)
	defer cancel()
	where := strings.Join(c.ClusterEtcd, ", ")
	secret, err := shared.ReadSecret(c.ClusterSecretPath())
	if err != nil {
		return row("cluster", Error, err.Error())
	}
	cfg := shared.Config{Endpoints: c.ClusterEtcd, Prefix: shared.DefaultPrefix, DialTimeout: clusterWait, Secret: secret}
	if files := (shared.TLSFiles{CA: c.ClusterCA, Cert: c.ClusterCert, Key: c.ClusterKey}); files.Set() {
		t, err := files.Load()
		if err != nil {
			return row("cluster", Error, fmt.Sprintf("The cluster's TLS files cannot be used: %v.", strings.TrimPrefix(err.Error(), "shared: ")))
		}
		cfg.TLS = t.Client()
	}
	st, err := shared.Open(ctx, cfg)
	if err != nil {
		return clusterDown(where, err)
	}
	defer st.Close()
	joined, err := st.CheckSecret(ctx)
	var mismatch *shared.SecretMismatchError
	if errors.As(err, &mismatch) {
		return row("cluster", Error, mismatch.Error())
	}
	if err != nil {
		return clusterDown(where, err)
	}
	members, err := st.Members(ctx)
	if err != nil {
		return clusterDown(where, err)
	}
	stop, err := st.Stop(ctx)
	var malformed *shared.MalformedError
	if err != nil && !errors.As(err, &malformed) {
		return clusterDown(where, err)
	}
	text := fmt.Sprintf("etcd at %s answers; %s%s", where, memberList(members), membershipSentence(c.ClusterMembership))
	if joined && stop.Stopped {
		text += " The owner's Stop is in force on every member; `buddi resume --all` lifts it."
	}
	if plain := shared.PlaintextBeyondLoopback(c.ClusterEtcd, cfg.TLS != nil); len(plain) > 0 {
		text += fmt.Sprintf(" etcd at %s is spoken to without TLS beyond loopback, which members refuse unless --cluster-plaintext-etcd; give BUDDI_CLUSTER_CA, BUDDI_CLUSTER_CERT and BUDDI_CLUSTER_KEY.", strings.Join(plain, ", "))
		return row("cluster", Warning, text)
	}
	if len(members) == 0 {
		return row("cluster", Warning, text+" Start `buddi serve --cluster` on each host; a member registers when it starts.")
	}
	return row("cluster", OK, text)
}

// membershipSentence says who keeps the member list when etcd does not.
func membershipSentence(kind string) string {
	switch kind {
	case "k8s":
		return " Members route conversations by the Kubernetes pods' labels (BUDDI_CLUSTER_MEMBERSHIP=k8s)."
	}
	return ""
}

func clusterDown(where string, err error) messages.DoctorRow {
	var down *shared.UnreachableError
	if errors.As(err, &down) && down.Err != nil {
		err = down.Err
	}
	return row("cluster", Error, fmt.Sprintf("etcd at %s does not answer (%v), so every member refuses new work; start etcd, or set BUDDI_CLUSTER_ETCD to its client endpoints, and check that this host reaches their port (2379).", where, err))
}

// memberList says how many members there are and where, with their free
// sessions.
func memberList(ms []shared.Member) string {
	if len(ms) == 0 {
		return "no member is registered."
	}
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%s at %s, %d of %d sessions free", m.ID, m.Addr, max(m.Capacity.Sessions-m.Capacity.SessionsInUse, 0), m.Capacity.Sessions)
	}
	noun := "members"
	if len(ms) == 1 {
		noun = "member"
	}
	return fmt.Sprintf("%d %s: %s.", len(ms), noun, strings.Join(parts, "; "))
}
