package main

import (
	"fmt"

	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/config"
)

func init() {
	register(&command{name: "cluster", args: "init [--out FILE]",
		summary: "make the cluster's secret, which every `serve --cluster` member needs: copy the file to each (it is never kept in etcd)", run: clusterCmd})
}

func clusterCmd(e *env, args []string) int {
	f := newFlags(e, "cluster")
	out := f.String("out", "", "init: write the secret to `FILE`; default cluster.secret in the data directory")
	if code, ok := f.parse(args, -1); !ok {
		return code
	}
	if len(f.pos) != 1 || f.arg(0) != "init" {
		return usageFail(e, "cluster", "expected `init`; run `buddi cluster --help`.")
	}
	path := *out
	if path == "" {
		path = f.cfg.ClusterSecretPath()
	}
	if err := shared.MakeSecret(path); err != nil {
		return fail(e, "cluster", "%v", err)
	}
	fmt.Fprintf(e.stdout, "The cluster's secret is in %s (mode 0600). Copy it to every member, into its data directory as %s or to the path its --cluster-secret names; members without it do not start.\n", path, config.ClusterSecretFile)
	return exitOK
}
