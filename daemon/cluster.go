package daemon

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/messages"
)

// clusterOpenWait bounds reaching etcd when a member starts.
const clusterOpenWait = 10 * time.Second

// openCluster connects a member (--cluster) to the cluster's etcd; nil
// without --cluster. A member that cannot reach etcd does not start: it
// could not know whether the owner stopped browser access.
func (d *Daemon) openCluster() error {
	if !d.cfg.Cluster {
		return nil
	}
	files := clusterTLSFiles(d.cfg)
	if files.Set() {
		t, err := files.Load()
		if err != nil {
			return fmt.Errorf("daemon: --cluster: %w", err)
		}
		d.clusterTLS = t
	}
	ctx, cancel := context.WithTimeout(context.Background(), clusterOpenWait)
	defer cancel()
	st, err := shared.Open(ctx, shared.Config{Endpoints: d.cfg.ClusterEtcd, Prefix: shared.DefaultPrefix, TLS: d.etcdTLS()})
	var down *shared.UnreachableError
	switch {
	case errors.As(err, &down):
		how := "if it requires TLS, give BUDDI_CLUSTER_CA, BUDDI_CLUSTER_CERT and BUDDI_CLUSTER_KEY"
		if d.clusterTLS != nil {
			how = "check that it trusts the CA in BUDDI_CLUSTER_CA and serves TLS"
		}
		return fmt.Errorf("daemon: --cluster: etcd at %s does not answer (%w), so this member does not start; start etcd, set BUDDI_CLUSTER_ETCD to its client endpoints, or, %s", strings.Join(down.Endpoints, ", "), down.Err, how)
	case err != nil:
		return fmt.Errorf("daemon: --cluster: %w", err)
	}
	d.shared = st
	return nil
}

// clusterTLSFiles are the cluster's TLS files the configuration names.
func clusterTLSFiles(c config.Config) shared.TLSFiles {
	return shared.TLSFiles{CA: c.ClusterCA, Cert: c.ClusterCert, Key: c.ClusterKey}
}

// etcdTLS is how this member reaches etcd: nil in the clear.
func (d *Daemon) etcdTLS() *tls.Config {
	if d.clusterTLS == nil {
		return nil
	}
	return d.clusterTLS.Client()
}

// memberTLS is the members' transport's TLS: nil in the clear.
func (d *Daemon) memberTLS() *tls.Config {
	if d.clusterTLS == nil {
		return nil
	}
	return d.clusterTLS.Member()
}

// watchCluster feeds the controller what this member's watch learns of the
// shared Stop, and registers the member (joinCluster). The first event is
// delivered before it returns, so the member knows of a Stop before it
// serves anyone.
func (d *Daemon) watchCluster() error {
	if d.shared == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.unwatch = cancel
	if err := d.watchStop(ctx); err != nil {
		return err
	}
	stop, err := d.joinCluster(ctx)
	if err != nil {
		return err
	}
	d.unwatch = func() { cancel(); stop() }
	if err := d.watchAgents(ctx); err != nil {
		return err
	}
	if err := d.watchSites(ctx); err != nil {
		return err
	}
	mirror := d.mirrorTasks(ctx)
	d.unwatch = func() { cancel(); stop(); mirror() }
	d.relay = &relay{d: d, heard: map[messages.Event]bool{}}
	if err := d.startGrains(); err != nil {
		return err
	}
	told := d.relay.start(ctx)
	d.unwatch = func() { cancel(); stop(); mirror(); told() }
	return nil
}

func (d *Daemon) watchStop(ctx context.Context) error {
	err := d.shared.Watch(ctx, func(ev shared.Event) {
		m := &messages.ClusterStop{Reachable: ev.Reachable, Stopped: ev.State.Stopped, At: ev.State.At}
		var down *shared.UnreachableError
		switch {
		case errors.As(ev.Err, &down):
			m.Why = "etcd at " + strings.Join(down.Endpoints, ", ") + " does not answer"
		case ev.Err != nil:
			m.Why = ev.Err.Error()
		}
		d.sys.Root.Send(d.controller, m)
	})
	if err != nil {
		return fmt.Errorf("daemon: watch the cluster's Stop: %w", err)
	}
	return nil
}

// closeCluster ends the watch and the client.
func (d *Daemon) closeCluster() error {
	if d.unwatch != nil {
		d.unwatch()
	}
	if d.shared == nil {
		return nil
	}
	return d.shared.Close()
}

// sharedStop is the controller's view of the store: nil (an interface
// holding no store) on one host.
func (d *Daemon) sharedStop() controller.SharedStop {
	if d.shared == nil {
		return nil
	}
	return d.shared
}
