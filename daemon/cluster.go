package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/cluster/shared"
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
	ctx, cancel := context.WithTimeout(context.Background(), clusterOpenWait)
	defer cancel()
	st, err := shared.Open(ctx, shared.Config{Endpoints: d.cfg.ClusterEtcd, Prefix: shared.DefaultPrefix})
	if err != nil {
		return fmt.Errorf("daemon: --cluster: %w; start etcd, or set BUDDI_CLUSTER_ETCD to its client endpoints", err)
	}
	d.shared = st
	return nil
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
