package grains_test

import (
	"testing"

	"github.com/buddi-dev/buddi/cluster/grains"
)

func TestRegisterRefusesClashesAndNonStructs(t *testing.T) {
	r := grains.NewRegistry()
	if err := grains.Register[Incr](r, "test.Incr"); err != nil {
		t.Fatal(err)
	}
	cases := map[string]error{
		"name twice":   grains.Register[Where](r, "test.Incr"),
		"type twice":   grains.Register[Incr](r, "test.Other"),
		"failure name": grains.Register[Where](r, "grains.Failure"),
		"empty name":   grains.Register[Where](r, ""),
		"newline":      grains.Register[Where](r, "a\nb"),
		"not a struct": grains.Register[int](r, "test.Int"),
	}
	for name, err := range cases {
		if err == nil {
			t.Errorf("%s: Register accepted it", name)
		}
	}
}
