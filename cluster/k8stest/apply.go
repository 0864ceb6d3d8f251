package k8stest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
)

// ApplyAccess makes, in Namespace, the service accounts, roles and role
// bindings of the manifest at path, and returns how many it made; the
// manifest's other objects are not applied (nothing here would run them).
func (s *Server) ApplyAccess(t testing.TB, path string) int {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, made := context.Background(), 0
	docs := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(raw)))
	for {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return made
		}
		if err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("decode an object of %s: %v", path, err)
		}
		switch o := obj.(type) {
		case *corev1.ServiceAccount:
			_, err = s.Admin.CoreV1().ServiceAccounts(Namespace).Create(ctx, o, metav1.CreateOptions{})
		case *rbacv1.Role:
			_, err = s.Admin.RbacV1().Roles(Namespace).Create(ctx, o, metav1.CreateOptions{})
		case *rbacv1.RoleBinding:
			_, err = s.Admin.RbacV1().RoleBindings(Namespace).Create(ctx, o, metav1.CreateOptions{})
		default:
			continue
		}
		if err != nil {
			t.Fatalf("apply %T of %s: %v", obj, path, err)
		}
		made++
	}
}
