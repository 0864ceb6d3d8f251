//go:build k8s

package cluster_test

// memberBuild links the Kubernetes membership into the members' binary.
var memberBuild = []string{"-tags", "k8s"}
