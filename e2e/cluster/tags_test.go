//go:build !k8s

package cluster_test

// memberBuild is the members' binary as `make build` makes it.
var memberBuild []string
