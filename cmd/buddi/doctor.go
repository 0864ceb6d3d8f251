package main

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/doctor"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/messages"
)

func init() {
	register(&command{name: "doctor", summary: "check this install and say how to fix what is wrong", run: doctorCmd})
}

func doctorCmd(e *env, args []string) int {
	f := newFlags(e, "doctor")
	f.BoolVar(&f.cfg.Cluster, "cluster", f.cfg.Cluster, "check the cluster's etcd (BUDDI_CLUSTER_ETCD) and list its members (env BUDDI_CLUSTER)")
	f.StringVar(&f.cfg.ClusterSecret, "cluster-secret", f.cfg.ClusterSecret, "with --cluster, the `FILE` holding the cluster's secret; default cluster.secret in the data directory (env BUDDI_CLUSTER_SECRET)")
	if code, ok := f.parse(args, 0); !ok {
		return code
	}
	rows := doctor.Rows(f.cfg, doctor.Options{TokenFile: instance.OwnerTokenFile, Launch: true,
		InUse: func() (string, int, bool) {
			inst, err := instance.ReadInstance(f.cfg.DataDir)
			return inst.Addr, inst.PID, err == nil && running(inst.Addr)
		},
		Serving: func() (string, string) {
			inst, err := instance.ReadInstance(f.cfg.DataDir)
			switch {
			case errors.Is(err, instance.ErrUntrustedInstance):
				return "", strings.TrimPrefix(err.Error(), "daemon: ") + "."
			case err != nil:
				return "", ""
			}
			return inst.Addr, ""
		},
		Telegram: func() (messages.TelegramView, bool, error) { return telegramView(f.cfg) },
		Computer: func(ctx context.Context) messages.Permissions {
			return native.PermissionsOf(ctx, f.cfg.ComputerHelper, false)
		},
		Running: func() (*messages.BrowserLaunch, bool) { return runningBrowser(f.cfg) },
	})
	tb := newTable(e.stdout)
	for _, r := range rows {
		tb.row(r.Name, r.Level, r.Text)
	}
	_ = tb.flush()
	if doctor.Worst(rows) == doctor.Error {
		return exitFail
	}
	return exitOK
}

// runningBrowser asks the running buddi serve, if one answers, where its
// browser is in its start.
func runningBrowser(c config.Config) (*messages.BrowserLaunch, bool) {
	inst, err := instance.ReadInstance(c.DataDir)
	if err != nil || !running(inst.Addr) {
		return nil, false
	}
	token, err := instance.ReadOwnerToken(c.DataDir)
	if err != nil {
		return nil, false
	}
	cl, err := apiclient.New("http://" + inst.Addr)
	if err != nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h, err := cl.Owner(token).Health(ctx)
	if err != nil {
		return nil, false
	}
	return h.Browser, true
}
