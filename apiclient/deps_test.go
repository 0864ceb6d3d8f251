package apiclient_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

func TestTheClientSpeaksOnlyTheContract(t *testing.T) {
	deptest.Check(t, deptest.Module+"/apiclient", map[string]string{
		deptest.Module + "/actors":  "the API client reaches buddi over HTTP only",
		deptest.Module + "/drivers": "the API client reaches buddi over HTTP only",
		deptest.Module + "/daemon":  "the API client reaches buddi over HTTP only",
		deptest.Module + "/ui":      "the API client reaches buddi over HTTP only",
	})
}
