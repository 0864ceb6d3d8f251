package sim_test

import (
	"testing"

	"github.com/buddi-dev/buddi/drivers/drivertest"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestModeContract(t *testing.T) {
	drivertest.RunMode(t, sim.NewMode(sim.Config{}, 2))
}
