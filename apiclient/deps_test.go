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

// The one client of the API speaks the contract over HTTP.
func TestTheClientImportsOnlyTheContract(t *testing.T) {
	deptest.Only(t, "apiclient", map[string]string{
		"messages": "requests and answers are the contract's",
	})
}
