//go:build tools

// Package kube pins the kube-apiserver the cluster's Kubernetes tests run
// (cluster/k8stest): Kubernetes' own, built from its source by
// `make test-k8s` into bin/. Kubernetes' staging modules are replaced by
// their releases of the same version, as its go.mod replaces them by its
// own directories. A module of its own, so none of this reaches buddi's.
package kube

import _ "k8s.io/kubernetes/cmd/kube-apiserver/app"
