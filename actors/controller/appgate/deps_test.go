package appgate_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The owner's answers about apps are a tested part of the controller.
func TestAppgateImportsOnlyTheContract(t *testing.T) {
	deptest.Only(t, "actors/controller/appgate", map[string]string{
		"messages": "the contract: answers, codes, events and the messages it takes",
	})
}
