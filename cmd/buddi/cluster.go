package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/buddi-dev/buddi/cluster/shared"
)

func init() {
	register(&command{name: "cluster", args: "init", summary: "make the cluster's secret, once, for the operator to copy to every member", run: clusterCmd})
}

func clusterCmd(e *env, args []string) int {
	f := newFlags(e, "cluster")
	out := f.String("out", "", "write the secret to `FILE`; default cluster.secret in the data directory (BUDDI_CLUSTER_SECRET, --cluster-secret, when set)")
	if code, ok := f.parse(args, 1); !ok {
		return code
	}
	if f.pos[0] != "init" {
		return usageFail(e, "cluster", fmt.Sprintf("there is no `buddi cluster %s`; the one subcommand is `buddi cluster init`.", f.pos[0]))
	}
	path := *out
	if path == "" {
		path = f.cfg.ClusterSecretPath()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fail(e, "cluster", "The directory of %s cannot be made (%v).", path, err)
		}
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fail(e, "cluster", "%s is a directory: name the secret's file, for example --out %s.", path, filepath.Join(path, shared.SecretFile))
	}
	if err := shared.WriteSecret(path); err != nil {
		if errors.Is(err, shared.ErrSecretExists) {
			return fail(e, "cluster", "%s exists and is not overwritten: a cluster has one secret; copy that file to every member, or remove it first only to start a new cluster.", path)
		}
		return fail(e, "cluster", "%s", strings.TrimPrefix(err.Error(), "shared: "))
	}
	fmt.Fprintf(e.stdout, "Wrote the cluster's secret to %s (mode 0600). Copy this same file to every member (cluster.secret in its data directory, or --cluster-secret FILE), readable only by the user buddi runs as; never put it in etcd.\n", path)
	return exitOK
}
